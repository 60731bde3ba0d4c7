trec_eval -q -m G tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
