trec_eval -c -Z tests/data/trec_eval/inputs/empty.run examples/trec/qrels.txt examples/trec/run.txt
