trec_eval -q -c -m rbp_resid.1=2,p=0.8 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
