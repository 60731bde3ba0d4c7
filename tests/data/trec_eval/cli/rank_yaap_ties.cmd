trec_eval -q -c -m yaap tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
