trec_eval -c -m all_trec examples/trec/qrels.txt examples/trec/run.txt
