// The `conventions` table handed over from python/evalcore/requests/conventions.py.
#pragma once

#include "common/evaluation.hpp"
#include "pybind.hpp"

namespace evalcore {

ConventionsTable conventions_from_python(const py::tuple& table);

}  // namespace evalcore
