trec_eval -q -c -m all_prefs -R qrels_prefs tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
