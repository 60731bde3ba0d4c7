trec_eval -c tests/data/trec_eval/inputs/agree.qrels tests/data/trec_eval/inputs/agree.run
