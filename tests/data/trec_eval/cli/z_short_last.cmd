trec_eval -c -Z tests/data/trec_eval/cli/short_last.zscores examples/trec/qrels.txt examples/trec/run.txt
