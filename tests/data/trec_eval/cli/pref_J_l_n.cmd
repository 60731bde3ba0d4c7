trec_eval -q -c -J -l 2 -n -m all_prefs -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
