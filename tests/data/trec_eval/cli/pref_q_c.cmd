trec_eval -q -c -m all_prefs -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
