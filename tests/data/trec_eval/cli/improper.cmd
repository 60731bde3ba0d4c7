trec_eval -m P. examples/trec/qrels.txt examples/trec/run.txt
