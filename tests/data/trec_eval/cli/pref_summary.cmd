trec_eval -c -m prefs -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
