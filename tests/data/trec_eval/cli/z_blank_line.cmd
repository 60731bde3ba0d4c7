trec_eval -c -Z tests/data/trec_eval/cli/blank_line.zscores examples/trec/qrels.txt examples/trec/run.txt
