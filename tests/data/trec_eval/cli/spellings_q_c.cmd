trec_eval -q -c -m iprec_at_recall..10,.20 -m P.23.4 -m ndcg_cut.10,20,23.4 examples/trec/qrels.txt examples/trec/run.txt
