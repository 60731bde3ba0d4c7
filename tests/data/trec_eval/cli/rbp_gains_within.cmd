trec_eval -q -m rbp.1=0.5,2=0.25 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
