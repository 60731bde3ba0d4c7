trec_eval -q -c -m P.3,5 -m gm_bpref -m relstring.5 -m num_q -m utility.1,-1,0,0 -Z tests/data/trec_eval/cli/examples.zscores examples/trec/qrels.txt examples/trec/run.txt
