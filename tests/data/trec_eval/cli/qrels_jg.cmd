trec_eval -q -m qrels_jg examples/trec/qrels.txt examples/trec/run.txt
