#include "runs/arrow_records.hpp"

#include "runs/arrow_checks.hpp"
#include "common/id_table.hpp"
#include "common/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string_view>

namespace evalcore {
namespace {

// pyarrow's names of the types a column may not have, for messages (the reference uses
// the same table through pyarrow's type names).
const char* type_name(std::string_view format) {
    static constexpr std::pair<std::string_view, const char*> names[] = {
        {"n", "null"},     {"b", "bool"},     {"c", "int8"},       {"C", "uint8"},        {"s", "int16"},
        {"S", "uint16"},   {"i", "int32"},    {"I", "uint32"},     {"l", "int64"},        {"L", "uint64"},
        {"e", "halffloat"}, {"f", "float"},   {"g", "double"},     {"z", "binary"},       {"Z", "large_binary"},
        {"vz", "binary_view"}, {"u", "string"}, {"U", "large_string"}, {"vu", "string_view"}, {"tdD", "date32[day]"}};
    for (const auto& [code, name] : names) {
        if (code == format) return name;
    }
    return nullptr;
}

bool integer_format(std::string_view format, int& bytes, bool& is_signed) {
    static constexpr std::string_view codes = "cCsSiIlL";
    if (format.size() != 1) return false;
    const size_t at = codes.find(format[0]);
    if (at == std::string_view::npos) return false;
    bytes = 1 << (at / 2);
    is_signed = at % 2 == 0;
    return true;
}

[[noreturn]] void unsupported(const std::string& table, const char* column, bool is_id, std::string_view format,
                              bool dictionary) {
    const char* name = dictionary ? "dictionary" : type_name(format);
    std::string message = std::string("the ") + column + " column ";
    message += name != nullptr ? std::string("has type ") + name : std::string("has an unsupported type");
    message += is_id ? "; an ID column must hold strings (string, large_string, string_view, or a dictionary of them) "
                       "or integers"
                     : "; a value column must hold integers or floating-point numbers (int8 to uint64, float, double)";
    throw RunInputError(table, 0, message);
}

// What a missing column's message advises (runs/tables.py's missing_columns_message says the same).
std::string columns_advice(TrecFormat role) {
    return std::string(" (name them with evaluate_run's query_col=, doc_col= and ") +
           (role == TrecFormat::qrels ? "relevance_col=)" : "score_col=)");
}

// Two columns named `name` (the reference's run_tables.ambiguous_column says the same).
std::string ambiguous_column(const char* name, int64_t first, int64_t second) {
    return std::string("the ") + name + " column is ambiguous: columns " + std::to_string(first) + " and " +
           std::to_string(second) + " (counted from 0) are both named " + name +
           " (a name ends at its first NUL byte, as the Arrow C data interface passes it): rename or drop one";
}

// An ID column's values (strings or integers), or a dictionary's.
bool id_kind(std::string_view format, ArrowColumn& c) {
    if (format == "u") {
        c.kind = ArrowColumn::Kind::utf8;
    } else if (format == "U") {
        c.kind = ArrowColumn::Kind::large_utf8;
    } else if (format == "vu") {
        c.kind = ArrowColumn::Kind::utf8_view;
    } else if (integer_format(format, c.bytes, c.is_signed)) {
        c.kind = ArrowColumn::Kind::integer;
    } else {
        return false;
    }
    return true;
}

ArrowColumn describe(const ArrowSchema& field, int child, const std::string& table, const char* column, bool is_id) {
    ArrowColumn c;
    c.child = child;
    const std::string_view format = field.format != nullptr ? field.format : "";
    if (field.dictionary != nullptr) {
        const std::string_view values = field.dictionary->format != nullptr ? field.dictionary->format : "";
        if (!is_id || !integer_format(format, c.index_bytes, c.index_signed) || !id_kind(values, c)) {
            unsupported(table, column, is_id, format, true);
        }
        c.dictionary = true;
        return c;
    }
    if (is_id) {
        if (!id_kind(format, c)) unsupported(table, column, true, format, false);
    } else if (integer_format(format, c.bytes, c.is_signed)) {
        c.kind = ArrowColumn::Kind::integer;
    } else if (format == "f" || format == "g") {
        c.kind = ArrowColumn::Kind::floating;
        c.bytes = format == "f" ? 4 : 8;
    } else {
        unsupported(table, column, false, format, false);
    }
    return c;
}

using arrow_buffer::load;

int64_t load_integer(const void* buffer, int64_t index, int bytes, bool is_signed) {
    switch (bytes) {
        case 1: return is_signed ? load<int8_t>(buffer, index) : load<uint8_t>(buffer, index);
        case 2: return is_signed ? load<int16_t>(buffer, index) : load<uint16_t>(buffer, index);
        case 4: return is_signed ? load<int32_t>(buffer, index) : load<uint32_t>(buffer, index);
        default: return load<int64_t>(buffer, index);  // uint64 is read by load_unsigned
    }
}

bool is_valid(const ArrowArray& array, int64_t index) {
    const auto* bits = static_cast<const uint8_t*>(array.buffers[0]);
    return bits == nullptr || (bits[index >> 3] >> (index & 7)) & 1;
}

// What a row's cell holds: text, null, or a fault of the producer's buffers.
enum class Cell { text, null, malformed };

// Element `at` of a string array with offsets of type Offset (string: int32, large_string: int64).
template <class Offset>
Cell offset_text(const ArrowArray& array, int64_t at, std::string_view& out) {
    const Offset begin = load<Offset>(array.buffers[1], at), end = load<Offset>(array.buffers[1], at + 1);
    if (begin < 0 || end < begin) return Cell::malformed;
    if (end == begin) {
        out = std::string_view();
        return Cell::text;
    }
    if (array.buffers[2] == nullptr) return Cell::malformed;
    out = std::string_view(static_cast<const char*>(array.buffers[2]) + begin, static_cast<size_t>(end - begin));
    return Cell::text;
}

class CellReader {
public:
    CellReader(const std::string& table, uint64_t batch) : table_(table), batch_(batch) {}

    [[noreturn]] void malformed(const std::string& why) const { malformed_batch(table_, batch_, why); }

    // The text of element `at` (absolute: offsets included) of a string or integer array.
    Cell text(const ArrowArray& array, const ArrowColumn& c, int64_t at, TextArena& arena, std::string_view& out) const {
        if (!is_valid(array, at)) return Cell::null;
        switch (c.kind) {
            case ArrowColumn::Kind::utf8: return offset_text<int32_t>(array, at, out);
            case ArrowColumn::Kind::large_utf8: return offset_text<int64_t>(array, at, out);
            case ArrowColumn::Kind::utf8_view: {
                const char* view = static_cast<const char*>(array.buffers[1]) + at * 16;
                int32_t size;
                std::memcpy(&size, view, 4);
                if (size < 0) return Cell::malformed;
                if (size <= 12) {
                    out = std::string_view(view + 4, static_cast<size_t>(size));
                    return Cell::text;
                }
                int32_t buffer, offset;
                std::memcpy(&buffer, view + 8, 4);
                std::memcpy(&offset, view + 12, 4);
                const int64_t variadic = array.n_buffers - 3;  // validity, views, data..., sizes
                if (buffer < 0 || buffer >= variadic || offset < 0) return Cell::malformed;
                if (array.buffers[array.n_buffers - 1] == nullptr || array.buffers[2 + buffer] == nullptr) return Cell::malformed;
                const int64_t length = load<int64_t>(array.buffers[array.n_buffers - 1], buffer);
                if (int64_t{offset} + size > length) return Cell::malformed;
                out = std::string_view(static_cast<const char*>(array.buffers[2 + buffer]) + offset, static_cast<size_t>(size));
                return Cell::text;
            }
            case ArrowColumn::Kind::integer:
                out = c.bytes == 8 && !c.is_signed ? integer_id(load<uint64_t>(array.buffers[1], at), arena)
                                                   : integer_id(load_integer(array.buffers[1], at, c.bytes, c.is_signed), arena);
                return Cell::text;
            case ArrowColumn::Kind::floating: break;
        }
        return Cell::malformed;
    }

private:
    const std::string& table_;
    uint64_t batch_;
};

}  // namespace

ColumnNames default_columns(TrecFormat role) {
    return {"query_id", "doc_id", role == TrecFormat::qrels ? "relevance" : "score"};
}

ArrowRecordReader::ArrowRecordReader(const ArrowSchema& schema, TrecFormat role, std::string table)
    : ArrowRecordReader(schema, role, std::move(table), default_columns(role)) {}

ArrowRecordReader::ArrowRecordReader(const ArrowSchema& schema, TrecFormat role, std::string table, ColumnNames names)
    : table_(std::move(table)), names_(std::move(names)) {
    int found[3] = {-1, -1, -1};
    if (schema.format == nullptr || std::string_view(schema.format) != "+s" || schema.n_children < 0 ||
        (schema.n_children > 0 && schema.children == nullptr)) {
        throw RunInputError(table_, 0, "an Arrow table or record batch must be a struct of columns");
    }
    check_schema(schema, table_);
    schema_columns_ = schema.n_children;
    // A name is the C string the schema gives (up to its first NUL, whatever the producer
    // held): two columns of a needed name are ambiguous, not the first taken.
    std::string present;  // the table's columns, for the message of a missing one
    for (int64_t i = 0; i < schema.n_children; ++i) {
        const ArrowSchema* field = schema.children[i];
        if (field == nullptr || field->name == nullptr) continue;
        present += (present.empty() ? "" : ", ") + std::string(field->name);
        for (int k = 0; k < 3; ++k) {
            if (std::string_view(field->name) != names_[k]) continue;
            if (found[k] >= 0) throw RunInputError(table_, 0, ambiguous_column(names_[k].c_str(), found[k], i));
            found[k] = static_cast<int>(i);
        }
    }
    std::string missing;
    for (int k = 0; k < 3; ++k) {
        if (found[k] < 0) missing += (missing.empty() ? "" : ", ") + names_[k];
    }
    if (!missing.empty()) {
        const std::string role_name = role == TrecFormat::qrels ? "qrels" : "run";
        throw std::invalid_argument(role_name + " table lacks the column(s) " + missing + "; it needs " + names_[0] + ", " +
                                    names_[1] + ", " + names_[2] + "; its columns are " +
                                    (present.empty() ? std::string("none") : present) + columns_advice(role));
    }
    for (int k = 0; k < 3; ++k) {
        columns_[k] = describe(*schema.children[found[k]], found[k], table_, names_[k].c_str(), k < 2);
        check_field(*schema.children[found[k]], table_, names_[k].c_str());
    }
}

std::string ArrowRecordReader::column_note(int k) const { return " (column '" + names_[k] + "')"; }

void ArrowRecordReader::row_fault(uint64_t row, const std::string& detail) const {
    throw RunInputError(table_, 0, "row " + std::to_string(row) + ": " + detail);
}

namespace {

// Reads a batch's rows on `parts` threads, each a contiguous range into records of its own,
// then appends the parts to `out` in row order: the same records, the queries in the same
// order of first appearance, and the same first faulty row as one pass would give.
template <class ReadRows>
void read_in_parts(unsigned parts, int64_t n, Records& out, TextArena& arena, const ReadRows& read_rows) {
    std::vector<Records> pieces(parts - 1);
    std::vector<TextArena> texts(parts - 1);
    std::vector<std::exception_ptr> faults(parts);
    const auto bound = [&](unsigned t) { return n / parts * t + std::min<int64_t>(n % parts, t); };
    on_threads(parts, [&](unsigned t) {
        try {
            if (t == 0) {
                read_rows(0, bound(1), out, arena);
                return;
            }
            Records& piece = pieces[t - 1];
            piece.position_name = out.position_name;
            piece.reserve(static_cast<size_t>(bound(t + 1) - bound(t)));
            piece.doc_hashes.reserve(static_cast<size_t>(bound(t + 1) - bound(t)));
            read_rows(bound(t), bound(t + 1), piece, texts[t - 1]);
        } catch (...) {
            faults[t] = std::current_exception();
        }
    });
    for (const std::exception_ptr& fault : faults) {
        if (fault) std::rethrow_exception(fault);  // the part with the lowest rows first
    }
    for (size_t p = 0; p < pieces.size(); ++p) {
        out.append(pieces[p]);
        arena.absorb(std::move(texts[p]));
    }
}

}  // namespace

void ArrowRecordReader::append(const ArrowArray& batch, Records& out, TextArena& arena) {
    const uint64_t index = batches_++;
    const CellReader cells(table_, index);
    check_batch(batch, schema_columns_, table_, index);  // everything checkable before a buffer is read
    const int64_t n = batch.length;
    const ArrowArray* arrays[3];
    const ArrowArray* dictionaries[3] = {nullptr, nullptr, nullptr};
    for (int k = 0; k < 3; ++k) {
        const ArrowColumn& c = columns_[k];
        arrays[k] = batch.children[c.child];
        check_column(*arrays[k], c, batch.offset, n, table_, index);
        if (c.dictionary) dictionaries[k] = arrays[k]->dictionary;
    }
    if (batch.null_count != 0 && batch.n_buffers >= 1 && batch.buffers != nullptr && batch.buffers[0] != nullptr) {
        for (int64_t i = 0; i < n; ++i) {
            if (!is_valid(batch, batch.offset + i)) {
                throw RunInputError(table_, 0, "row " + std::to_string(rows_ + static_cast<uint64_t>(i)) + " is null");
            }
        }
    }
    static constexpr const char* what[2] = {"the query ID", "the document ID"};
    const auto check = [&](int k, std::string_view text, uint64_t row) {
        if (text.empty()) row_fault(row, std::string(what[k]) + " must not be empty");
        if (!is_valid_utf8(text)) row_fault(row, std::string(what[k]) + " is not valid UTF-8");
    };
    const auto id = [&](int k, int64_t i, uint64_t row, TextArena& arena) {
        const ArrowColumn& c = columns_[k];
        const ArrowArray& array = *arrays[k];
        int64_t at = array.offset + batch.offset + i;
        const ArrowArray* values = &array;
        if (c.dictionary) {
            if (!is_valid(array, at)) row_fault(row, std::string(what[k]) + " is null" + column_note(k));
            const int64_t index = c.index_bytes == 8 && !c.index_signed
                                      ? static_cast<int64_t>(std::min<uint64_t>(load<uint64_t>(array.buffers[1], at), INT64_MAX))
                                      : load_integer(array.buffers[1], at, c.index_bytes, c.index_signed);
            if (index < 0 || index >= dictionaries[k]->length) cells.malformed("a dictionary index is out of range");
            values = dictionaries[k];
            at = values->offset + index;
        }
        std::string_view text;
        switch (cells.text(*values, c, at, arena, text)) {
            case Cell::null: row_fault(row, std::string(what[k]) + " is null" + column_note(k));
            case Cell::malformed: cells.malformed("a string's offsets are out of order");
            case Cell::text: break;
        }
        return text;
    };
    const ArrowColumn& vc = columns_[2];
    const ArrowArray& va = *arrays[2];
    // Rows [begin, end) appended to `out`, its integer and view IDs' text kept in `arena`.
    const auto read_rows = [&](int64_t begin, int64_t end, Records& out, TextArena& arena) {
        for (int64_t i = begin; i < end; ++i) {
            const uint64_t row = rows_ + static_cast<uint64_t>(i);
            const std::string_view query = id(0, i, row, arena);
            if (out.add_query(query)) check(0, query, row);  // a query seen before is text checked before
            const std::string_view doc = id(1, i, row, arena);
            check(1, doc, row);
            out.doc_ids.push_back(doc);
            out.doc_hashes.push_back(IdTable::hash(doc));
            const int64_t at = va.offset + batch.offset + i;
            if (!is_valid(va, at)) row_fault(row, "the value is null" + column_note(2));
            double value;
            if (vc.kind == ArrowColumn::Kind::floating) {
                value = vc.bytes == 4 ? static_cast<double>(load<float>(va.buffers[1], at)) : load<double>(va.buffers[1], at);
            } else if (vc.bytes == 8 && !vc.is_signed) {
                value = static_cast<double>(load<uint64_t>(va.buffers[1], at));
            } else {
                value = static_cast<double>(load_integer(va.buffers[1], at, vc.bytes, vc.is_signed));
            }
            if (!std::isfinite(value)) row_fault(row, "the value must be a finite number" + column_note(2));
            out.values.push_back(value);
            out.lines.push_back(row);
        }
    };
    const unsigned parts = static_cast<unsigned>(std::min<int64_t>(threads_, n / rows_per_part));
    if (parts <= 1) {
        read_rows(0, n, out, arena);
    } else {
        read_in_parts(parts, n, out, arena, read_rows);
    }
    rows_ += static_cast<uint64_t>(n);
}

}  // namespace evalcore
