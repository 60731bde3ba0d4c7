trec_eval -q -m rbp tests/data/trec_eval/cli/fraction.qrels tests/data/trec_eval/inputs/grades.run
