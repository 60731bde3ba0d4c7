trec_eval -c examples/trec/qrels.txt - < examples/trec/run.txt
