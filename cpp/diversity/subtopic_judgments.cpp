#include "diversity/subtopic_judgments.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/id_table.hpp"
#include "common/parallel.hpp"
#include "runs/line_parser.hpp"

namespace evalcore {

uint32_t FirstAppearance::number_new(std::string_view id) {
    const uint64_t h = IdTable::hash(id);
    uint32_t number = index_.find(id, h, ids_);
    if (number == IdIndex::none) {
        number = static_cast<uint32_t>(ids_.size());
        ids_.push_back(id);
        index_.insert(h, number, ids_);  // (a std::length_error past 2^32 - 3 IDs: numbers are 32-bit)
    }
    last_ = id;
    last_number_ = number;
    return number;
}

void SubtopicInput::add(std::string_view query, std::string_view subtopic, std::string_view doc, double grade) {
    lines = false;
    rows.push_back(SubtopicRow{queries.number(query), subtopics.number(subtopic), doc, IdTable::hash(doc), grade,
                               rows.size()});
}

namespace {

// A set of 64-bit keys, each with the judgment it was first set by: open addressing,
// emptied by generation as IdTable is (once per query), so it allocates only to grow.
class PairTable {
public:
    void reset(size_t expected) {
        size_t capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        if (slots_.size() < capacity || ++generation_ == 0) {
            generation_ = 1;
            slots_.assign(std::max(capacity, slots_.size()), Slot{});
        }
        mask_ = slots_.size() - 1;
    }
    // nullptr when `key` is new (then set, with `judgment`), else its first judgment. At most
    // `expected` keys are set between resets: the table stays at most half full.
    const size_t* insert(uint64_t key, size_t judgment) {
        for (size_t i = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.generation != generation_) {
                slot = Slot{key, judgment, generation_};
                return nullptr;
            }
            if (slot.key == key) return &slot.judgment;
        }
    }

private:
    struct Slot {
        uint64_t key = 0;
        size_t judgment = 0;
        uint32_t generation = 0;
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    uint32_t generation_ = 0;
};

// Numbers the documents of queries [first, last) (rows, by first appearance) and finds the
// first document listed twice for one subtopic in each: the one of the smallest `at` is
// `fault`. Each (subtopic, row) key is set in a table of keys as the query's judgments are
// visited in input order, so the first key found there already is the query's earliest
// second listing. (A sort of each query's keys did the same in about twice the time.)
void number_rows(const SubtopicInput& input, SubtopicJudgments& out, size_t first, size_t last, InputFault& fault) {
    IdTable doc_rows;
    PairTable listed;
    for (size_t q = first; q < last; ++q) {
        const size_t begin = out.offsets[q], end = out.offsets[q + 1];
        doc_rows.reset(end - begin);
        listed.reset(end - begin);
        uint32_t count = 0;
        for (size_t j = begin; j < end; ++j) {
            const SubtopicRow& row = out.judgments[j];
            const uint32_t* known = doc_rows.insert(row.doc, row.hash, count);
            if (known == nullptr) out.row_judgments[begin + count] = j;
            const uint32_t number = known != nullptr ? *known : count++;
            out.rows[j] = number;
            const size_t* earlier = listed.insert((uint64_t{row.subtopic} << 32) | number, j);
            if (earlier == nullptr) continue;
            const std::string where =
                input.lines ? " (first on line " + std::to_string(out.judgments[*earlier].at) + ")" : "";
            fault.consider(row.at, "query " + quoted_id(out.query_ids[q]) + " subtopic " +
                                       quoted_id(input.subtopics.ids()[row.subtopic]) + " lists document " +
                                       quoted_id(row.doc) + " twice" + where);
            break;  // later second listings of this query come after this one
        }
        out.row_counts[q] = count;
    }
}

}  // namespace

void group_subtopic_judgments(SubtopicInput& input, const std::string& source, InputFault fault, unsigned threads,
                              SubtopicJudgments& out, SharedParts* share) {
    const PartRunner runner{threads, share};
    std::vector<SubtopicRow>& rows = input.rows;
    const size_t n = rows.size();
    out.query_ids = input.queries.ids();
    const size_t queries = out.query_ids.size();
    // Files list each query's judgments together: then they stay where they are (a query's
    // first appearance numbers it, so they are grouped when each row's query is the one
    // before's or the next number).
    bool grouped = true;
    std::vector<size_t> sizes(queries, 0);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t q = rows[i].query;
        grouped = grouped && (i == 0 || q == rows[i - 1].query || q == rows[i - 1].query + 1);
        ++sizes[q];
    }
    out.offsets.assign(queries + 1, 0);
    for (size_t q = 0; q < queries; ++q) out.offsets[q + 1] = out.offsets[q] + sizes[q];
    if (grouped) {
        out.judgments.swap(rows);
    } else {
        std::vector<size_t> cursor(out.offsets.begin(), out.offsets.end() - 1);
        out.judgments.resize(n);
        for (const SubtopicRow& row : rows) out.judgments[cursor[row.query]++] = row;
        std::vector<SubtopicRow>().swap(rows);
    }
    out.rows.resize(n);
    out.row_counts.resize(queries);
    out.row_judgments.resize(n);
    // Shares of the queries, each about n / parts judgments, numbered on the threads.
    const unsigned parts = static_cast<unsigned>(std::min<size_t>(runner.parts(), n / (size_t{1} << 14) + 1));
    std::vector<size_t> split(parts + 1, queries);
    split[0] = 0;
    for (unsigned t = 1, q = 0; t < parts; ++t) {
        while (q < queries && out.offsets[q] < n / parts * t) ++q;
        split[t] = q;
    }
    std::vector<InputFault> faults(parts);
    runner(parts, [&](unsigned t) { number_rows(input, out, split[t], split[t + 1], faults[t]); });
    for (InputFault& found : faults) {
        if (found.found()) fault.consider(found.position, std::move(found.message));
    }
    if (fault.found()) throw RunInputError(source, input.lines ? fault.position : 0, fault.message);
}

namespace {

// Where parse_lines puts one part's judgments: into the slots from `slots` on, their queries
// and subtopics numbered within the part until the parts are put together. On cache lines of
// its own, as records.cpp's PartRecords: the parts are side by side, each written every line.
struct alignas(64) SubtopicPart {
    SubtopicRow* slots = nullptr;
    size_t count = 0;
    FirstAppearance queries, subtopics;
    std::string_view last_query;  // the query of the line before, as its line has it
    uint32_t query = 0;

    bool continues(std::string_view id) const { return count > 0 && same_id(last_query, id); }
    EVALCORE_ALWAYS_INLINE void add(const std::string_view* fields, double grade, uint64_t line, bool same_query) {
        if (!same_query) {
            query = queries.number(fields[0]);
            last_query = fields[0];
        }
        slots[count++] = SubtopicRow{query, subtopics.number(fields[1]), fields[2], IdTable::hash(fields[2]), grade, line};
    }
};

constexpr LineShape subtopic_line{4, 3, "the grade ", "a subtopic qrels line has 4 fields: query subtopic document grade",
                                  false, true, 0b1111};

}  // namespace

void read_subtopic_qrels_text(std::string_view text, const std::string& source, SubtopicJudgments& out,
                              size_t max_line_bytes, unsigned threads, size_t smallest_part, SharedParts* share) {
    const PartRunner runner{threads, share};
    const std::string compressed = compressed_fault(text);  // before any line, as the TREC readers
    if (!compressed.empty()) throw RunInputError(source, 1, compressed);
    // The text cut at line starts into parts of at least `smallest_part` bytes (256 KiB by
    // default), one a thread, each parsed straight into its slots.
    const LineParts cut = cut_at_lines(text, runner, smallest_part);
    const size_t parts = cut.size();
    const std::vector<size_t>& slots = cut.slots;
    SubtopicInput input;
    // Judgments read before lend their storage (it comes back grouped) and are written over:
    // each part writes every slot it keeps. (Resized from empty, the rows were zero-filled
    // first: 4.8 MB for 100,000 judgments, 2.4 % of a diversity evaluation's samples.)
    input.rows.swap(out.judgments);
    input.rows.resize(slots[parts]);
    std::vector<SubtopicPart> records(parts);
    std::vector<InputFault> faults(parts);
    std::vector<uint64_t> line_counts(parts);
    runner(static_cast<unsigned>(parts), [&](unsigned k) {
        records[k].slots = input.rows.data() + slots[k];
        line_counts[k] = parse_lines_best(cut.part(text, k), subtopic_line, 1, records[k], faults[k], max_line_bytes);
    });
    // In order: each part's queries and subtopics numbered among all, up to the first faulty
    // part (the lines after a fault are not read, as on one thread).
    InputFault fault;
    std::vector<uint64_t> first_lines(parts, 1);
    std::vector<std::vector<uint32_t>> query_numbers(parts), subtopic_numbers(parts);
    size_t used = parts;
    for (size_t k = 0; k < parts; ++k) {
        if (k > 0) first_lines[k] = first_lines[k - 1] + line_counts[k - 1];
        for (std::string_view id : records[k].queries.ids()) query_numbers[k].push_back(input.queries.number(id));
        for (std::string_view id : records[k].subtopics.ids()) subtopic_numbers[k].push_back(input.subtopics.number(id));
        if (faults[k].found()) {
            fault.consider(faults[k].position + first_lines[k] - 1, std::move(faults[k].message));
            used = k + 1;
            break;
        }
    }
    runner(static_cast<unsigned>(used), [&](unsigned k) {
        const uint64_t shift = first_lines[k] - 1;
        for (size_t i = 0; i < records[k].count; ++i) {
            SubtopicRow& row = records[k].slots[i];
            row.query = query_numbers[k][row.query];
            row.subtopic = subtopic_numbers[k][row.subtopic];
            row.at += shift;
        }
    });
    size_t filled = 0;  // the parts' slots closed up
    for (size_t k = 0; k < used; ++k) {
        if (slots[k] != filled) {
            std::memmove(static_cast<void*>(input.rows.data() + filled), input.rows.data() + slots[k],
                         records[k].count * sizeof(SubtopicRow));
        }
        filled += records[k].count;
    }
    input.rows.resize(filled);
    group_subtopic_judgments(input, source, std::move(fault), threads, out, share);
}

}  // namespace evalcore
