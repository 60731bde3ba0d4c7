trec_eval -m G.1=3,2 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
