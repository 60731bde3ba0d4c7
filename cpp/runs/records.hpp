// The inputs of bulk run evaluation as flat columns: TREC qrels and run lines, table rows or
// dict entries, grouped by query. Parsing and grouping find the first faulty line.
#pragma once

#include <charconv>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/id_index.hpp"
#include "common/id_table.hpp"
#include "common/text_arena.hpp"

namespace evalcore {

class SharedParts;  // common/parallel.hpp

// A fault in a qrels or run input. `source` names it (a file path, or "qrels"/"run");
// `line` is the 1-based line of a file, 0 otherwise; what() is the whole message.
class RunInputError : public std::runtime_error {
public:
    RunInputError(std::string source, uint64_t line, const std::string& detail);
    const std::string& source() const { return source_; }
    uint64_t line() const { return line_; }
    const std::string& detail() const { return detail_; }  // the message without source and line

private:
    std::string source_;
    uint64_t line_;
    std::string detail_;
};

// Records as read: one per line or row, not yet grouped. Each refers to its query by index
// (4 bytes instead of a 16-byte view: qrels of tens of millions of lines make it count).
struct Records {
    std::vector<std::string_view> queries;  // distinct query IDs, in order of first appearance (in query_text)
    std::vector<uint32_t> query_of;         // per record: its index in `queries`
    std::vector<std::string_view> doc_ids;
    std::vector<double> values;   // grade (qrels) or score (run)
    std::vector<uint64_t> lines;  // 1-based line (files) or row (tables)
    // IdTable::hash of each doc ID, or empty. Taken while the rows are read in order, they
    // spare later passes a read of IDs scattered over the input (rows of a shuffled table).
    std::vector<uint64_t> doc_hashes;
    // Per record, or empty: 1 when it comes after the record before it in a ranking by score
    // (descending), ties by document ID (ascending), the diversity measures' order; taken
    // while the lines are in cache (TextReading::rank_order), it spares the scorer a check of
    // IDs scattered over the input. Meaningless for a query's first record.
    std::vector<uint8_t> in_order;
    const char* position_name = "line";
    bool grouped = true;  // every query's records are contiguous

    // Copies of the distinct query IDs, side by side: rows of a shuffled table name their
    // queries in any order, and each lookup then reads this compact text, mostly cached,
    // instead of the first row of the query, anywhere in the input.
    TextArena query_text;

    // Appends the query of a new record (before its other fields). True when the query is
    // new: its ID then needs checking (a repeated one is the text already checked).
    bool add_query(std::string_view id) { return add_query(id, continues(id)); }
    // The same when the caller has asked continues(id) already (the TREC parsers, per line).
    bool add_query(std::string_view id, bool same_query);
    // Whether `id` is the query of the last record (a grouped input's usual case).
    bool continues(std::string_view id) const { return !query_of.empty() && same_id(last_query_, id); }
    // The index of query `id` in `queries`, added (its text copied) if new; `added` says which.
    uint32_t intern(std::string_view id, bool& added);
    // Numbers the distinct queries of a part that comes after these records (in its order of
    // first appearance), adding the new ones; `grouped` stays true only if the part is, and
    // its queries are new but for its first, which may go on from query `previous` (the last
    // record's, or IdIndex::none). Returns each one's number here.
    std::vector<uint32_t> number_queries(const std::vector<std::string_view>& part_queries, bool part_grouped,
                                         uint32_t previous);
    // Appends the records of `part`, which come after these (its rows read on another thread):
    // its queries are looked up among these, and `grouped` stays true only if they go on
    // grouped. `part`'s views must stay valid as long as these records are used.
    void append(const Records& part);
    size_t size() const { return query_of.size(); }
    void clear();
    void reserve(size_t n);
    // Room for `n` distinct queries (the index sized for them); only while there are none.
    void reserve_queries(size_t n);
    // The index of `queries` (query ID → its index there), taken out: grouping hands it on.
    IdIndex take_index() {
        IdIndex taken = std::move(index_);
        index_ = IdIndex();
        return taken;
    }

private:
    IdIndex index_;  // of `queries`
    // queries[query_of.back()], kept at hand: a shuffled input's rows name their queries
    // anywhere in `queries`, whose entry would be one more read out of cache per row.
    std::string_view last_query_;
};

// The ID an integer stands for, in every input: its decimal text, copied into `arena`.
template <class Integer>
std::string_view integer_id(Integer value, TextArena& arena) {
    char digits[24];
    const std::to_chars_result written = std::to_chars(digits, digits + sizeof digits, value);
    return arena.copy(digits, static_cast<size_t>(written.ptr - digits));
}

// Records grouped by query, queries in order of first appearance, records in input order.
struct QueryGroups {
    std::vector<std::string_view> query_ids;
    TextArena query_text;  // what query_ids view when they come from grouped Records
    // Query ID → its group (the IDs of query_ids), when the grouping kept the index it
    // numbered them with (else empty: whoever needs one builds it).
    IdIndex index;
    std::vector<size_t> offsets{0};  // group g holds records [offsets[g], offsets[g + 1])
    std::vector<std::string_view> doc_ids;
    std::vector<double> values;   // empty: the run gave ranked lists, no scores
    std::vector<uint64_t> lines;  // empty when the input has no lines
    std::vector<uint64_t> doc_hashes;  // IdTable::hash of each doc ID, or empty
    std::vector<uint8_t> in_order;     // Records::in_order, or empty (not taken, or regrouped)
    const char* position_name = "line";
    size_t size() const { return query_ids.size(); }
    void clear();
};

enum class TrecFormat { qrels, run };

// The first faulty line or row found so far (none: position == UINT64_MAX).
struct InputFault {
    uint64_t position = UINT64_MAX;  // line (files) or row (tables), for ordering
    std::string message;
    bool found() const { return position != UINT64_MAX; }
    void consider(uint64_t at, std::string text) {
        if (at < position) {
            position = at;
            message = std::move(text);
        }
    }
};

// The longest TREC line read by default, in bytes, not counting its newline (evaluate_run's
// max_line_bytes): a file without newlines is refused at that point instead of read whole.
constexpr size_t default_max_line_bytes = size_t{1} << 20;

// The fault of a longer line: "line longer than 1,048,576 bytes (the max_line_bytes limit)".
std::string line_too_long(size_t max_line_bytes);

// `n` with its thousands separated by commas, as Python's f"{n:,}" (limits in messages).
std::string with_commas(uint64_t n);

// Parses TREC lines: qrels "query iteration doc grade" (exactly 4 fields), run "query Q0
// doc rank score tag" (at least 6: any after the 6th are ignored, as trec_eval does). Fields
// are separated by C isspace bytes other than the newline (space, \t, \r, \v, \f). Blank
// lines and comments (lines whose first non-blank byte is '#') are skipped, any number
// anywhere, in both formats; they still count as lines, so line numbers are physical ones,
// and the line bound applies to them too. Appends the records of `text`, whose first line
// is `first_line`; stops at the first malformed line (a line longer than `max_line_bytes`
// among them) and records it in `fault`. Returns the number of lines read. With
// `doc_hashes`, also IdTable::hash of each doc ID (out.doc_hashes), which the check for a
// document listed twice and the scorer's lookups then share instead of hashing each twice.
uint64_t parse_trec_lines(std::string_view text, TrecFormat format, uint64_t first_line, Records& out,
                          InputFault& fault, size_t max_line_bytes = default_max_line_bytes, bool doc_hashes = false);

// What group_records leaves `records` holding: nothing (release), or empty columns with
// their capacity (keep: for a reader that fills them again, block after block, instead of
// paging in fresh memory each time, which the kernel does one thread at a time).
enum class RecordStorage { release, keep };

// Groups `records` by query (first appearance order; each query's records in input order),
// taking their storage (`records` is left empty). A document listed twice for one query is
// a fault at the second listing. A large input is grouped on up to `threads` threads (its
// parts offered through `share` when given: PartRunner).
void group_records(Records& records, QueryGroups& out, InputFault& fault, unsigned threads = 1,
                   RecordStorage storage = RecordStorage::release, SharedParts* share = nullptr);

// A compressed file is not TREC text: if `text` starts with the magic bytes of gzip, xz or
// zstd (none can start a valid TREC line: each makes the first ID invalid UTF-8), the
// message saying so (for line 1); else empty.
std::string compressed_fault(std::string_view text);

// How a whole TREC text is read.
struct TextReading {
    size_t max_line_bytes = default_max_line_bytes;
    unsigned threads = 1;  // parsed and grouped on up to this many threads
    size_t smallest_part = size_t{1} << 20;  // bytes a part takes at least
    // When given, the parts are offered to a thread that helps (PartRunner), `threads`
    // counting it: then more parts than threads, each at least `smallest_part`.
    SharedParts* share = nullptr;
    // Also IdTable::hash of each doc ID, taken as the lines are read: for a text not grouped
    // by query, whose groups would otherwise read their IDs scattered over the whole text.
    bool doc_hashes = false;
    // Each record's line, for messages. False for records that need none once read (qrels:
    // 8 bytes a judgment at the reading's peak): a fault is then found without them, and the
    // text read again with them for its message.
    bool lines = true;
    // Also Records::in_order (the diversity measures' ranking order), for text grouped by query.
    bool rank_order = false;
};

// Parses and groups a whole TREC text (its records sized exactly: a growing vector would
// hold its old and new buffers at once, and qrels of millions of lines make that the peak).
// Throws RunInputError naming `source` and the first faulty line (line 1 for compressed
// text). The result does not depend on the threads or the parts. The storage of `out`'s
// columns (groups read before) is used again: after a throw, `out` must be read into again
// before it is used.
void read_trec_text(std::string_view text, TrecFormat format, const std::string& source, QueryGroups& out,
                    const TextReading& how = TextReading());

// parse_number for what parse_plain_decimal refuses (records.cpp).
bool parse_general_number(std::string_view text, double& value);

// A plain decimal with at most 15 digits and no exponent ("12.75", "-3", ".5"): the digits
// as an integer and one division by a power of ten, both exact in binary64, so the one
// rounding is the correctly rounded result (Clinger's fast path), as from_chars gives.
// False when `text` is anything else; the general parser decides then. Here, inline, since
// the readers' loops call it on every line: clang (which builds the wheels) kept it out of
// line there when it was in records.cpp, a seventh of a diversity reading's instructions.
EVALCORE_ALWAYS_INLINE bool parse_plain_decimal(std::string_view text, double& value) {
    static constexpr double powers[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p != end && *p == '-';
    if (p != end && (*p == '-' || *p == '+')) ++p;
    // The digits before the point, then those after it, in two tight loops (one test per
    // byte: a run file's scores are most of what is parsed). The mantissa may wrap past 19
    // digits; more than 15 is refused below, before it is used.
    const auto digit = [](char c) { return static_cast<unsigned>(static_cast<unsigned char>(c)) - '0'; };
    uint64_t mantissa = 0;
    const char* const whole = p;
    for (unsigned d; p != end && (d = digit(*p)) <= 9; ++p) mantissa = mantissa * 10 + d;
    const size_t whole_digits = static_cast<size_t>(p - whole);
    size_t fraction = 0;  // digits after the point
    if (p != end && *p == '.') {
        const char* const after = ++p;
        for (unsigned d; p != end && (d = digit(*p)) <= 9; ++p) mantissa = mantissa * 10 + d;
        fraction = static_cast<size_t>(p - after);
    }
    const size_t digits = whole_digits + fraction;
    if (p != end || digits == 0 || digits > 15) return false;
    value = static_cast<double>(mantissa) / powers[fraction];
    if (negative) value = -value;
    return true;
}

// A decimal number (an optional sign, digits, fraction, exponent), finite: strtod's syntax
// without hexadecimal, inf or nan.
EVALCORE_ALWAYS_INLINE bool parse_number(std::string_view text, double& value) {
    return parse_plain_decimal(text, value) || parse_general_number(text, value);
}

// Strict UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool is_valid_utf8(std::string_view text);

// The text of an ID for a message: quoted, shortened past 60 bytes.
std::string quoted_id(std::string_view id);

}  // namespace evalcore
