// What the Arrow reader checks of a producer's structs before it reads a buffer: everything
// the C data interface lets a consumer check (docs/contract.md §5, "Arrow data: what is
// checked"). The interface passes no buffer sizes, so what lies inside a buffer's bounds
// (offsets past the end of the data buffer, a validity bitmap shorter than the array, a
// children array shorter than n_children) is the producer's to get right; all else is
// checked here: counts against the format, lengths and offsets, offsets in order, a batch
// against its schema. A fault is a RunInputError naming the table (and the batch).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "common/arrow_abi.hpp"
#include "runs/arrow_records.hpp"

namespace evalcore {

namespace arrow_buffer {
// Element `index` of a buffer of T (unaligned: a producer's buffers need not be).
template <class T>
T load(const void* buffer, int64_t index) {
    T value;
    std::memcpy(&value, static_cast<const char*>(buffer) + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return value;
}
}  // namespace arrow_buffer

// The most columns a schema may claim: more cannot be a table (a schema claiming 2^40 would
// have the reader walk 8 TB of child pointers), and is refused before a child is read.
constexpr int64_t max_arrow_columns = int64_t{1} << 20;

// The largest length or offset an array may claim: an index into a buffer, times the widest
// element (a string_view's 16 bytes) and summed over a column's and its batch's offsets,
// stays inside int64 (3 * 2^56 * 16 < 2^63). No memory holds 2^56 elements.
constexpr int64_t max_arrow_length = int64_t{1} << 56;

// A record batch's schema: a struct of at most max_arrow_columns children, none null.
void check_schema(const ArrowSchema& schema, const std::string& table);

// A column's field, once its format is known to be one the reader takes: those formats have
// no children, nor has a dictionary's value type, which is no dictionary itself.
void check_field(const ArrowSchema& field, const std::string& table, const char* column);

[[noreturn]] void malformed_batch(const std::string& table, uint64_t batch, const std::string& why);

// A batch (a struct array) against its schema's `columns`: lengths, offsets, null count,
// buffer and child counts.
void check_batch(const ArrowArray& batch, int64_t columns, const std::string& table, uint64_t index);

// A column `array` of kind `c` read for the batch's rows [first, first + rows): its counts for
// the format (a dictionary column's indices and dictionary too, which must be there exactly
// when the schema says so), and a string column's offsets over the rows read: the first
// >= 0, none decreasing. (A dictionary's values may be many more than a batch reads, and a
// stream's batches often share them: their offsets are checked where an index points.)
void check_column(const ArrowArray& array, const ArrowColumn& c, int64_t first, int64_t rows, const std::string& table,
                  uint64_t index);

}  // namespace evalcore
