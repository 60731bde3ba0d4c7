trec_eval -c -R bogus -m map_avgjg tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
