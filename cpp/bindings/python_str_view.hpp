// Views of the caller's str objects as UTF-8, for the fast paths that skip the request tree.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "pybind.hpp"

namespace evalcore {

// Strong references to the str objects whose buffers the fast path views (the caller could
// drop or replace them while the GIL is released); released with the GIL held.
class HeldObjects {
public:
    HeldObjects() = default;
    HeldObjects(const HeldObjects&) = delete;
    HeldObjects& operator=(const HeldObjects&) = delete;
    ~HeldObjects() {
        for (PyObject* o : objects_) Py_DECREF(o);
    }
    void reserve(size_t n) { objects_.reserve(n); }
    void hold(PyObject* o) {
        Py_INCREF(o);
        objects_.push_back(o);
    }

private:
    std::vector<PyObject*> objects_;
};

// An exact str whose text can be read in place (it is ready: always from 3.12 on). Only
// reads the object, so threads may call it; a legacy str that is not ready, and any str
// subclass (whose __eq__ or __hash__ could run Python code), go to the slow paths.
inline bool is_ready_str(PyObject* value) {
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_CheckExact(value) && PyUnicode_IS_READY(value);
#else
    return PyUnicode_CheckExact(value);
#endif
}

// The text of `value` (a str) as UTF-8: viewed in place when ASCII (and held), otherwise
// copied into `arena` (stable addresses). False when `value` is not a str, or holds a
// surrogate code point (lone, in a Python str): the slow path reports that.
bool view_str(PyObject* value, HeldObjects& held, std::deque<std::string>& arena, std::string_view& out,
              uint32_t& utf16_units);

// A ready, non-ASCII str's text as UTF-8 into `out` (cleared first), and its UTF-16 length;
// false when it holds a surrogate. It only reads the object (no cache is filled, nothing is
// allocated in Python), so threads may call it while the GIL holder keeps the str alive.
bool encode_str_utf8(PyObject* value, std::string& out, uint32_t* utf16_units = nullptr);

// The same for a ready str that the caller keeps alive, without holding it: an ASCII text
// is viewed in place, any other is copied into `arena`.
bool view_held_str(PyObject* value, std::deque<std::string>& arena, std::string_view& out, uint32_t& utf16_units);

}  // namespace evalcore
