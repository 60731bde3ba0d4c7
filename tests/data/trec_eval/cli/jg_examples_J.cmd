trec_eval -q -c -J -m qrels_jg -R qrels_jg tests/data/trec_eval/cli/examples_jg.qrels examples/trec/run.txt
