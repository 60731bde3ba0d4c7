// One registration function per concept; module.cpp calls them all.
#pragma once

#include "pybind.hpp"

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

}  // namespace evalcore
