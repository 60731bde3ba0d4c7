// trec_eval's `-R qrels_jg` judgments: "query judgment_group document grade" lines, the
// judgments of several assessors (judgment groups) per query, read into groups. The map_avgjg,
// P_avgjg and Rprec_mult_avgjg measures (runs/jg_measures.hpp) average over a query's groups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runs/records.hpp"

namespace evalcore {

struct JudgmentGroups {
    // Queries in order of first appearance; query q holds groups [query_groups[q], query_groups[q + 1]),
    // in strcmp (byte) order of their names, as trec_eval sorts them (the order its averages add
    // them in); group g holds judgments [judgment_offsets[g], judgment_offsets[g + 1]), in line order.
    std::vector<std::string_view> query_ids;
    std::vector<size_t> query_groups{0};
    std::vector<std::string_view> group_names;
    std::vector<size_t> judgment_offsets{0};
    std::vector<std::string_view> doc_ids;
    std::vector<double> grades;
    size_t size() const { return query_ids.size(); }
};

// One line of a 4-field judgment file (qrels_jg's query group document grade, ndeval's
// query subtopic document grade): views into the text, the grade, the 1-based line.
struct FourFieldJudgment {
    std::string_view query, group, doc;
    double grade;
    uint64_t line;
};

// Reads the 4-field lines of `text` into `judgments` up to the first malformed one (fields
// separated as in the TREC formats, blank lines and '#' comments skipped but counted, the
// query ID valid UTF-8, the grade a finite decimal number, no line past `max_line_bytes`):
// its line, with its fault in `fault` (`shape_text` says what a line holds), or UINT64_MAX.
uint64_t parse_judgment_lines(std::string_view text, const char* shape_text, size_t max_line_bytes,
                              std::vector<FourFieldJudgment>& judgments, std::string& fault);

// Parses a whole qrels_jg text (the views point into `text`): exactly 4 fields a line,
// separated as in the TREC formats (records.hpp); blank lines and comments skipped, counted
// as lines; the grade a finite decimal number; the query ID valid UTF-8; a document listed
// twice in one group of a query is a fault at the second listing (the same document in two
// groups is two assessors' judgments). A line longer than `max_line_bytes` is a fault on its
// line. Throws RunInputError naming `source` and the first faulty line.
void read_qrels_jg_text(std::string_view text, const std::string& source, JudgmentGroups& out,
                        size_t max_line_bytes = default_max_line_bytes);

}  // namespace evalcore
