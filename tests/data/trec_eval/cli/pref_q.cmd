trec_eval -q -m all_prefs -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
