trec_eval -n -q -c examples/trec/qrels.txt examples/trec/run.txt
