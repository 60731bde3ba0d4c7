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
//
// Values are read as json.dumps reads them: a dict subclass through its items(); list,
// tuple, str, int and float subclasses by their stored values (none of their methods run).
void read_python_request(PyObject* value, const Limits& limits, Document& doc, RequestStrings* strings = nullptr);

// The same for one document of a corpus whose jsonNodes limit is a total: `nodes` holds
// the values counted before it and comes back with this document's added.
void read_python_document(PyObject* value, const Limits& limits, Document& doc, int64_t& nodes);

Limits limits_from_tuple(const py::tuple& values);

}  // namespace evalcore
