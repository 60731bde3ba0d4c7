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

}  // namespace evalcore
