trec_eval -q -c -m relstring.40 -m relstring.3 tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
