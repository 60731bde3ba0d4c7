// trec_eval 10's measures over judgment groups (`-R qrels_jg`): map_avgjg, P_avgjg and
// Rprec_mult_avgjg. Each is map, P at a cutoff or precision at a multiple of R computed
// against each group's judgments of the query, summed over the groups in their order and
// divided by their number: trec_eval's m_map_avgjg.c, m_P_avgjg.c, m_Rprec_mult_avgjg.c
// (docs/measures.md). Always defined: a group without relevant judgments adds 0, as there.
#pragma once

#include <cstddef>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runs/evaluation.hpp"
#include "runs/jg_records.hpp"
#include "runs/measures.hpp"

namespace evalcore {

// Whether a kind is one of the judgment-group measures (scored only with qrels_jg judgments).
bool is_judgment_group_kind(MeasureKind kind);

// Scores one query at a time against its judgment groups (it reuses its buffers).
class JudgmentGroupScorer {
public:
    JudgmentGroupScorer(const std::vector<Measure>& measures, const RunOptions& options);

    // Query `query` of `judgments` against the ranking docs[0..count) (scores may be null:
    // in rank order); one value per measure to `values`.
    void score(const JudgmentGroups& judgments, size_t query, const std::string_view* docs, const double* scores,
               size_t count, double* values);

private:
    void rank(const std::string_view* docs, const double* scores, size_t count);
    double value(const Measure& measure) const;

    const std::vector<Measure>& measures_;
    RunOptions options_;
    std::vector<size_t> order_;          // the ranking, input positions in rank order, after max_retrieved
    std::vector<double> rank_grades_;    // one group's grade of each rank (NaN: not judged there)
    std::vector<double> group_grades_;   // that group's judgments
    std::unordered_map<std::string_view, double> grade_of_;
};

// Scores a run (grouped by query) against qrels_jg judgments: the judged queries of the run
// in run order, then (options.missing_zero) the judged queries it lacks, as empty rankings.
RunResults evaluate_judgment_groups(const JudgmentGroups& judgments, const QueryGroups& run,
                                    const std::vector<Measure>& measures, const RunOptions& options);

}  // namespace evalcore
