trec_eval -c -m prefs_simp.5 -m prefs_pair -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
