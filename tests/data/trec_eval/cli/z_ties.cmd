trec_eval -q -c -m all_trec -Z tests/data/trec_eval/cli/examples.zscores tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
