#include "python_span_reader.hpp"

#include "json/unicode.hpp"

namespace evalcore {
namespace {

constexpr long long max_offset = 9007199254740991LL;

// The values of an exact dict's members named `names`, from its storage: no lookup, so no
// key's __eq__ can run. False when it has any other member or a key that is not an exact str.
// `optional`: how many of the names (the first ones) may be missing (their values stay null).
template <size_t N>
bool members(PyObject* dict, const char* const (&names)[N], PyObject* (&values)[N], Py_ssize_t optional = 0) {
    if (!PyDict_CheckExact(dict)) return false;
    const Py_ssize_t size = PyDict_GET_SIZE(dict);
    if (size > static_cast<Py_ssize_t>(N) || size < static_cast<Py_ssize_t>(N) - optional) return false;
    for (PyObject*& value : values) value = nullptr;
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t position = 0;
    while (PyDict_Next(dict, &position, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) return false;
        size_t i = 0;
        while (i < N && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) ++i;
        if (i == N || values[i] != nullptr) return false;
        values[i] = value;
    }
    for (size_t i = static_cast<size_t>(optional); i < N; ++i) {
        if (values[i] == nullptr) return false;
    }
    return true;
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

FastSpanReader::FastSpanReader(HeldObjects& held, std::deque<std::string>& arena) : held_(held), arena_(arena) {}

bool FastSpanReader::read_label_or_id(PyObject* value, std::string_view& out) {
    uint32_t units = 0;
    return view_str(value, held_, arena_, out, units) && units >= 1 && units <= 80;
}

bool FastSpanReader::read_spans(PyObject* list, std::vector<Span>& out, int64_t& values_read) {
    const bool is_list = PyList_CheckExact(list);
    if (!is_list && !PyTuple_CheckExact(list)) return false;
    const Py_ssize_t n = is_list ? PyList_GET_SIZE(list) : PyTuple_GET_SIZE(list);
    out.resize(static_cast<size_t>(n));
    static constexpr const char* names[] = {"id", "label", "start", "end"};
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* item = is_list ? PyList_GET_ITEM(list, i) : PyTuple_GET_ITEM(list, i);
        PyObject* values[4];
        if (!members(item, names, values, 1)) return false;  // the id may be left out (corpus form)
        Span& span = out[static_cast<size_t>(i)];
        span.id = std::string_view();
        if (values[0] != nullptr && !read_label_or_id(values[0], span.id)) return false;
        if (!read_label_or_id(values[1], span.label)) return false;
        values_read += 1 + PyDict_GET_SIZE(item);  // the span and its members
        if (!read_offset(values[2], span.start) || !read_offset(values[3], span.end)) return false;
    }
    return true;
}

bool FastSpanReader::read(PyObject* document, SpanRequest& out, int64_t& values_read) {
    static constexpr const char* names[] = {"text", "references", "predictions"};
    PyObject* values[3];
    if (!members(document, names, values, 1)) return false;  // the text may be left out (corpus form)
    values_read = 3;  // the document and its two lists
    if (values[0] == nullptr) {
        out.text = SpanText{};
        out.text.units = max_offset;  // no text: no offset is past its end
    } else {
        if (!PyUnicode_CheckExact(values[0]) || !text_facts(values[0], out.text)) return false;
        out.text.present = true;
        values_read += 1;
    }
    return read_spans(values[1], out.references, values_read) && read_spans(values[2], out.predictions, values_read);
}

}  // namespace evalcore
