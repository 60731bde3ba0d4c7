trec_eval -q -c -m all_trec tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
