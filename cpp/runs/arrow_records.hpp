// Run and qrels rows read straight from Arrow record batches (the C data interface): the
// query, document and value columns found by name, IDs viewed in the batches' own buffers
// (integer IDs written out as decimal text), values converted to binary64. No libarrow.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/arrow_abi.hpp"
#include "common/text_arena.hpp"
#include "runs/records.hpp"

namespace evalcore {

// The names of a table's query, document and value columns.
using ColumnNames = std::array<std::string, 3>;
// query_id, doc_id and relevance (qrels) or score (run).
ColumnNames default_columns(TrecFormat role);

// Owns what a producer handed over, and releases it once.
class OwnedSchema {
public:
    OwnedSchema() = default;
    OwnedSchema(const OwnedSchema&) = delete;
    OwnedSchema& operator=(const OwnedSchema&) = delete;
    ~OwnedSchema() {
        if (value.release != nullptr) value.release(&value);
    }
    ArrowSchema value{};
};

class OwnedArray {
public:
    OwnedArray() = default;
    OwnedArray(OwnedArray&& other) noexcept : value(other.value) { other.value.release = nullptr; }
    OwnedArray& operator=(OwnedArray&& other) noexcept {
        if (this != &other) {
            if (value.release != nullptr) value.release(&value);
            value = other.value;
            other.value.release = nullptr;
        }
        return *this;
    }
    OwnedArray(const OwnedArray&) = delete;
    OwnedArray& operator=(const OwnedArray&) = delete;
    ~OwnedArray() {
        if (value.release != nullptr) value.release(&value);
    }
    ArrowArray value{};
};

// Owns a stream from the moment it is moved out of its capsule: whatever fails after that
// (get_schema, a missing column, a column of the wrong type) releases it, and with it what
// the producer holds (a 2 M-row table's 56 MB, a parquet file's descriptor). Its release may
// run the producer's code: with pyarrow's streams, Python code, so it is destroyed with the GIL.
class OwnedStream {
public:
    OwnedStream() = default;
    OwnedStream(const OwnedStream&) = delete;
    OwnedStream& operator=(const OwnedStream&) = delete;
    ~OwnedStream() { reset(); }
    void reset() {
        if (value.release != nullptr) value.release(&value);
        value.release = nullptr;
    }
    ArrowArrayStream value{};
};

// One column as the reader takes it.
struct ArrowColumn {
    enum class Kind { utf8, large_utf8, utf8_view, integer, floating };
    int child = -1;
    Kind kind = Kind::utf8;
    int bytes = 0;          // integer and floating: the width of one value
    bool is_signed = true;  // integer
    // Dictionary-encoded: `kind`/`bytes` describe the dictionary's values, and these its indices.
    bool dictionary = false;
    int index_bytes = 0;
    bool index_signed = true;
};

class ArrowRecordReader {
public:
    // `schema` is a record batch's: a struct whose children are the columns. `role` picks
    // the columns (query_id, doc_id and relevance or score); `table` names the source in
    // messages ("qrels table"). A missing column is std::invalid_argument naming the ones
    // needed; a column of a type that cannot be an ID or a value is a RunInputError.
    ArrowRecordReader(const ArrowSchema& schema, TrecFormat role, std::string table);
    // The same with the columns named `names` (query, document, value: evaluate_run's
    // query_col, doc_col and relevance_col or score_col); a missing one's message lists the
    // table's columns.
    ArrowRecordReader(const ArrowSchema& schema, TrecFormat role, std::string table, ColumnNames names);

    // Appends the rows of one batch of that schema to `out` (positions are rows, counted
    // from 0 across batches). IDs view the batch's buffers, which must outlive `out`'s use,
    // or `arena` (integers). The first faulty row is a RunInputError.
    void append(const ArrowArray& batch, Records& out, TextArena& arena);

    uint64_t rows() const { return rows_; }
    // Threads that read a batch's rows, in parts of rows_per_part or more (default 1).
    void set_threads(unsigned threads) { threads_ = std::max(threads, 1u); }
    static constexpr int64_t rows_per_part = int64_t{1} << 16;

private:
    [[noreturn]] void row_fault(uint64_t row, const std::string& detail) const;
    std::string column_note(int k) const;  // " (column 'qid')": what a cell's fault names

    ArrowColumn columns_[3];
    std::string table_;
    ColumnNames names_;
    int64_t schema_columns_ = 0;  // a batch must have as many
    uint64_t rows_ = 0;
    uint64_t batches_ = 0;
    unsigned threads_ = 1;
};

}  // namespace evalcore
