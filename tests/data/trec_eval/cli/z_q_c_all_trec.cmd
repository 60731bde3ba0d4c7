trec_eval -q -c -m all_trec -Z tests/data/trec_eval/cli/examples.zscores examples/trec/qrels.txt examples/trec/run.txt
