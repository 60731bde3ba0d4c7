trec_eval -q -c -M 0 -m qrels_jg -R qrels_jg tests/data/trec_eval/cli/ties.qrels_jg tests/data/trec_eval/cli/ties.run
