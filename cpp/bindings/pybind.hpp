// The one header through which the bindings include pybind11 (and so Python.h).
#pragma once

#include <pybind11/pybind11.h>
// In every binding file, so that a standard container has one caster everywhere: a file that
// cast a std::array without it got pybind11's generic caster, another file's instantiation of
// the same template differed (an ODR violation), and the linker of the manylinux wheel kept the
// generic one: evaluate_run refused every iterable of records there ("incompatible function
// arguments"), while the editable build happened to keep the right one.
#include <pybind11/stl.h>

namespace py = pybind11;
