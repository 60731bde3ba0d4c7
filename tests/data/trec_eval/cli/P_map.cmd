trec_eval -c -m P.5,10 -m map examples/trec/qrels.txt examples/trec/run.txt
