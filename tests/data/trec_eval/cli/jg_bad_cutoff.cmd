trec_eval -c -m P_avgjg.0 -R qrels_jg tests/data/trec_eval/cli/ties.qrels_jg tests/data/trec_eval/cli/ties.run
