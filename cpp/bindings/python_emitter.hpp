// The emitter (see json/emitter.hpp) that builds a result as Python objects, reusing the
// request's own str objects for IDs so that evidence costs no new strings.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "json/document.hpp"
#include "json/output_keys.hpp"
#include "common/query_progress.hpp"
#include "pybind.hpp"

namespace evalcore {

// The request's str objects by node index (strong references; needs the GIL to destroy).
class RequestStrings {
public:
    RequestStrings() = default;
    RequestStrings(const RequestStrings&) = delete;
    RequestStrings& operator=(const RequestStrings&) = delete;
    ~RequestStrings() {
        for (PyObject* s : objects_) Py_XDECREF(s);
    }
    void record(uint32_t node, PyObject* s) {
        if (objects_.size() <= node) objects_.resize(std::max<size_t>(2 * objects_.size(), node + 1024), nullptr);
        Py_INCREF(s);
        objects_[node] = s;
    }
    PyObject* find(uint32_t node) const { return node < objects_.size() ? objects_[node] : nullptr; }

private:
    std::vector<PyObject*> objects_;
};

// Pauses the cyclic garbage collector while a large acyclic result is built: every few
// hundred new dicts would otherwise start a collection that finds nothing to free.
class CollectorPause {
public:
    CollectorPause() {
#if PY_VERSION_HEX >= 0x030A0000
        was_enabled_ = PyGC_Disable();
#endif
    }
    ~CollectorPause() {
#if PY_VERSION_HEX >= 0x030A0000
        if (was_enabled_) PyGC_Enable();
#endif
    }
    CollectorPause(const CollectorPause&) = delete;
    CollectorPause& operator=(const CollectorPause&) = delete;

private:
    int was_enabled_ = 0;
};

class PythonEmitter {
public:
    // With `progress`, await(n) waits (GIL released) until the producer has finished n items.
    explicit PythonEmitter(const RequestStrings& strings, QueryProgress* progress = nullptr);

    void await(size_t count);
    void begin_object(size_t = 0);
    void begin_array(size_t size);
    void end();
    void key(Key key) { pending_key_ = key; }
    void null_value();
    void boolean(bool value);
    void number(double value);
    void integer(int64_t value);
    void literal(std::string_view ascii);
    void string(std::string_view utf8);
    void input_string(const Document& doc, uint32_t node);

    py::object result() { return std::move(root_); }
    ~PythonEmitter();
    PythonEmitter(const PythonEmitter&) = delete;
    PythonEmitter& operator=(const PythonEmitter&) = delete;

private:
    void add(PyObject* value);  // takes the reference

    struct Frame {
        py::object container;
        Py_ssize_t next = 0;  // lists: the next index to fill
        bool is_dict = false;
        Key key_in_parent = Key::profile;  // the key it is stored under when it closes
    };
    const RequestStrings& strings_;
    QueryProgress* progress_;
    PyObject* const* keys_;
    std::vector<Frame> stack_;
    Key pending_key_ = Key::profile;
    py::object root_;
    // Results repeat a few values many times (grades, 0, 1, 0.5): one float object per value
    // in a small direct-mapped cache spares an allocation and a free each time. 1024 slots:
    // a score batch repeats a few hundred values (ratios of small counts), which 64 thrashed.
    static constexpr int float_cache_bits = 10;
    static constexpr size_t float_cache_size = size_t{1} << float_cache_bits;
    PyObject* float_objects_[float_cache_size] = {};
    uint64_t float_bits_[float_cache_size] = {};
};

}  // namespace evalcore
