trec_eval -q -c examples/trec/qrels.txt examples/trec/run.txt
