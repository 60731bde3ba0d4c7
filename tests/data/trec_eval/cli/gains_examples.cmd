trec_eval -q -c -m binG -m G.2=5 -m ideal_dcg -m ndcg_rel -m Rndcg examples/trec/qrels.txt examples/trec/run.txt
