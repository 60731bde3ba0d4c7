#include "python_result.hpp"

#include <cstring>

namespace evalcore {
namespace {

// Interned key strings, made once (under the GIL) and kept for the process's life.
PyObject* const* interned_keys() {
    static PyObject** keys = [] {
        auto** table = new PyObject*[key_count];
        for (size_t i = 0; i < key_count; ++i) {
            std::string_view name = key_name(static_cast<Key>(i));
            table[i] = PyUnicode_InternFromString(std::string(name).c_str());
            if (table[i] == nullptr) throw py::error_already_set();
        }
        return table;
    }();
    return keys;
}

PyObject* checked(PyObject* object) {
    if (object == nullptr) throw py::error_already_set();
    return object;
}

PyObject* string_to_python(const Document& doc, const Node& node) {
    if (node.ascii) {  // the cheapest construction: a compact ASCII str, filled in place
        PyObject* s = checked(PyUnicode_New(node.size, 127));
        std::memcpy(PyUnicode_DATA(s), doc.text.data() + node.offset, node.size);
        return s;
    }
    return checked(PyUnicode_DecodeUTF8(doc.text.data() + node.offset, node.size, "surrogatepass"));
}

PyObject* node_to_python(const Document& doc, uint32_t index, PyObject* const* keys) {
    const Node& node = doc[index];
    switch (node.kind) {
        case Kind::null_value: Py_INCREF(Py_None); return Py_None;
        case Kind::boolean: {
            PyObject* b = node.flag ? Py_True : Py_False;
            Py_INCREF(b);
            return b;
        }
        case Kind::number: return checked(PyFloat_FromDouble(node.number));
        case Kind::integer: return checked(PyLong_FromLongLong(static_cast<long long>(node.number)));
        case Kind::string: return string_to_python(doc, node);
        case Kind::static_key: {
            PyObject* key = keys[node.offset];
            Py_INCREF(key);
            return key;
        }
        case Kind::array: {
            py::object list = py::reinterpret_steal<py::object>(checked(PyList_New(node.size)));
            for (uint32_t i = 0; i < node.size; ++i) {
                PyList_SET_ITEM(list.ptr(), i, node_to_python(doc, doc.item(node, i), keys));
            }
            return list.release().ptr();
        }
        case Kind::object: {
            py::object dict = py::reinterpret_steal<py::object>(checked(PyDict_New()));
            for (uint32_t i = 0; i < node.size; ++i) {
                py::object key = py::reinterpret_steal<py::object>(node_to_python(doc, doc.member_key(node, i), keys));
                py::object value = py::reinterpret_steal<py::object>(node_to_python(doc, doc.member_value(node, i), keys));
                if (PyDict_SetItem(dict.ptr(), key.ptr(), value.ptr()) < 0) throw py::error_already_set();
            }
            return dict.release().ptr();
        }
    }
    Py_INCREF(Py_None);
    return Py_None;
}

}  // namespace

py::object result_to_python(const Document& doc) {
    return py::reinterpret_steal<py::object>(node_to_python(doc, 0, interned_keys()));
}

}  // namespace evalcore
