#include "python_reader.hpp"

#include <vector>

#include "json/reader.hpp"
#include "json/unicode.hpp"
#include "python_emitter.hpp"

namespace evalcore {
namespace {

// Straight from the str's internal buffer: no UTF-8 round trip, and a lone surrogate is
// just a flagged code point, never a conversion failure.
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
        if (strings != nullptr) strings->record(static_cast<uint32_t>(reader.document().nodes.size() - 1), s);
    }
}

struct Frame {
    PyObject* container;
    Py_ssize_t position;
    enum { dict, list, tuple } kind;
};

// Reads a scalar, or opens a container and pushes it for the loop below.
void visit(PyObject* v, RequestReader& reader, std::vector<Frame>& stack, RequestStrings* strings) {
    if (PyUnicode_Check(v)) {
        read_str(v, reader, false, strings);
    } else if (v == Py_None) {
        reader.null_value();
    } else if (PyBool_Check(v)) {
        reader.boolean(v == Py_True);
    } else if (PyLong_Check(v)) {
        double number = PyLong_AsDouble(v);  // correctly rounded, as float() is
        if (number == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            reader.overflowing_number();
        }
        reader.number(number);
    } else if (PyFloat_Check(v)) {
        reader.number(PyFloat_AS_DOUBLE(v));
    } else if (PyDict_Check(v)) {
        reader.begin_object();
        stack.push_back(Frame{v, 0, Frame::dict});
    } else if (PyList_Check(v)) {
        reader.begin_array();
        stack.push_back(Frame{v, 0, Frame::list});
    } else if (PyTuple_Check(v)) {
        reader.begin_array();
        stack.push_back(Frame{v, 0, Frame::tuple});
    } else {
        reader.not_json(Py_TYPE(v)->tp_name);
    }
}

}  // namespace

void read_python_request(PyObject* value, const Limits& limits, Document& doc, RequestStrings* strings) {
    RequestReader reader(doc, limits, /*count_bytes=*/true);
    std::vector<Frame> stack;  // explicit, so that no nesting depth can exhaust the C stack
    visit(value, reader, stack, strings);
    while (!stack.empty()) {
        Frame& frame = stack.back();
        PyObject* next = nullptr;
        if (frame.kind == Frame::dict) {
            PyObject* key = nullptr;
            if (PyDict_Next(frame.container, &frame.position, &key, &next)) {
                if (!PyUnicode_Check(key)) reader.non_string_key(Py_TYPE(key)->tp_name);
                read_str(key, reader, true, nullptr);
            }
        } else if (frame.kind == Frame::list) {
            if (frame.position < PyList_GET_SIZE(frame.container)) next = PyList_GET_ITEM(frame.container, frame.position++);
        } else if (frame.position < PyTuple_GET_SIZE(frame.container)) {
            next = PyTuple_GET_ITEM(frame.container, frame.position++);
        }
        if (next == nullptr) {
            stack.pop_back();
            reader.end();
        } else {
            visit(next, reader, stack, strings);  // may push: `frame` is not used after this
        }
    }
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
