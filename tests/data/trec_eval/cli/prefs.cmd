trec_eval -q -c -m prefs examples/trec/qrels.txt examples/trec/run.txt
