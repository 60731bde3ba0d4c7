trec_eval examples/trec/qrels.txt examples/trec/run.txt
