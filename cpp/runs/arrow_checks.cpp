#include "runs/arrow_checks.hpp"

#include <limits>

namespace evalcore {
namespace {

using arrow_buffer::load;

[[noreturn]] void schema_fault(const std::string& table, const std::string& why) {
    throw RunInputError(table, 0, "the Arrow schema is malformed: " + why);
}

// What every array must hold, whatever its type: lengths and offsets in range, a null
// count of -1 (not computed) to its length, the buffer and child pointers it counts.
void check_counts(const ArrowArray& a, const std::string& what, const std::string& table, uint64_t index) {
    if (a.length < 0 || a.offset < 0 || a.length > max_arrow_length || a.offset > max_arrow_length) {
        malformed_batch(table, index, what + " has a length or offset below 0 or above 2^56");
    }
    if (a.null_count < -1 || a.null_count > a.length) {
        malformed_batch(table, index, what + " has a null count outside -1 to its length");
    }
    if (a.n_buffers < 0 || (a.n_buffers > 0 && a.buffers == nullptr)) malformed_batch(table, index, what + " has no buffers");
    if (a.n_children < 0 || (a.n_children > 0 && a.children == nullptr)) {
        malformed_batch(table, index, what + " lacks the children it counts");
    }
}

// Offsets [from, from + count] of a string array (count elements): the first >= 0, none
// smaller than the one before, a data buffer when they span any bytes.
template <class Offset>
void check_offsets(const ArrowArray& a, int64_t from, int64_t count, const std::string& table, uint64_t index) {
    if (count == 0) return;
    if (a.buffers[1] == nullptr) malformed_batch(table, index, "a string column lacks its offsets");
    const Offset first = load<Offset>(a.buffers[1], from);
    if (first < 0) malformed_batch(table, index, "a string column's first offset is negative");
    Offset previous = first;
    for (int64_t i = 1; i <= count; ++i) {
        const Offset next = load<Offset>(a.buffers[1], from + i);
        if (next < previous) malformed_batch(table, index, "a string's offsets are out of order");
        previous = next;
    }
    if (previous > first && a.buffers[2] == nullptr) malformed_batch(table, index, "a string column lacks its data");
}

// The values of `c`'s kind (a column, or a dictionary's values), of which `needed` are read.
void check_values(const ArrowArray& a, const ArrowColumn& c, int64_t needed, const std::string& table, uint64_t index) {
    check_counts(a, "a column", table, index);
    if (a.length < needed) malformed_batch(table, index, "a column is shorter than the batch");
    if (a.n_children != 0) malformed_batch(table, index, "a column of strings or numbers has children");
    if (a.n_buffers < 1) malformed_batch(table, index, "a column has no buffers");
    if (c.kind == ArrowColumn::Kind::utf8_view) {
        // validity, views, the data buffers (an int32 indexes them), their sizes (text() checks
        // a view against its buffer's size as it reads it)
        if (a.n_buffers < 3) malformed_batch(table, index, "a string_view column has fewer than 3 buffers");
        if (a.n_buffers - 3 > int64_t{std::numeric_limits<int32_t>::max()} + 1) {
            malformed_batch(table, index, "a string_view column has more data buffers than an int32 can index");
        }
        if (a.buffers[1] == nullptr && a.length > 0) malformed_batch(table, index, "a string_view column lacks its views");
        return;
    }
    const bool strings = c.kind == ArrowColumn::Kind::utf8 || c.kind == ArrowColumn::Kind::large_utf8;
    const int64_t expected = strings ? 3 : 2;
    if (a.n_buffers != expected) {
        malformed_batch(table, index, "a column has " + std::to_string(a.n_buffers) + " buffers, not " + std::to_string(expected));
    }
    // (A string column's offsets and data are checked with its offsets: both may be null when empty.)
    if (!strings && a.length > 0 && a.buffers[1] == nullptr) malformed_batch(table, index, "a column lacks its data");
}

void check_string_offsets(const ArrowArray& a, const ArrowColumn& c, int64_t from, int64_t count, const std::string& table,
                          uint64_t index) {
    if (c.kind == ArrowColumn::Kind::utf8) check_offsets<int32_t>(a, from, count, table, index);
    if (c.kind == ArrowColumn::Kind::large_utf8) check_offsets<int64_t>(a, from, count, table, index);
}

}  // namespace

[[noreturn]] void malformed_batch(const std::string& table, uint64_t batch, const std::string& why) {
    throw RunInputError(table, 0, "record batch " + std::to_string(batch) + " is malformed: " + why);
}

void check_schema(const ArrowSchema& schema, const std::string& table) {
    if (schema.release == nullptr) schema_fault(table, "it was released");
    if (schema.n_children < 0 || schema.n_children > max_arrow_columns) {
        schema_fault(table, "it claims " + std::to_string(schema.n_children) + " columns (at most " +
                                std::to_string(max_arrow_columns) + " are read)");
    }
    if (schema.n_children > 0 && schema.children == nullptr) schema_fault(table, "it lacks the columns it counts");
    for (int64_t i = 0; i < schema.n_children; ++i) {
        if (schema.children[i] == nullptr) schema_fault(table, "column " + std::to_string(i) + " is missing");
    }
}

void check_field(const ArrowSchema& field, const std::string& table, const char* column) {
    const std::string what = std::string("the ") + column + " column";
    if (field.n_children != 0) schema_fault(table, what + "'s type has no children, yet it claims " +
                                                       std::to_string(field.n_children));
    const ArrowSchema* values = field.dictionary;
    if (values == nullptr) return;
    if (values->n_children != 0 || values->dictionary != nullptr) {
        schema_fault(table, what + "'s dictionary values claim children or a dictionary of their own");
    }
}

void check_batch(const ArrowArray& batch, int64_t columns, const std::string& table, uint64_t index) {
    check_counts(batch, "the batch", table, index);
    if (batch.n_buffers != 1) {
        malformed_batch(table, index, "the batch (a struct) has " + std::to_string(batch.n_buffers) + " buffers, not 1");
    }
    if (batch.n_children != columns) {
        malformed_batch(table, index, "the batch has " + std::to_string(batch.n_children) + " columns, its schema " +
                                          std::to_string(columns));
    }
    if (batch.dictionary != nullptr) malformed_batch(table, index, "the batch (a struct) has a dictionary");
    for (int64_t i = 0; i < columns; ++i) {
        if (batch.children[i] == nullptr) malformed_batch(table, index, "column " + std::to_string(i) + " is missing");
    }
}

void check_column(const ArrowArray& array, const ArrowColumn& c, int64_t first, int64_t rows, const std::string& table,
                  uint64_t index) {
    if (c.dictionary != (array.dictionary != nullptr)) {
        malformed_batch(table, index, c.dictionary ? "a dictionary column lacks its dictionary"
                                                   : "a column has a dictionary its schema does not declare");
    }
    if (!c.dictionary) {
        check_values(array, c, first + rows, table, index);
        check_string_offsets(array, c, array.offset + first, rows, table, index);
        return;
    }
    check_counts(array, "a dictionary column's indices", table, index);
    if (array.length < first + rows || array.n_buffers != 2 || array.n_children != 0 ||
        (rows > 0 && array.buffers[1] == nullptr)) {
        malformed_batch(table, index, "a dictionary column lacks its indices or dictionary");
    }
    const ArrowArray& values = *array.dictionary;
    check_values(values, c, 0, table, index);
    if (values.dictionary != nullptr) malformed_batch(table, index, "a dictionary's values have a dictionary of their own");
}

}  // namespace evalcore
