trec_eval -c -m map_avgjg -m P_avgjg.5,10 -R qrels_jg tests/data/trec_eval/cli/examples_jg.qrels examples/trec/run.txt
