// Judgments per subtopic (intent), as the TREC Web track's ndeval reads them: "query subtopic
// document grade" lines (or the same four columns from Python objects). The diversity
// measures (diversity/diversity_measures.hpp) score a ranking against a query's subtopics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/id_index.hpp"
#include "common/id_table.hpp"
#include "runs/records.hpp"

namespace evalcore {

// One judgment as read: its query and subtopic as numbers (see SubtopicInput), its document
// (a view, and IdTable::hash of it), its grade, and where it was: a file's 1-based line, or
// a row's 0-based position among the rows given.
struct SubtopicRow {
    uint32_t query, subtopic;
    std::string_view doc;
    uint64_t hash;
    double grade;
    uint64_t at;
};

// IDs numbered in order of first appearance; the last one looked up is remembered, as
// consecutive judgments mostly share their query and subtopic.
class FirstAppearance {
public:
    // (The test for the last ID inline: a subtopic qrels line asks for its subtopic's number,
    // mostly the line before's; a call per line was 1 % of a diversity evaluation's samples.)
    EVALCORE_ALWAYS_INLINE uint32_t number(std::string_view id) {
        return !ids_.empty() && same_id(id, last_) ? last_number_ : number_new(id);
    }
    const std::vector<std::string_view>& ids() const { return ids_; }

private:
    uint32_t number_new(std::string_view id);  // not the last ID looked up

    std::vector<std::string_view> ids_;
    IdIndex index_;  // (the TREC readers' index of IDs)
    std::string_view last_;
    uint32_t last_number_ = 0;
};

// Judgments as read, in input order: queries and subtopics numbered by first appearance in the
// whole input (pyndeval numbers subtopics so; the sums over a document's subtopics, and AP-IA's
// over a query's, add in that order). Rows from Python objects are added one at a time.
struct SubtopicInput {
    FirstAppearance queries, subtopics;
    std::vector<SubtopicRow> rows;
    bool lines = true;  // `at` is a line (a file's), or else a row's position (for messages)
    void add(std::string_view query, std::string_view subtopic, std::string_view doc, double grade);
};

struct SubtopicJudgments {
    // Queries in order of first appearance; query q holds judgments [offsets[q], offsets[q + 1]),
    // in input order, and its judged documents ("rows", numbered in order of first appearance
    // in the query): row r's first judgment is row_judgments[offsets[q] + r], r < row_counts[q].
    std::vector<std::string_view> query_ids;
    std::vector<size_t> offsets{0};
    std::vector<SubtopicRow> judgments;
    std::vector<uint32_t> rows;           // per judgment: its document's row in its query
    std::vector<uint32_t> row_counts;     // per query
    std::vector<size_t> row_judgments;    // per query, from offsets[q] on: each row's first judgment
    size_t size() const { return query_ids.size(); }
};

// Groups `input`'s judgments by query (their storage taken), numbering each query's documents.
// A document listed twice for one subtopic of a query is a fault at the second listing,
// unless `fault` (one found earlier by the caller, with its line) comes first; the first fault
// is thrown as a RunInputError naming `source` (rows' faults name no line: their message says
// which row). The queries are numbered on up to `threads` threads (offered through `share`
// when given); nothing depends on them.
void group_subtopic_judgments(SubtopicInput& input, const std::string& source, InputFault fault, unsigned threads,
                              SubtopicJudgments& out, SharedParts* share = nullptr);

// Parses a whole ndeval qrels text (views point into `text`), on up to `threads` threads: the
// TREC readers' line rules (runs/line_parser.hpp; exactly 4 fields, the grade a finite number,
// the query ID valid UTF-8), the subtopic in the second field. The storage of `out`'s
// judgments (read before) is used again: after a throw, `out` must be read into again
// before it is used.
// `smallest_part`: the bytes a part takes at least (tests and the fuzzer make it small).
// `share`: the parts offered to a thread that helps (common/parallel.hpp's PartRunner).
void read_subtopic_qrels_text(std::string_view text, const std::string& source, SubtopicJudgments& out,
                              size_t max_line_bytes = default_max_line_bytes, unsigned threads = 1,
                              size_t smallest_part = size_t{1} << 18, SharedParts* share = nullptr);

}  // namespace evalcore
