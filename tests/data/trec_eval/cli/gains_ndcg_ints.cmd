trec_eval -q -c -m ndcg.1=1,2=3,3=7,4=15,6=63 -m G.4=1,1=4 -m ndcg_rel.2=0 -m Rndcg.6=2 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
