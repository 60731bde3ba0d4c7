trec_eval -q -c -l 2 -m gm_map -m 11pt_avg -m relative_P.1,2 -m set tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
