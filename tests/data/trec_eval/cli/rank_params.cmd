trec_eval -q -c -m Rprec_mult.0,0.3,0.5,2.5 -m unj.1,3,50 -m rbp.p=0.5 -m rbp_resid.x=1,p=0.95 -m infAP tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
