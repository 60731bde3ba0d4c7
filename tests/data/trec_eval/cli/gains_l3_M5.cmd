trec_eval -q -c -l 3 -M 5 -m all_trec -m Rndcg.3=0,4=0,6=0 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
