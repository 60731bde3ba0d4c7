trec_eval -c -m prefs_simp -m map_avgjg -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
