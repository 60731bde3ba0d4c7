trec_eval -c -m P.0,5 -Z tests/data/trec_eval/cli/malformed.zscores examples/trec/qrels.txt examples/trec/run.txt
