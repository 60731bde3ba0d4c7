trec_eval -c tests/data/trec_eval/cli/ties.qrels - < tests/data/trec_eval/inputs/empty.run
