trec_eval -q -c -l 2 -M 5 -m all_trec -Z tests/data/trec_eval/cli/examples.zscores examples/trec/qrels.txt examples/trec/run.txt
