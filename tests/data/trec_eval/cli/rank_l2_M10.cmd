trec_eval -q -c -l 2 -M 10 -m all_trec tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
