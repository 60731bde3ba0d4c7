trec_eval -q -m utility.1,2 examples/trec/qrels.txt examples/trec/run.txt
