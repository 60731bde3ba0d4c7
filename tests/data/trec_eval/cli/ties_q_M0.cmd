trec_eval -q -c -M 0 -m official -m 11pt_avg tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
