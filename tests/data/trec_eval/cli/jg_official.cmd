trec_eval -c -R qrels_jg tests/data/trec_eval/cli/examples_jg.qrels examples/trec/run.txt
