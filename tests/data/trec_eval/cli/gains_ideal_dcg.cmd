trec_eval -q -c -m ideal_dcg.2=0.25,4=3,0=2 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
