// Reads a Python value (dict/list/tuple/str/int/float/bool/None) into a request Document,
// through RequestReader so that the parse-level checks run in document order.
#pragma once

#include "common/limits.hpp"
#include "json/document.hpp"
#include "pybind.hpp"

namespace evalcore {

class RequestStrings;

// Needs the GIL. Throws RequestError for a parse-level fault. When `strings` is given, the
// str objects of string values are kept there by node index (results reuse them).
void read_python_request(PyObject* value, const Limits& limits, Document& doc, RequestStrings* strings = nullptr);

Limits limits_from_tuple(const py::tuple& values);

}  // namespace evalcore
