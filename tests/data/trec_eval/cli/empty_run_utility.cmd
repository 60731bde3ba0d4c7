trec_eval -c -m utility.1,2 tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/inputs/empty.run
