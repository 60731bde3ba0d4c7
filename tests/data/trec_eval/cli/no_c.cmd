trec_eval -q examples/trec/qrels.txt examples/trec/run.txt
