#include "python_span_reader.hpp"

#include "json/unicode.hpp"

namespace evalcore {
namespace {

constexpr long long max_offset = 9007199254740991LL;

PyObject* member(PyObject* dict, const py::object& key) {
    PyObject* value = PyDict_GetItemWithError(dict, key.ptr());  // borrowed
    if (value == nullptr && PyErr_Occurred()) PyErr_Clear();     // a key whose __eq__ raised: slow path
    return value;
}

bool read_offset(PyObject* value, int64_t& out) {
    if (!PyLong_CheckExact(value)) return false;  // bool, int subclasses and 3.0 go the slow way
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
    }
    if (v < 0 || v > max_offset) return false;
    out = v;
    return true;
}

// UTF-16 length and the offsets inside surrogate pairs, straight from the str's buffer.
// False when it holds a surrogate code point (lone, in a Python str): the slow path reports it.
bool text_facts(PyObject* text, SpanText& out) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        PyErr_Clear();
        return false;
    }
#endif
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    out.inside_pairs.clear();
    switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND: out.units = n; return true;  // Latin-1: no surrogates, nothing astral
        case PyUnicode_2BYTE_KIND: {
            const Py_UCS2* data = PyUnicode_2BYTE_DATA(text);
            for (Py_ssize_t i = 0; i < n; ++i) {
                if (is_surrogate(data[i])) return false;
            }
            out.units = n;
            return true;
        }
        default: {
            const Py_UCS4* data = PyUnicode_4BYTE_DATA(text);
            int64_t units = 0;
            for (Py_ssize_t i = 0; i < n; ++i) {
                if (is_surrogate(data[i])) return false;
                if (data[i] >= 0x10000) {
                    out.inside_pairs.push_back(static_cast<uint32_t>(units + 1));
                    units += 2;
                } else {
                    units += 1;
                }
            }
            out.units = units;
            return true;
        }
    }
}

}  // namespace

FastSpanReader::FastSpanReader(HeldObjects& held, std::deque<std::string>& arena)
    : held_(held),
      arena_(arena),
      text_(py::str("text")),
      references_(py::str("references")),
      predictions_(py::str("predictions")),
      id_(py::str("id")),
      label_(py::str("label")),
      start_(py::str("start")),
      end_(py::str("end")) {}

bool FastSpanReader::read_label_or_id(PyObject* value, std::string_view& out) {
    uint32_t units = 0;
    return view_str(value, held_, arena_, out, units) && units >= 1 && units <= 80;
}

bool FastSpanReader::read_spans(PyObject* list, std::vector<Span>& out) {
    const bool is_list = PyList_Check(list);
    if (!is_list && !PyTuple_Check(list)) return false;
    const Py_ssize_t n = is_list ? PyList_GET_SIZE(list) : PyTuple_GET_SIZE(list);
    out.resize(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* item = is_list ? PyList_GET_ITEM(list, i) : PyTuple_GET_ITEM(list, i);
        if (!PyDict_Check(item) || PyDict_GET_SIZE(item) != 4) return false;
        PyObject *id = member(item, id_), *label = member(item, label_);
        PyObject *start = member(item, start_), *end = member(item, end_);
        if (id == nullptr || label == nullptr || start == nullptr || end == nullptr) return false;
        Span& span = out[static_cast<size_t>(i)];
        if (!read_label_or_id(id, span.id) || !read_label_or_id(label, span.label)) return false;
        if (!read_offset(start, span.start) || !read_offset(end, span.end)) return false;
    }
    return true;
}

bool FastSpanReader::read(PyObject* document, SpanRequest& out) {
    if (!PyDict_Check(document) || PyDict_GET_SIZE(document) != 3) return false;
    PyObject* text = member(document, text_);
    PyObject* references = member(document, references_);
    PyObject* predictions = member(document, predictions_);
    if (text == nullptr || references == nullptr || predictions == nullptr || !PyUnicode_Check(text)) return false;
    return text_facts(text, out.text) && read_spans(references, out.references) && read_spans(predictions, out.predictions);
}

}  // namespace evalcore
