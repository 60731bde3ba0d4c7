trec_eval -q -c -l 2 -M 3 -m all_trec tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
