// What evaluate_schemas' readers share (cpp/bindings/register_schemas.cpp for spans and tags,
// cpp/bindings/schemas_conll.cpp for CoNLL strings): the label table, and how a fault is told.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "pybind.hpp"
#include "schemas/schemas.hpp"

namespace evalcore {
namespace schema_reading {

inline std::string type_name(PyObject* value) { return py::str(py::type::handle_of(value).attr("__name__")); }
inline std::string text_of(PyObject* value) { return py::str(value); }
inline std::string repr_of(PyObject* value) { return py::repr(value); }

[[noreturn]] inline void fault(ErrorCode code, std::string pointer, std::string message) {
    throw RequestError(code, std::move(pointer), std::move(message));
}

// Interned exact str objects (labels, or tags): the same text, the same id. Found by the
// str's own hash and compared by content (exact str: neither runs Python code).
class StrTable {
public:
    uint32_t intern(PyObject* text, bool* added = nullptr) {
        if (text == last_object_) return last_id_;
        const Py_hash_t hash = PyObject_Hash(text);
        if (hash == -1) throw py::error_already_set();
        auto found = first_.find(hash);
        uint32_t id = found == first_.end() ? UINT32_MAX : found->second;
        while (id != UINT32_MAX && objects_[id].ptr() != text && PyUnicode_Compare(objects_[id].ptr(), text) != 0) {
            id = next_[id];
        }
        if (added != nullptr) *added = id == UINT32_MAX;
        if (id == UINT32_MAX) {
            id = static_cast<uint32_t>(objects_.size());
            objects_.push_back(py::reinterpret_borrow<py::object>(text));
            next_.push_back(found == first_.end() ? UINT32_MAX : found->second);
            first_[hash] = id;
        }
        last_object_ = objects_[id].ptr();  // held: a freed `text` could share its address with a later str
        last_id_ = id;
        return id;
    }
    PyObject* object(uint32_t id) const { return objects_[id].ptr(); }
    size_t size() const { return objects_.size(); }

private:
    std::unordered_map<Py_hash_t, uint32_t> first_;
    std::vector<py::object> objects_;  // held: the caller may drop theirs
    std::vector<uint32_t> next_;       // the previous id with the same hash
    PyObject* last_object_ = nullptr;
    uint32_t last_id_ = 0;
};

// The labels met, by id: which are scored (nervaluate's tags=) and which occur.
struct Labels {
    StrTable table;
    std::vector<uint8_t> kept, seen;
    bool keep_all = true;
    uint32_t id(PyObject* label) {
        const uint32_t id = table.intern(label);
        if (id == kept.size()) {
            kept.push_back(keep_all ? 1 : 0);
            seen.push_back(0);
        }
        return id;
    }
};

}  // namespace schema_reading

// input="conll": both str read (on up to two threads, the GIL released) into `corpus`, their
// labels interned into `labels`; faults as python/evalcore/reference/schemas/conll_text.py
// finds and words them.
void read_conll_corpus(PyObject* truth, PyObject* predicted, unsigned threads, schema_reading::Labels& labels,
                       SchemaCorpus& corpus);

}  // namespace evalcore
