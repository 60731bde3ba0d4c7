// trec_eval 10's measures over judgment groups (`-R qrels_jg`): map_avgjg, P_avgjg and
// Rprec_mult_avgjg. Each is map, P at a cutoff or precision at a multiple of R computed
// against each group's judgments of the query, summed over the groups in their order and
// divided by their number: trec_eval's m_map_avgjg.c, m_P_avgjg.c, m_Rprec_mult_avgjg.c
// (docs/measures.md). Always defined: a group without relevant judgments adds 0, as there.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/parallel.hpp"
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
    // in rank order); one value per measure to `values`. (doc_hashes and in_order, the
    // diversity scorer's, are not used.)
    void score(const JudgmentGroups& judgments, size_t query, const std::string_view* docs, const double* scores,
               const uint64_t* doc_hashes, const uint8_t* in_order, size_t count, double* values);

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

// The loop of evaluate_judgment_groups and evaluate_diversity: the judged queries of `run` in
// run order, then (options.missing_zero) the judged queries the run lacks, as empty
// rankings; the means. Each query is scored by a scorer that make_scorer() returns, one per
// thread (score(judgments, q, docs, scores, doc_hashes, in_order, count, values); doc_hashes:
// the run's IdTable::hash of each document, or null; in_order: QueryGroups::in_order, or null), on up to `threads` threads: queries are
// independent, each writes its own row, so the results do not depend on the threads.
template <typename Judgments, typename MakeScorer>
RunResults evaluate_judged_queries(const Judgments& judgments, const QueryGroups& run, size_t width,
                                   const RunOptions& options, unsigned threads, const MakeScorer& make_scorer) {
    std::unordered_map<std::string_view, size_t> judged;
    for (size_t q = 0; q < judgments.size(); ++q) judged.emplace(judgments.query_ids[q], q);
    std::vector<uint8_t> seen(judgments.size(), 0);
    RunResults results;
    // The rows, in order: (judged query, run group), the group SIZE_MAX for an empty ranking.
    std::vector<std::pair<size_t, size_t>> rows;
    for (size_t g = 0; g < run.size(); ++g) {
        const auto found = judged.find(run.query_ids[g]);
        if (found == judged.end()) continue;  // no judgments: not scored (as trec_eval and pyndeval)
        seen[found->second] = 1;
        rows.emplace_back(found->second, g);
    }
    for (size_t q = 0; q < judgments.size(); ++q) {
        if (seen[q]) continue;
        results.missing_ids.push_back(results.names.copy(judgments.query_ids[q]));
        if (options.missing_zero) rows.emplace_back(q, SIZE_MAX);
    }
    for (const auto& row : rows) results.query_ids.push_back(results.names.copy(judgments.query_ids[row.first]));
    results.values.resize(rows.size() * width);
    constexpr size_t chunk = 16;  // queries a thread takes at a time
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((rows.size() + chunk - 1) / chunk)));
    std::atomic<size_t> next{0};
    on_threads(threads, [&](unsigned) {
        auto scorer = make_scorer();
        for (size_t begin; (begin = next.fetch_add(chunk)) < rows.size();) {
            for (size_t i = begin; i < std::min(rows.size(), begin + chunk); ++i) {
                const auto [q, g] = rows[i];
                double* values = results.values.data() + i * width;
                if (g == SIZE_MAX) {
                    scorer.score(judgments, q, nullptr, nullptr, nullptr, nullptr, 0, values);
                    continue;
                }
                const size_t begin_doc = run.offsets[g];
                scorer.score(judgments, q, run.doc_ids.data() + begin_doc,
                             run.values.empty() ? nullptr : run.values.data() + begin_doc,
                             run.doc_hashes.empty() ? nullptr : run.doc_hashes.data() + begin_doc,
                             run.in_order.empty() ? nullptr : run.in_order.data() + begin_doc,
                             run.offsets[g + 1] - begin_doc, values);
            }
        }
    });
    compute_means(results.values, width, results.mean, results.defined);
    return results;
}

// Scores a run (grouped by query) against qrels_jg judgments: the judged queries of the run
// in run order, then (options.missing_zero) the judged queries it lacks, as empty rankings.
RunResults evaluate_judgment_groups(const JudgmentGroups& judgments, const QueryGroups& run,
                                    const std::vector<Measure>& measures, const RunOptions& options);

}  // namespace evalcore
