trec_eval -q -c -m G.1=3,x=2,2=7.5,4=0.5 -m ndcg.1=0.5,2=0.7,3=9 -m ndcg_rel.0=1,-1=2,3=-1 -m Rndcg.2=1,1=1.4 -m binG tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
