trec_eval -q -c -m dcg.-2=1,1=3,1=5 tests/data/trec_eval/cli/gains.qrels tests/data/trec_eval/cli/gains.run
