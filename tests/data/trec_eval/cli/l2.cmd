trec_eval -q -c -l 2 examples/trec/qrels.txt examples/trec/run.txt
