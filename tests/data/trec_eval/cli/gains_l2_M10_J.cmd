trec_eval -q -c -l 2 -M 10 -J -m binG -m G -m ndcg_rel -m Rndcg -m dcg tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
