#include "python_emitter.hpp"

#include "overlap.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace evalcore {
namespace {

// Interned key strings, made once (under the GIL) and kept for the process's life.
PyObject* const* interned_keys() {
    static PyObject** keys = [] {
        auto** table = new PyObject*[key_count];
        for (size_t i = 0; i < key_count; ++i) {
            table[i] = PyUnicode_InternFromString(std::string(key_name(static_cast<Key>(i))).c_str());
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

}  // namespace

PythonEmitter::PythonEmitter(const RequestStrings& strings, QueryProgress* progress)
    : strings_(strings), progress_(progress), keys_(interned_keys()) {
    stack_.reserve(8);
}

void PythonEmitter::await(size_t count) {
    if (progress_ == nullptr || progress_->ready(count)) return;
    bool finished;
    {
        py::gil_scoped_release release;  // other Python threads may run while this one waits
        finished = progress_->wait_for(count);
    }
    if (!finished) throw EmissionAborted{};
}

void PythonEmitter::add(PyObject* value) {
    if (stack_.empty()) {
        root_ = py::reinterpret_steal<py::object>(value);
        return;
    }
    Frame& top = stack_.back();
    if (top.is_dict) {
        int failed = PyDict_SetItem(top.container.ptr(), keys_[static_cast<size_t>(pending_key_)], value);
        Py_DECREF(value);
        if (failed) throw py::error_already_set();
    } else {
        if (top.next >= PyList_GET_SIZE(top.container.ptr())) {
            Py_DECREF(value);
            throw std::logic_error("result array longer than announced");
        }
        PyList_SET_ITEM(top.container.ptr(), top.next++, value);  // steals
    }
}

void PythonEmitter::begin_object(size_t) {
    stack_.push_back(Frame{py::reinterpret_steal<py::object>(checked(PyDict_New())), 0, true, pending_key_});
}

void PythonEmitter::begin_array(size_t size) {
    stack_.push_back(
        Frame{py::reinterpret_steal<py::object>(checked(PyList_New(static_cast<Py_ssize_t>(size)))), 0, false, pending_key_});
}

void PythonEmitter::end() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (!frame.is_dict && frame.next != PyList_GET_SIZE(frame.container.ptr())) {
        throw std::logic_error("result array shorter than announced");
    }
    pending_key_ = frame.key_in_parent;
    add(frame.container.release().ptr());
}

void PythonEmitter::null_value() {
    Py_INCREF(Py_None);
    add(Py_None);
}

void PythonEmitter::boolean(bool value) {
    PyObject* b = value ? Py_True : Py_False;
    Py_INCREF(b);
    add(b);
}

PythonEmitter::~PythonEmitter() {
    for (PyObject* cached : float_objects_) Py_XDECREF(cached);
}

void PythonEmitter::number(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const size_t slot = static_cast<size_t>((bits * 0x9E3779B97F4A7C15ull) >> (64 - float_cache_bits));  // top bits
    PyObject*& cached = float_objects_[slot];
    if (cached == nullptr || float_bits_[slot] != bits) {
        PyObject* fresh = checked(PyFloat_FromDouble(value));
        Py_XDECREF(cached);
        cached = fresh;
        float_bits_[slot] = bits;
    }
    Py_INCREF(cached);
    add(cached);
}

void PythonEmitter::integer(int64_t value) { add(checked(PyLong_FromLongLong(value))); }

void PythonEmitter::literal(std::string_view text) {
    add(checked(PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "strict")));
}

void PythonEmitter::string(std::string_view utf8) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(utf8.data());
    bool ascii = true;
    for (size_t i = 0; i < utf8.size() && ascii; ++i) ascii = bytes[i] < 0x80;
    if (ascii) {  // the cheapest construction: a compact ASCII str, filled in place
        PyObject* s = checked(PyUnicode_New(static_cast<Py_ssize_t>(utf8.size()), 127));
        std::memcpy(PyUnicode_DATA(s), utf8.data(), utf8.size());
        add(s);
        return;
    }
    add(checked(PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "surrogatepass")));
}

void PythonEmitter::input_string(const Document& doc, uint32_t node) {
    if (PyObject* s = strings_.find(node)) {
        Py_INCREF(s);
        add(s);
        return;
    }
    std::string_view text = doc.string(node);
    add(checked(PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogatepass")));
}

}  // namespace evalcore
