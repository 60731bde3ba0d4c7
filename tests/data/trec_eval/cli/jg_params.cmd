trec_eval -q -c -m P_avgjg.3,1,8 -m Rprec_mult_avgjg.3,0.5,1,0.1 -m map_avgjg -R qrels_jg tests/data/trec_eval/cli/ties.qrels_jg tests/data/trec_eval/cli/ties.run
