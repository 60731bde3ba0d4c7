trec_eval -q -c -m rbp.2=5,1=3,p=0.95 tests/data/trec_eval/cli/ties.qrels tests/data/trec_eval/cli/ties.run
