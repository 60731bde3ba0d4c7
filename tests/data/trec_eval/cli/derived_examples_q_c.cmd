trec_eval -q -c -m official -m set -m 11pt_avg.1,0,0.5 -m relative_P examples/trec/qrels.txt examples/trec/run.txt
