trec_eval -q -c -J -m official -m ndcg -m set tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
