trec_eval -q -c -M 10 examples/trec/qrels.txt examples/trec/run.txt
