trec_eval -q -c -l 2 -J -M 6 -m qrels_jg -R qrels_jg tests/data/trec_eval/cli/ties.qrels_jg tests/data/trec_eval/cli/ties.run
