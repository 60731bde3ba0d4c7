// trec_eval's preference judgments: `-R prefs` ("query judgment_group judgment_subgroup
// document rel_level" lines) and `-R qrels_prefs` (an ordinary qrels file, "query
// judgment_group document rel_level", every line in sub-group "0"), read into queries. The
// prefs_* measures (runs/prefs_measures.hpp) count the preferences they express.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runs/records.hpp"

namespace evalcore {

struct Preferences {
    // Queries in order of first appearance; query q holds judgments [query_offsets[q],
    // query_offsets[q + 1]), in line order.
    std::vector<std::string_view> query_ids;
    std::vector<size_t> query_offsets{0};
    std::vector<std::string_view> groups, subgroups, doc_ids;
    std::vector<double> levels;
    size_t size() const { return query_ids.size(); }
};

// Parses a whole prefs (`with_subgroups`) or qrels_prefs text (the views point into `text`):
// exactly 5 (4) fields a line, separated as in the TREC formats (records.hpp); blank lines
// and comments skipped, counted as lines; the rel_level a finite decimal number but -3
// (trec_eval's mark for none, which miscounts a group judged at most -3); the query ID valid
// UTF-8. The judgments trec_eval stops at are faults too: a document given two
// rel_levels in one sub-group (at the second), judged 0 in one sub-group of a group and more
// than 0 in another (at the later line), a group whose sub-groups' preferences form a cycle
// (at its last line; trec_eval aborts). A line longer than `max_line_bytes` is a fault on its
// line. Throws RunInputError naming `source` and the first faulty line.
void read_prefs_text(std::string_view text, bool with_subgroups, const std::string& source, Preferences& out,
                     size_t max_line_bytes = default_max_line_bytes);

}  // namespace evalcore
