trec_eval -q -c -m yaap -m infAP -m num_nonrel_judged_ret tests/data/trec_eval/cli/rank.qrels tests/data/trec_eval/cli/rank.run
