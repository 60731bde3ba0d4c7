trec_eval -c -Z tests/data/trec_eval/cli/malformed.zscores examples/trec/qrels.txt examples/trec/run.txt
