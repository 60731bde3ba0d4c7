trec_eval -q -c -m all_trec tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
