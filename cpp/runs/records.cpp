#include "runs/records.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/id_table.hpp"
#include "common/parallel.hpp"
#include "runs/line_parser.hpp"

namespace evalcore {

RunInputError::RunInputError(std::string source, uint64_t line, const std::string& detail)
    : std::runtime_error(line != 0 ? source + ":" + std::to_string(line) + ": " + detail : source + ": " + detail),
      source_(std::move(source)),
      line_(line),
      detail_(detail) {}

uint32_t Records::intern(std::string_view id, bool& added) {
    const uint64_t h = IdTable::hash(id);
    added = false;
    const uint32_t seen = index_.find(id, h, queries);
    if (seen != IdIndex::none) return seen;
    const uint32_t next = static_cast<uint32_t>(queries.size());
    queries.push_back(query_text.copy(id));
    index_.insert(h, next, queries);
    added = true;
    return next;
}

bool Records::add_query(std::string_view id, bool same_query) {
    if (same_query) {
        query_of.push_back(query_of.back());
        return false;
    }
    bool added;
    const uint32_t q = intern(id, added);
    query_of.push_back(q);
    last_query_ = queries[q];
    if (!added) grouped = false;  // a query met before, after others
    return added;
}

std::vector<uint32_t> Records::number_queries(const std::vector<std::string_view>& part_queries, bool part_grouped,
                                              uint32_t previous) {
    const size_t before = queries.size();
    std::vector<uint32_t> global(part_queries.size());
    for (size_t q = 0; q < part_queries.size(); ++q) {
        bool added;
        global[q] = intern(part_queries[q], added);
    }
    if (!global.empty() && grouped) {
        // Grouped still if the part is, and its queries are new here, but for its first,
        // which may go on from the record before.
        grouped = part_grouped && (global[0] >= before || global[0] == previous);
        for (size_t q = 1; grouped && q < global.size(); ++q) grouped = global[q] >= before;
    }
    return global;
}

void Records::append(const Records& part) {
    const std::vector<uint32_t> global =
        number_queries(part.queries, part.grouped, query_of.empty() ? IdIndex::none : query_of.back());
    query_of.reserve(query_of.size() + part.size());
    for (const uint32_t q : part.query_of) query_of.push_back(global[q]);
    if (!query_of.empty()) last_query_ = queries[query_of.back()];
    doc_ids.insert(doc_ids.end(), part.doc_ids.begin(), part.doc_ids.end());
    values.insert(values.end(), part.values.begin(), part.values.end());
    lines.insert(lines.end(), part.lines.begin(), part.lines.end());
    doc_hashes.insert(doc_hashes.end(), part.doc_hashes.begin(), part.doc_hashes.end());
    in_order.clear();  // taken by parse_in_parts' readings only
}

void Records::clear() {
    queries.clear();
    query_text.clear();
    query_of.clear();
    doc_ids.clear();
    values.clear();
    lines.clear();
    doc_hashes.clear();
    in_order.clear();
    grouped = true;
    index_ = IdIndex{};
    last_query_ = std::string_view();
}

void Records::reserve(size_t n) {
    query_of.reserve(n);
    doc_ids.reserve(n);
    values.reserve(n);
    lines.reserve(n);
}

void Records::reserve_queries(size_t n) {
    if (!queries.empty()) return;
    index_.reset(n);
    queries.reserve(n);
}

void QueryGroups::clear() {
    query_ids.clear();
    query_text.clear();
    index = IdIndex{};
    offsets.assign(1, 0);
    doc_ids.clear();
    values.clear();
    lines.clear();
    doc_hashes.clear();
    in_order.clear();
}

std::string quoted_id(std::string_view id) {
    constexpr size_t shown = 60;
    std::string text = "'";
    size_t cut = std::min(id.size(), shown);
    // Not inside a UTF-8 sequence: back off over continuation bytes.
    while (cut > 0 && cut < id.size() && (static_cast<unsigned char>(id[cut]) & 0xC0) == 0x80) --cut;
    text.append(id.substr(0, cut));
    if (id.size() > cut) text.append("...");
    text.push_back('\'');
    return text;
}

bool parse_general_number(std::string_view text, double& value) {
    // from_chars takes no leading '+'; accept it as strtod and trec_eval do.
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
        if (!text.empty() && text.front() == '-') return false;
    }
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (stop != end) return false;
    if (error == std::errc::result_out_of_range) {
        // Past the range: strtod tells underflow (kept, correctly rounded towards 0, as
        // Python's float() does) from overflow (refused). The syntax is already checked.
        const std::string copy(text);
        value = std::strtod(copy.c_str(), nullptr);
    } else if (error != std::errc()) {
        return false;
    }
    return std::isfinite(value);
}

bool is_valid_utf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    // ASCII, 8 bytes at a time: IDs mostly are.
    for (uint64_t chunk; end - p >= 8; p += 8) {
        std::memcpy(&chunk, p, 8);
        if ((chunk & 0x8080808080808080ull) != 0) break;
    }
    while (p < end) {
        if (*p < 0x80) {
            ++p;
            continue;
        }
        size_t extra;
        uint32_t cp;
        if ((*p & 0xE0) == 0xC0) {
            extra = 1;
            cp = *p & 0x1Fu;
        } else if ((*p & 0xF0) == 0xE0) {
            extra = 2;
            cp = *p & 0x0Fu;
        } else if ((*p & 0xF8) == 0xF0) {
            extra = 3;
            cp = *p & 0x07u;
        } else {
            return false;
        }
        if (static_cast<size_t>(end - p) <= extra) return false;
        for (size_t i = 1; i <= extra; ++i) {
            if ((p[i] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i] & 0x3Fu);
        }
        static constexpr uint32_t smallest[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < smallest[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        p += extra + 1;
    }
    return true;
}

std::string with_commas(uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string grouped;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped.push_back(',');
        grouped.push_back(digits[i]);
    }
    return grouped;
}

std::string line_too_long(size_t max_line_bytes) {
    return "line longer than " + with_commas(max_line_bytes) + " bytes (the max_line_bytes limit)";
}

namespace {

// Where parse_lines puts what it reads: appended to Records...
struct AppendRecords {
    Records& out;
    bool hashes = false;  // also IdTable::hash of each doc ID, into out.doc_hashes
    bool continues(std::string_view query) const { return out.continues(query); }
    EVALCORE_ALWAYS_INLINE void add(const std::string_view* fields, double value, uint64_t line, bool same_query) {
        const std::string_view query = fields[0], doc = fields[2];
        out.add_query(query, same_query);
        out.doc_ids.push_back(doc);
        out.values.push_back(value);
        out.lines.push_back(line);
        if (hashes) out.doc_hashes.push_back(IdTable::hash(doc));
    }
};

// ... or written into the columns of `columns` (sized beforehand) from slot `first` on: one
// thread's part of a text, its queries numbered among themselves (in `names`, whose other
// columns stay empty) until the parts are put together. Each on cache lines of its own: the
// parts sit side by side in a vector, and one thread's count, written every line, shared a
// cache line with the next part's fields, read every line by another thread (that line
// then moves between the cores at each write).
struct alignas(64) PartRecords {
    PartRecords(Records& into, size_t from, const TextReading& how)
        : columns(into), first(from), hashes(how.doc_hashes), lines(how.lines), order(how.rank_order) {}

    Records& columns;
    size_t first;
    bool hashes;  // also IdTable::hash of each doc ID, into columns.doc_hashes
    bool lines;   // each record's line, into columns.lines
    bool order;   // Records::in_order, into columns.in_order (a part's first record's is set later)
    Records names;
    size_t count = 0;
    uint32_t last = 0;          // the query of the record before...
    std::string_view last_id;   // ... as its line has it (the text outlives the parts; the
                                // line before is in cache, its copy among the names not)
    bool grouped = true;        // no query comes back after another

    bool continues(std::string_view query) const { return count > 0 && same_id(last_id, query); }
    EVALCORE_ALWAYS_INLINE void add(const std::string_view* fields, double value, uint64_t line, bool same_query) {
        const std::string_view query = fields[0], doc = fields[2];
        const size_t at = first + count;
        if (!same_query) {
            bool added;
            last = names.intern(query, added);
            last_id = query;
            grouped = grouped && added;
            if (order) columns.in_order[at] = 1;
        } else if (order) {
            columns.in_order[at] = ranks_after(columns.values[at - 1], columns.doc_ids[at - 1], value, doc);
        }
        ++count;
        columns.query_of[at] = last;
        columns.doc_ids[at] = doc;
        columns.values[at] = value;
        if (lines) columns.lines[at] = line;
        if (hashes) columns.doc_hashes[at] = IdTable::hash(doc);
    }
};


}  // namespace

uint64_t parse_trec_lines(std::string_view text, TrecFormat format, uint64_t first_line, Records& out,
                          InputFault& fault, size_t max_line_bytes, bool doc_hashes) {
    AppendRecords sink{out, doc_hashes};
    return parse_lines_best(text, trec_line_shape(format), first_line, sink, fault, max_line_bytes);
}

std::string compressed_fault(std::string_view text) {
    struct Magic {
        std::string_view bytes;
        const char* name;
    };
    static constexpr Magic magics[] = {{"\x1f\x8b", "gzip"}, {"\xfd" "7zXZ", "xz"}, {"\x28\xb5\x2f\xfd", "zstd"}};
    for (const Magic& magic : magics) {
        if (text.substr(0, magic.bytes.size()) != magic.bytes) continue;
        std::string message = std::string("the file looks ") + magic.name + "-compressed (it starts with " + magic.name +
                              "'s magic bytes): ";
        return message + (magic.name == std::string_view("gzip") ? "name it *.gz and evalcore decompresses it"
                                                                  : "decompress it first");
    }
    return std::string();
}

namespace {

// Records of the whole `text`, as parse_trec_lines gives them on one thread: the text is cut
// at line starts into parts of at least `how.smallest_part` bytes, each parsed on a thread
// of its own straight into its slots of the columns (sized once, by its count of lines:
// no column exists twice, as merging copies would make it), then the parts' queries are
// numbered in order, the line numbers made absolute, and the slots closed up.
void parse_in_parts(std::string_view text, TrecFormat format, Records& out, InputFault& fault, const TextReading& how) {
    const LineShape shape = trec_line_shape(format);
    const PartRunner runner{how.threads, how.share};
    const LineParts cut = cut_at_lines(text, runner, how.smallest_part);
    const size_t parts = cut.size();
    const std::vector<size_t>& slots = cut.slots;  // part k writes from slots[k] on
    const size_t total = slots[parts];
    // Columns lent by groups read before keep their size, to be written over: each part
    // writes every slot it keeps (resized from empty, they were zero-filled first). Those
    // not taken are emptied (an empty column says so to those who read the groups).
    out.query_of.resize(total);
    out.doc_ids.resize(total);
    out.values.resize(total);
    const auto size_or_empty = [total](bool taken, auto& column) {
        if (taken) {
            column.resize(total);
        } else {
            column.clear();
        }
    };
    size_or_empty(how.lines, out.lines);
    size_or_empty(how.doc_hashes, out.doc_hashes);
    size_or_empty(how.rank_order, out.in_order);
    std::vector<PartRecords> records;
    records.reserve(parts);
    for (size_t k = 0; k < parts; ++k) records.emplace_back(out, slots[k], how);
    std::vector<InputFault> faults(parts);
    std::vector<uint64_t> line_counts(parts);
    runner(static_cast<unsigned>(parts), [&](unsigned k) {
        const std::string_view part = cut.part(text, k);
        line_counts[k] = parse_lines_best(part, shape, 1, records[k], faults[k], how.max_line_bytes);
        records[k].names.take_index();  // dropped: the merge needs the names only (and the peak is now)
    });
    // In order: a part's queries get their numbers among all, up to the first faulty part
    // (the lines after a fault are not read, as on one thread).
    std::vector<std::vector<uint32_t>> numbers(parts);
    std::vector<uint64_t> first_lines(parts, 1);
    size_t used = parts, distinct = 0;
    for (const PartRecords& part : records) distinct += part.names.queries.size();
    out.reserve_queries(distinct);  // at most: the index never grows (its old and new tables at once)
    uint32_t previous = IdIndex::none;  // the query of the last record so far
    for (size_t k = 0; k < parts; ++k) {
        if (k > 0) first_lines[k] = first_lines[k - 1] + line_counts[k - 1];
        PartRecords& part = records[k];
        numbers[k] = out.number_queries(part.names.queries, part.grouped, previous);
        part.names = Records();  // its index and copies: qrels can have millions of queries
        if (part.count > 0) previous = numbers[k][part.last];
        if (faults[k].found()) {
            fault.consider(faults[k].position + first_lines[k] - 1, std::move(faults[k].message));
            used = k + 1;
            break;
        }
    }
    // Numbers and lines made global, part by part on the threads; then the slots closed up.
    runner(static_cast<unsigned>(used), [&](unsigned k) {
        const PartRecords& part = records[k];
        const uint64_t shift = first_lines[k] - 1;
        for (size_t i = part.first; i < part.first + part.count; ++i) out.query_of[i] = numbers[k][out.query_of[i]];
        if (how.lines) {
            for (size_t i = part.first; i < part.first + part.count; ++i) out.lines[i] += shift;
        }
    });
    size_t filled = 0;
    const auto close_up = [&](auto& column, size_t from, size_t count) {
        if (from != filled) std::memmove(column.data() + filled, column.data() + from, count * sizeof column[0]);
    };
    for (size_t k = 0; k < used; ++k) {
        const PartRecords& part = records[k];
        close_up(out.query_of, part.first, part.count);
        close_up(out.doc_ids, part.first, part.count);
        close_up(out.values, part.first, part.count);
        if (how.lines) close_up(out.lines, part.first, part.count);
        if (how.doc_hashes) close_up(out.doc_hashes, part.first, part.count);
        if (how.rank_order) close_up(out.in_order, part.first, part.count);
        // A part's first record follows the last of the part before (its query's or not:
        // for a query's first record the flag means nothing).
        if (how.rank_order && filled > 0 && part.count > 0) {
            out.in_order[filled] =
                ranks_after(out.values[filled - 1], out.doc_ids[filled - 1], out.values[filled], out.doc_ids[filled]);
        }
        filled += part.count;
    }
    out.query_of.resize(filled);
    out.doc_ids.resize(filled);
    out.values.resize(filled);
    if (how.lines) out.lines.resize(filled);
    if (how.doc_hashes) out.doc_hashes.resize(filled);
    if (how.rank_order) out.in_order.resize(filled);
}

}  // namespace

void read_trec_text(std::string_view text, TrecFormat format, const std::string& source, QueryGroups& out,
                    const TextReading& how) {
    if (std::string fault = compressed_fault(text); !fault.empty()) throw RunInputError(source, 1, fault);
    Records records;
    // The columns of groups read before lend their storage to this reading, and get it back
    // when grouped (a caller reading file after file into one QueryGroups pages in no fresh
    // memory for them: the kernel's page faults were a third of a diversity evaluation's time).
    records.doc_ids.swap(out.doc_ids);
    records.values.swap(out.values);
    records.lines.swap(out.lines);
    records.doc_hashes.swap(out.doc_hashes);
    records.in_order.swap(out.in_order);  // (sized anew by parse_in_parts, not emptied)
    InputFault fault;
    parse_in_parts(text, format, records, fault, how);
    group_records(records, out, fault, how.threads, RecordStorage::release, how.share);
    if (!fault.found()) return;
    if (!how.lines) {
        // Without lines, a repeated document's position was its record's, not its line: the
        // text is read again with them, which finds the same first fault and says where.
        TextReading again = how;
        again.lines = true;
        read_trec_text(text, format, source, out, again);
    }
    throw RunInputError(source, fault.position, fault.message);
}

}  // namespace evalcore
