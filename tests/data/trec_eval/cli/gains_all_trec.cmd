trec_eval -q -c -m all_trec tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
