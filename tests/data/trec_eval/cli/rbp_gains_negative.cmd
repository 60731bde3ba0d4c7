trec_eval -q -c -m rbp.0=-1,3=0.5 tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
