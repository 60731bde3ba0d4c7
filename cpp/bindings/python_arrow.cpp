#include "python_arrow.hpp"

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

// Releases a stream when the reading is done (or fails).
struct StreamGuard {
    ArrowArrayStream stream{};
    ~StreamGuard() {
        if (stream.release != nullptr) stream.release(&stream);
    }
};

[[noreturn]] void stream_failed(ArrowArrayStream& stream, int code, const char* table) {
    const char* text = stream.get_last_error != nullptr ? stream.get_last_error(&stream) : nullptr;
    throw RunInputError(table, 0, std::string("the Arrow stream failed: ") +
                                      (text != nullptr ? text : std::strerror(code)));
}

}  // namespace

bool is_arrow_source(PyObject* source) {
    if (is_capsule(source, stream_name)) return true;
    return PyTuple_CheckExact(source) && PyTuple_GET_SIZE(source) == 2 &&
           is_capsule(PyTuple_GET_ITEM(source, 0), schema_name) && is_capsule(PyTuple_GET_ITEM(source, 1), array_name);
}

void take_arrow(PyObject* source, const char* table, ArrowBatches& out) {
    if (!PyTuple_Check(source)) {
        StreamGuard guard;
        move_out(capsule_pointer<ArrowArrayStream>(source, stream_name), guard.stream, "stream");
        ArrowArrayStream& stream = guard.stream;
        if (const int code = stream.get_schema(&stream, &out.schema.value); code != 0) stream_failed(stream, code, table);
        for (;;) {
            OwnedArray batch;
            if (const int code = stream.get_next(&stream, &batch.value); code != 0) stream_failed(stream, code, table);
            if (batch.value.release == nullptr) break;  // the end of the stream
            out.batches.push_back(std::move(batch));
        }
        return;
    }
    move_out(capsule_pointer<ArrowSchema>(PyTuple_GET_ITEM(source, 0), schema_name), out.schema.value, "schema");
    OwnedArray batch;
    move_out(capsule_pointer<ArrowArray>(PyTuple_GET_ITEM(source, 1), array_name), batch.value, "array");
    out.batches.push_back(std::move(batch));
}

}  // namespace evalcore
