trec_eval -q -c -m all_prefs -Z tests/data/trec_eval/cli/ties_prefs.zscores -R prefs tests/data/trec_eval/cli/ties.prefs tests/data/trec_eval/cli/ties.run
