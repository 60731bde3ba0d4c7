trec_eval -c -m P.0 examples/trec/qrels.txt examples/trec/run.txt
