trec_eval -q -c -m map -m P.5,10 -Z tests/data/trec_eval/cli/atof.zscores examples/trec/qrels.txt examples/trec/run.txt
