// One registration function per concept; module.cpp calls them all.
#pragma once

#include <string>
#include <vector>

#include "pybind.hpp"
#include "tags/tags.hpp"

namespace evalcore {

void register_errors(py::module_& m);
void register_json(py::module_& m);
void register_ranking(py::module_& m);
void register_spans(py::module_& m);
void register_score(py::module_& m);
void register_evaluate_json(py::module_& m);
void register_runs(py::module_& m);
void register_exact_sum(py::module_& m);
void register_stats(py::module_& m);
void register_trec_eval(py::module_& m);
void register_judgment_groups(py::module_& m);  // issue 23: trec_eval -R qrels_jg
void register_preferences(py::module_& m);      // issue 23: trec_eval -R prefs, -R qrels_prefs
void register_schemas(py::module_& m);          // issue 24: nervaluate's schemas (evaluate_schemas)
void register_tags(py::module_& m);             // issue 24: tags_to_spans, evaluate_tags
void register_diversity(py::module_& m);
// (query_ids, values bytes, means, defined counts, missing query_ids): what evaluate_run_jg and
// evaluate_run_diversity return (register_jg.cpp).
struct RunResults;
py::tuple judged_run_tuple(const RunResults& results);         // issue 25 item 1: evaluate_run(qrels_format='subtopics')
void register_conll(py::module_& m);            // issue 24: read_conll, evaluate_tags on CoNLL files

// seqeval's report as evaluate_tags' core returns it: (report, accuracy, types, supports,
// predicted); register_tags.cpp, shared with register_conll.cpp.
py::tuple tag_report_tuple(const tags::TypeCounts& counts, const tags::TagReport& report,
                           const std::vector<std::string>& type_names, int64_t correct, int64_t total);

}  // namespace evalcore
