trec_eval -m rbp.p=0.5, tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
