#include "python_reader.hpp"

#include <string>
#include <unordered_set>
#include <vector>

#include "json/reader.hpp"
#include "json/unicode.hpp"
#include "python_emitter.hpp"

namespace evalcore {
namespace {

// Straight from the str's internal buffer: no UTF-8 round trip, and a lone surrogate is
// just a flagged code point, never a conversion failure. A str subclass is read by its
// text, as json.dumps reads it (no method of the subclass is called).
void read_str(PyObject* s, RequestReader& reader, bool is_key, RequestStrings* strings) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) throw py::error_already_set();
#endif
    const Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const void* data = PyUnicode_DATA(s);
    std::string& text = reader.text();
    const uint32_t offset = static_cast<uint32_t>(text.size());
    StringInfo info;
    uint64_t json_size;
    if (PyUnicode_IS_ASCII(s)) {
        json_size = encode_ascii(static_cast<const char*>(data), static_cast<size_t>(n), text, info);
    } else {
        switch (PyUnicode_KIND(s)) {
            case PyUnicode_1BYTE_KIND:
                json_size = encode_code_points(static_cast<const Py_UCS1*>(data), static_cast<size_t>(n), text, info);
                break;
            case PyUnicode_2BYTE_KIND:
                json_size = encode_code_points(static_cast<const Py_UCS2*>(data), static_cast<size_t>(n), text, info);
                break;
            default:
                json_size = encode_code_points(static_cast<const Py_UCS4*>(data), static_cast<size_t>(n), text, info);
                break;
        }
    }
    if (is_key) {
        reader.key_appended(offset, info, json_size);
    } else {
        reader.string_appended(offset, info, json_size);
        // Results reuse exact str objects only: a subclass's methods must not reach them.
        if (strings != nullptr && PyUnicode_CheckExact(s)) {
            strings->record(static_cast<uint32_t>(reader.document().nodes.size() - 1), s);
        }
    }
}

// A container being read. Exact dicts and lists are read in place (borrowed pointers are
// safe while no Python code runs); a dict subclass is read through its items(), which is
// Python code, so before that call every frame in place is pinned: replaced by a snapshot
// of its remaining entries that this reader owns. The outcome is the same as reading
// snapshots from the start (what the reference does), and no Python code can free what a
// frame points to.
struct Frame {
    PyObject* container;  // borrowed, or owned by `snapshot`
    Py_ssize_t position;
    enum { dict, list, tuple, pairs } kind;  // pairs: a tuple of (key, value) items
    py::object origin;    // the container as given: held, so that its identity stays its own
    py::object snapshot;
    std::string subclass;  // pairs from a dict subclass's items(): its type's name
    std::unordered_set<std::string> keys;  // pairs from items(): the keys seen (they may repeat)
};

class PythonRequestWalker {
public:
    PythonRequestWalker(RequestReader& reader, RequestStrings* strings) : reader_(reader), strings_(strings) {}

    void walk(PyObject* value) {
        visit(value);
        while (!stack_.empty()) step();
    }

private:
    void step() {
        Frame& frame = stack_.back();
        PyObject* next = nullptr;
        if (frame.kind == Frame::dict) {
            PyObject* key = nullptr;
            if (PyDict_Next(frame.container, &frame.position, &key, &next)) read_key(key);
        } else if (frame.kind == Frame::pairs) {
            if (frame.position < PyTuple_GET_SIZE(frame.container)) {
                PyObject* pair = PyTuple_GET_ITEM(frame.container, frame.position++);
                if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) reader_.not_pairs(frame.subclass);
                read_key(PyTuple_GET_ITEM(pair, 0));
                if (!frame.subclass.empty() && !frame.keys.insert(std::string(reader_.current_key())).second) {
                    reader_.repeated_key();
                }
                next = PyTuple_GET_ITEM(pair, 1);
            }
        } else if (frame.kind == Frame::list) {
            if (frame.position < PyList_GET_SIZE(frame.container)) next = PyList_GET_ITEM(frame.container, frame.position++);
        } else if (frame.position < PyTuple_GET_SIZE(frame.container)) {
            next = PyTuple_GET_ITEM(frame.container, frame.position++);
        }
        if (next == nullptr) {
            stack_.pop_back();
            reader_.end();
        } else {
            visit(next);  // may push: `frame` is not used after this
        }
    }

    void read_key(PyObject* key) {
        if (!PyUnicode_Check(key)) reader_.non_string_key(Py_TYPE(key)->tp_name);
        read_str(key, reader_, true, nullptr);
    }

    // Reads a scalar, or opens a container and pushes it for the loop above.
    void visit(PyObject* v) {
        if (PyUnicode_Check(v)) {
            read_str(v, reader_, false, strings_);
        } else if (v == Py_None) {
            reader_.null_value();
        } else if (PyBool_Check(v)) {
            reader_.boolean(v == Py_True);
        } else if (PyLong_Check(v)) {
            double number = PyLong_AsDouble(v);  // correctly rounded, as float() is; an int subclass by its value
            if (number == -1.0 && PyErr_Occurred()) {
                PyErr_Clear();
                reader_.overflowing_number();
            }
            reader_.number(number);
        } else if (PyFloat_Check(v)) {
            reader_.number(PyFloat_AS_DOUBLE(v));
        } else if (PyDict_Check(v)) {
            if (on_stack(v)) reader_.contains_itself();
            reader_.begin_object();
            if (PyDict_CheckExact(v)) {
                stack_.push_back(Frame{v, 0, Frame::dict, held(v), py::object(), std::string(), {}});
            } else {
                open_dict_subclass(v);
            }
        } else if (PyList_Check(v) || PyTuple_Check(v)) {
            if (on_stack(v)) reader_.contains_itself();
            reader_.begin_array();
            stack_.push_back(Frame{v, 0, PyList_Check(v) ? Frame::list : Frame::tuple, held(v), py::object(), std::string(), {}});
        } else {
            reader_.not_json(Py_TYPE(v)->tp_name);
        }
    }

    static py::object held(PyObject* v) { return py::reinterpret_borrow<py::object>(v); }

    // A container inside itself would be read forever: it is refused where it reappears.
    bool on_stack(PyObject* v) const {
        for (const Frame& frame : stack_) {
            if (frame.origin.ptr() == v) return true;
        }
        return false;
    }

    // A dict subclass, read as json.dumps reads it: through its items().
    void open_dict_subclass(PyObject* v) {
        py::object owner = py::reinterpret_borrow<py::object>(v);  // v may be borrowed from a pinned frame
        pin_frames();
        PyObject* listed = PyMapping_Items(v);
        if (listed == nullptr) throw py::error_already_set();
        PyObject* items = PyList_AsTuple(listed);  // our own copy: the list may be the caller's
        Py_DECREF(listed);
        if (items == nullptr) throw py::error_already_set();
        stack_.push_back(Frame{items, 0, Frame::pairs, owner, py::reinterpret_steal<py::object>(items), Py_TYPE(v)->tp_name, {}});
    }

    // Every frame still read in place becomes a snapshot of what it has left to give.
    void pin_frames() {
        CollectorPause no_collection;  // no finalizer may run while the snapshots are taken
        for (Frame& frame : stack_) {
            if (frame.snapshot) continue;
            PyObject* rest = nullptr;
            if (frame.kind == Frame::dict) {
                rest = remaining_pairs(frame.container, frame.position);
                frame.kind = Frame::pairs;
            } else {
                const Py_ssize_t size =
                    frame.kind == Frame::list ? PyList_GET_SIZE(frame.container) : PyTuple_GET_SIZE(frame.container);
                rest = frame.kind == Frame::list ? PyList_GetSlice(frame.container, frame.position, size)
                                                 : PyTuple_GetSlice(frame.container, frame.position, size);
                if (rest != nullptr && frame.kind == Frame::list) {
                    PyObject* tuple = PyList_AsTuple(rest);
                    Py_DECREF(rest);
                    rest = tuple;
                }
                frame.kind = Frame::tuple;
            }
            if (rest == nullptr) throw py::error_already_set();
            frame.snapshot = py::reinterpret_steal<py::object>(rest);
            frame.container = rest;
            frame.position = 0;
        }
    }

    // The entries of an exact dict from PyDict_Next position `position` on, as (key, value) tuples.
    static PyObject* remaining_pairs(PyObject* dict, Py_ssize_t position) {
        py::list out;
        PyObject *key = nullptr, *value = nullptr;
        while (PyDict_Next(dict, &position, &key, &value)) out.append(py::make_tuple(py::handle(key), py::handle(value)));
        return PyList_AsTuple(out.ptr());
    }

    RequestReader& reader_;
    RequestStrings* strings_;
    std::vector<Frame> stack_;  // explicit, so that no nesting depth can exhaust the C stack
};

}  // namespace

void read_python_request(PyObject* value, const Limits& limits, Document& doc, RequestStrings* strings) {
    RequestReader reader(doc, limits, /*count_bytes=*/true);
    PythonRequestWalker(reader, strings).walk(value);
}

void read_python_document(PyObject* value, const Limits& limits, Document& doc, int64_t& nodes) {
    RequestReader reader(doc, limits, /*count_bytes=*/false, nodes, "the corpus");
    PythonRequestWalker(reader, nullptr).walk(value);
    nodes = reader.nodes();
}

Limits limits_from_tuple(const py::tuple& values) {
    Limits limits;
    int64_t* fields[] = {&limits.input_bytes,       &limits.output_bytes,  &limits.json_depth,
                         &limits.json_nodes,        &limits.queries,       &limits.retrieved_per_query,
                         &limits.judgments_per_query, &limits.max_k,       &limits.text_utf16_units,
                         &limits.references,        &limits.predictions,   &limits.matching_steps};
    constexpr size_t count = sizeof(fields) / sizeof(fields[0]);
    if (values.size() != count) throw py::value_error("limits tuple must have " + std::to_string(count) + " items");
    for (size_t i = 0; i < count; ++i) *fields[i] = values[i].cast<int64_t>();
    return limits;
}

}  // namespace evalcore
