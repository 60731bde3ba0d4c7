trec_eval -q -c -m all_prefs -R qrels_prefs examples/trec/qrels.txt examples/trec/run.txt
