// Judgments per subtopic (intent), as the TREC Web track's ndeval reads them: "query subtopic
// document grade" lines (or the same four columns from Python objects). The diversity
// measures (diversity/diversity_measures.hpp) score a ranking against a query's subtopics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runs/jg_records.hpp"
#include "runs/records.hpp"

namespace evalcore {

struct SubtopicJudgments {
    // Queries in order of first appearance; query q holds judgments [offsets[q], offsets[q + 1]),
    // in input order. A judgment's subtopic is an index into the order in which subtopic IDs
    // first appear in the whole input (pyndeval numbers them so; the sums over a document's
    // subtopics, and AP-IA's over a query's, add in that order).
    std::vector<std::string_view> query_ids;
    std::vector<size_t> offsets{0};
    std::vector<std::string_view> doc_ids;
    std::vector<uint32_t> subtopics;
    std::vector<double> grades;
    size_t size() const { return query_ids.size(); }
};

// Groups judgments (views kept as given) by query. A document listed twice for one subtopic
// of a query is a fault at the second listing, unless `fault_line` (a fault found earlier by
// the caller, with its message in `fault`) comes first; the first fault is thrown as a
// RunInputError naming `source` (line 0: `judgments` are rows, named in the message).
void group_subtopic_judgments(const std::vector<FourFieldJudgment>& judgments, const std::string& source,
                              uint64_t fault_line, std::string fault, SubtopicJudgments& out);

// Parses a whole ndeval qrels text (views point into `text`): the qrels_jg reader's rules
// (runs/jg_records.hpp) with the subtopic in the second field.
void read_subtopic_qrels_text(std::string_view text, const std::string& source, SubtopicJudgments& out,
                              size_t max_line_bytes = default_max_line_bytes);

}  // namespace evalcore
