trec_eval -c -m P.0 tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/inputs/empty.run
