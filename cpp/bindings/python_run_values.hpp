// How evaluate_run's bindings read IDs and numbers from Python objects (dicts, columns,
// iterables of records): the same rules and messages for every source.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "common/text_arena.hpp"
#include "pybind.hpp"
#include "runs/records.hpp"

namespace evalcore {

[[noreturn]] inline void fail(const char* source, const std::string& message) { throw RunInputError(source, 0, message); }

inline std::string type_name(PyObject* o) { return Py_TYPE(o)->tp_name; }

// An ID as UTF-8, copied into the source's arena. `where` names it in a message; it is
// only called (built) on failure, so the loops build no strings. An int (not a bool) is an
// ID too, in the 64-bit range of an integer column: integer_id's decimal text, as that
// column's cells. An int subclass is read by its stored value (no Python code runs).
template <class Where>
std::string_view read_id(PyObject* o, TextArena& arena, const char* name, Where&& where) {
    if (PyLong_Check(o) && !PyBool_Check(o)) {
        int overflow = 0;
        const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow == 0) return integer_id(value, arena);
        const unsigned long long large = overflow > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
        if (overflow < 0 || (large == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
            PyErr_Clear();
            fail(name, where() + " is an integer outside the 64-bit range");
        }
        return integer_id(large, arena);
    }
    if (!PyUnicode_Check(o)) fail(name, where() + " must be a str or an int, got " + type_name(o));
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(o, &size);
    if (data == nullptr) {
        PyErr_Clear();
        fail(name, where() + " is not valid Unicode (it holds a lone surrogate)");
    }
    if (size == 0) fail(name, where() + " must not be empty");
    return arena.copy(std::string_view(data, static_cast<size_t>(size)));
}

// Python code may run while a number is read (a numpy scalar's __float__) or a mapping's
// entries are listed (a subclass's items()): it may change or free anything the reading
// holds. So the entries are read by EntryReader, which holds what it reads; exact floats and
// ints, and float and int subclasses (read by their stored value), run no Python code.
inline bool runs_python(PyObject* number) { return !PyFloat_Check(number) && !PyLong_Check(number); }

// A grade or score: a finite int or float (bool is not a number). A float or int subclass
// is read by its stored value (its own methods are not called); anything else through
// __float__ (or __index__), as float() does.
template <class Where>
double read_number(PyObject* o, const char* name, Where&& where) {
    double value = 0;
    if (PyFloat_Check(o)) {
        value = PyFloat_AS_DOUBLE(o);
    } else if (PyBool_Check(o)) {
        fail(name, where() + " must be a number, got bool");
    } else if (PyLong_Check(o)) {
        value = PyLong_AsDouble(o);
    } else {
        value = PyFloat_AsDouble(o);  // numeric scalars (numpy's): Python code
    }
    if (value == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        fail(name, where() + " must be a number, got " + type_name(o));
    }
    if (!std::isfinite(value)) fail(name, where() + " must be a finite number");
    return value;
}

}  // namespace evalcore
