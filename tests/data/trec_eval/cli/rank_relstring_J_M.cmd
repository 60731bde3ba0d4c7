trec_eval -q -c -J -M 5 -m relstring.7.9,2 -m num_ret tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
