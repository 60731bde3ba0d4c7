trec_eval -q -Z tests/data/trec_eval/cli/examples.zscores -m official examples/trec/qrels.txt examples/trec/run.txt
