#include "python_iterable_reader.hpp"

#include "common/id_table.hpp"
#include "python_run_values.hpp"

namespace evalcore {

bool is_record_iterable(PyObject* source) {
    static PyObject* kind = nullptr;  // the class, looked up once (evalcore.runs imports after _core)
    if (kind == nullptr) {
        kind = py::object(py::module_::import("evalcore.runs.iterables").attr("RecordIterable")).release().ptr();
    }
    return PyObject_TypeCheck(source, reinterpret_cast<PyTypeObject*>(kind)) != 0;
}

namespace {

uint64_t count_of(const py::object& source, const char* name) { return source.attr(name).cast<uint64_t>(); }

// str(exc), or empty when that raises too.
std::string exception_text(PyObject* exception) {
    PyObject* text = PyObject_Str(exception);
    if (text == nullptr) {
        PyErr_Clear();
        return std::string();
    }
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(text, &size);
    std::string out = data != nullptr ? std::string(data, static_cast<size_t>(size)) : std::string();
    if (data == nullptr) PyErr_Clear();
    Py_DECREF(text);
    return out;
}

}  // namespace

IterableRecords::IterableRecords(PyObject* source, TrecFormat role) {
    const py::object self = py::reinterpret_borrow<py::object>(source);
    iterator_ = self.attr("iterator");
    texts_ = self.attr("names").cast<ColumnNames>();
    for (int k = 0; k < 3; ++k) names_[k] = py::str(texts_[static_cast<size_t>(k)]);
    table_ = self.attr("source_name").cast<std::string>();
    value_noun_ = role == TrecFormat::qrels ? "grade" : "score";
    batch_rows_ = std::max<uint64_t>(count_of(self, "batch_rows"), 1);
    kept_rows_ = count_of(self, "kept_rows");
    max_rows_ = count_of(self, "max_rows");
    kept_.position_name = "row";
}

IterableRecords::~IterableRecords() {
    py::gil_scoped_acquire gil;  // the iterator's and the fields' release may run Python code
    iterator_ = py::object();
    for (py::object& name : names_) name = py::object();
}

bool IterableRecords::next_item(py::object& item) {
    if (!iterator_) return false;
    PyObject* next = PyIter_Next(iterator_.ptr());
    if (next == nullptr) {
        if (PyErr_Occurred()) throw py::error_already_set();  // the producer's own error, as itself
        iterator_ = py::object();  // ended: not asked again
        return false;
    }
    item = py::reinterpret_steal<py::object>(next);
    ++rows_;
    return true;
}

py::object IterableRecords::field(const py::object& item, int k) const {
    PyObject* value = PyObject_GetAttr(item.ptr(), names_[k].ptr());
    if (value != nullptr) return py::reinterpret_steal<py::object>(value);
    const std::string row = "row " + std::to_string(rows_ - 1) + ": ";
    const std::string& name = texts_[static_cast<size_t>(k)];
    if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        fail(table_.c_str(), row + "a " + type_name(item.ptr()) + " has no field '" + name + "'; give items with the fields " +
                                 texts_[0] + ", " + texts_[1] + " and " + texts_[2] +
                                 " (named tuples or objects), or name them with evaluate_run's query_col=, doc_col= and " +
                                 (value_noun_[0] == 'g' ? "relevance_col=" : "score_col="));
    }
    if (!PyErr_ExceptionMatches(PyExc_Exception)) throw py::error_already_set();  // an interrupt, as itself
    PyObject *kind = nullptr, *exception = nullptr, *trace = nullptr;
    PyErr_Fetch(&kind, &exception, &trace);
    PyErr_NormalizeException(&kind, &exception, &trace);
    const py::object held = py::reinterpret_steal<py::object>(exception);
    Py_XDECREF(kind);
    Py_XDECREF(trace);
    const std::string text = held ? exception_text(held.ptr()) : std::string();
    fail(table_.c_str(), row + "reading its field '" + name + "' raised " + (held ? type_name(held.ptr()) : "an exception") +
                             (text.empty() ? "" : ": " + text));
}

bool IterableRecords::read_row(Records& out, TextArena& arena) {
    py::object item;
    if (!next_item(item)) return false;
    const uint64_t row = rows_ - 1;
    const auto where = [&](const char* what, int k) {
        return "row " + std::to_string(row) + ": the " + what + " (field '" + texts_[static_cast<size_t>(k)] + "')";
    };
    const py::object query = field(item, 0);
    out.add_query(read_id(query.ptr(), arena, table_.c_str(), [&] { return where("query ID", 0); }));
    const py::object doc = field(item, 1);
    const std::string_view doc_id = read_id(doc.ptr(), arena, table_.c_str(), [&] { return where("document ID", 1); });
    out.doc_ids.push_back(doc_id);
    out.doc_hashes.push_back(IdTable::hash(doc_id));
    const py::object value = field(item, 2);
    out.values.push_back(read_number(value.ptr(), table_.c_str(), [&] { return where(value_noun_, 2); }));
    out.lines.push_back(row);
    return true;
}

bool IterableRecords::next(Records& out) {
    py::gil_scoped_acquire gil;
    if (!keeping_) {
        while (arenas_.size() > 2) arenas_.pop_front();  // batches no longer viewed
    }
    arenas_.emplace_back();
    TextArena& arena = arenas_.back();
    const size_t first = out.size();
    uint64_t taken = 0;
    while (taken < batch_rows_ && read_row(out, arena)) ++taken;
    if (keeping_ && rows_ > kept_rows_) {
        keeping_ = false;
        kept_ = Records();
        kept_.position_name = "row";
    }
    if (keeping_) {
        for (size_t i = first; i < out.size(); ++i) {
            kept_.add_query(out.queries[out.query_of[i]]);
            kept_.doc_ids.push_back(out.doc_ids[i]);
            kept_.doc_hashes.push_back(out.doc_hashes[i]);
            kept_.values.push_back(out.values[i]);
            kept_.lines.push_back(out.lines[i]);
        }
    }
    return taken > 0;  // (a last, empty call ends the stream, as an Arrow stream ends)
}

Records& IterableRecords::rest(const std::string& refusal, bool bounded) {
    const uint64_t bound = bounded ? max_rows_ : kept_rows_;
    if (!keeping_) fail(table_.c_str(), refusal);
    arenas_.emplace_back();
    TextArena& arena = arenas_.back();
    for (;;) {
        if (rows_ >= bound) {  // one past the bound is refused before its fields are read (it may never end)
            py::object item;
            if (!next_item(item)) break;
            fail(table_.c_str(), bounded ? "more than " + with_commas(max_rows_) +
                                               " rows (the max_qrels_rows limit); raise it with max_qrels_rows=N"
                                         : refusal);
        }
        if (!read_row(kept_, arena)) break;
    }
    return kept_;
}

}  // namespace evalcore
