trec_eval -c -m prefs_simp -m map_avgjg -R qrels_jg tests/data/trec_eval/cli/ties.qrels_jg tests/data/trec_eval/cli/ties.run
