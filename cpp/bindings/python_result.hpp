// Turns a result Document into Python objects (dict/list/str/int/float/bool/None).
#pragma once

#include "../json_document.hpp"
#include "pybind.hpp"

namespace evalcore {

// Needs the GIL.
py::object result_to_python(const Document& doc);

}  // namespace evalcore
