#include "python_arrow.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace evalcore {
namespace {

constexpr const char* stream_name = "arrow_array_stream";
constexpr const char* schema_name = "arrow_schema";
constexpr const char* array_name = "arrow_array";

bool is_capsule(PyObject* o, const char* name) { return PyCapsule_CheckExact(o) && PyCapsule_IsValid(o, name); }

template <class T>
T* capsule_pointer(PyObject* capsule, const char* name) {
    void* pointer = PyCapsule_GetPointer(capsule, name);
    if (pointer == nullptr) throw py::error_already_set();
    return static_cast<T*>(pointer);
}

// Moves a struct out of its capsule: the capsule's destructor then releases nothing.
template <class T>
void move_out(T* from, T& to, const char* what) {
    if (from->release == nullptr) throw py::value_error(std::string("the Arrow ") + what + " was already consumed");
    to = *from;
    from->release = nullptr;
}

// pyarrow appends the traceback of a Python exception to the message of the failure it
// became (a generator's, or any reader's whose batches evalcore iterates in Python:
// run_tables.ArrowTable.stream); the message is the exception's, without it.
constexpr const char* python_detail = ". Detail: Python exception: ";

[[noreturn]] void stream_failed(ArrowArrayStream& stream, int code, const char* table) {
    const char* text = stream.get_last_error != nullptr ? stream.get_last_error(&stream) : nullptr;
    std::string message = text != nullptr ? text : std::strerror(code);
    if (const size_t detail = message.find(python_detail); detail != std::string::npos) message.resize(detail);
    throw RunInputError(table, 0, "the Arrow stream failed: " + message);
}

}  // namespace

bool is_arrow_source(PyObject* source) {
    if (is_capsule(source, stream_name)) return true;
    return PyTuple_CheckExact(source) && PyTuple_GET_SIZE(source) == 2 &&
           is_capsule(PyTuple_GET_ITEM(source, 0), schema_name) && is_capsule(PyTuple_GET_ITEM(source, 1), array_name);
}

bool is_arrow_provider(PyObject* source) {
    return PyTuple_CheckExact(source) && PyTuple_GET_SIZE(source) == 4 && PyCallable_Check(PyTuple_GET_ITEM(source, 0)) &&
           PyBool_Check(PyTuple_GET_ITEM(source, 1)) && PyLong_CheckExact(PyTuple_GET_ITEM(source, 2)) &&
           PyTuple_CheckExact(PyTuple_GET_ITEM(source, 3)) && PyTuple_GET_SIZE(PyTuple_GET_ITEM(source, 3)) == 3;
}

ColumnNames arrow_names(PyObject* provider) {
    return py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(provider, 3)).cast<ColumnNames>();
}

py::object arrow_capsules(PyObject* provider) {
    py::object capsules = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(provider, 0))();
    if (!is_arrow_source(capsules.ptr())) throw py::type_error("an Arrow table must give an arrow_array_stream capsule");
    return capsules;
}

bool arrow_one_shot(PyObject* provider) { return PyTuple_GET_ITEM(provider, 1) == Py_True; }

uint64_t arrow_kept_rows(PyObject* provider) {
    const unsigned long long rows = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(provider, 2));  // checked >= 0 in Python
    if (rows == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw py::error_already_set();
    return rows;
}

ArrowStreamRecords::ArrowStreamRecords(PyObject* capsule, const std::string& table, TrecFormat role, unsigned threads,
                                       bool keep, uint64_t keep_rows, const ColumnNames& names)
    : table_(table), keeping_(keep), keep_rows_(keep_rows) {
    // From here on stream_ owns the stream: a throw below releases it (with the GIL, held here).
    move_out(capsule_pointer<ArrowArrayStream>(capsule, stream_name), stream_.value, "stream");
    ArrowArrayStream& stream = stream_.value;
    if (const int code = stream.get_schema(&stream, &schema_.value); code != 0) stream_failed(stream, code, table_.c_str());
    reader_ = std::make_unique<ArrowRecordReader>(schema_.value, role, table_, names);
    reader_->set_threads(threads);
}

ArrowStreamRecords::~ArrowStreamRecords() {
    py::gil_scoped_acquire gil;  // a producer's release may be Python code too
    batch_ = OwnedArray{};
    kept_.clear();
    stream_.reset();
}

bool ArrowStreamRecords::take_next() {
    // The previous batch, no longer viewed: kept, or released.
    if (keeping_ && batch_.value.release != nullptr) kept_.push_back(std::move(batch_));
    batch_ = OwnedArray{};
    if (ended_) return false;  // (a stream is not asked again once it has ended)
    ArrowArrayStream& stream = stream_.value;
    if (const int code = stream.get_next(&stream, &batch_.value); code != 0) stream_failed(stream, code, table_.c_str());
    ended_ = batch_.value.release == nullptr;
    if (ended_) return false;
    rows_ += static_cast<uint64_t>(std::max<int64_t>(batch_.value.length, 0));
    if (keeping_ && rows_ > keep_rows_) {  // longer than kept: read once after all
        keeping_ = false;
        kept_.clear();
    }
    return true;
}

bool ArrowStreamRecords::next(Records& out) {
    arena_.clear();
    {
        py::gil_scoped_acquire gil;  // the producer may be Python code (a generator of batches)
        if (!take_next()) return false;
    }
    reader_->append(batch_.value, out, arena_);
    return true;
}

void ArrowStreamRecords::take_rest(ArrowBatches& out, const std::string& refusal) {
    while (keeping_ && take_next()) {
    }
    if (!keeping_) throw RunInputError(table_, 0, refusal);
    out.schema.value = schema_.value;  // moved: the reader described it, and reads no more
    schema_.value.release = nullptr;
    out.batches = std::move(kept_);
    kept_.clear();
}

void take_arrow(PyObject* source, const char* table, ArrowBatches& out, uint64_t max_rows, const char* limit) {
    uint64_t rows = 0;
    const auto count = [&](const ArrowArray& batch) {
        rows += static_cast<uint64_t>(std::max<int64_t>(batch.length, 0));
        if (rows <= max_rows) return;
        throw RunInputError(table, 0, "more than " + with_commas(max_rows) + " rows (the " + limit + " limit); raise it with " +
                                          limit + "=N");
    };
    if (!PyTuple_Check(source)) {
        OwnedStream owned;  // released when the reading is done, or fails
        move_out(capsule_pointer<ArrowArrayStream>(source, stream_name), owned.value, "stream");
        ArrowArrayStream& stream = owned.value;
        if (const int code = stream.get_schema(&stream, &out.schema.value); code != 0) stream_failed(stream, code, table);
        for (;;) {
            OwnedArray batch;
            if (const int code = stream.get_next(&stream, &batch.value); code != 0) stream_failed(stream, code, table);
            if (batch.value.release == nullptr) break;  // the end of the stream
            count(batch.value);
            out.batches.push_back(std::move(batch));
        }
        return;
    }
    move_out(capsule_pointer<ArrowSchema>(PyTuple_GET_ITEM(source, 0), schema_name), out.schema.value, "schema");
    OwnedArray batch;
    move_out(capsule_pointer<ArrowArray>(PyTuple_GET_ITEM(source, 1), array_name), batch.value, "array");
    count(batch.value);
    out.batches.push_back(std::move(batch));
}

}  // namespace evalcore
