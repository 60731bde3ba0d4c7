trec_eval -q -c tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/final_comment.run
