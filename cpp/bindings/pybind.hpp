// The one header through which the bindings include pybind11 (and so Python.h).
#pragma once

#include <pybind11/pybind11.h>

namespace py = pybind11;
