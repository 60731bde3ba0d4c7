trec_eval -q -c -J examples/trec/qrels.txt examples/trec/run.txt
