trec_eval -c -m all_prefs examples/trec/qrels.txt examples/trec/run.txt
