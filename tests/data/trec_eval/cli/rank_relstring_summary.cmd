trec_eval -c -m relstring -m map tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
