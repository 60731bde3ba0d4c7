// Reads a Python value (dict/list/tuple/str/int/float/bool/None) into a request Document,
// through RequestReader so that the parse-level checks run in document order.
#pragma once

#include "../limits.hpp"
#include "../json_document.hpp"
#include "pybind.hpp"

namespace evalcore {

// Needs the GIL. Throws RequestError for a parse-level fault.
void read_python_request(PyObject* value, const Limits& limits, Document& doc);

Limits limits_from_tuple(const py::tuple& values);

}  // namespace evalcore
