#include "runs/jg_measures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace evalcore {

bool is_judgment_group_kind(MeasureKind kind) {
    return kind == MeasureKind::map_avgjg || kind == MeasureKind::p_avgjg || kind == MeasureKind::rprec_mult_avgjg;
}

JudgmentGroupScorer::JudgmentGroupScorer(const std::vector<Measure>& measures, const RunOptions& options)
    : measures_(measures), options_(options) {}

// Score descending, then document ID descending (trec_eval's comp_sim_docno), or the input
// order; then only the first max_retrieved (trec_eval -M).
void JudgmentGroupScorer::rank(const std::string_view* docs, const double* scores, size_t count) {
    order_.resize(count);
    for (size_t i = 0; i < count; ++i) order_[i] = i;
    if (options_.ties_by_score && scores != nullptr) {
        std::sort(order_.begin(), order_.end(), [docs, scores](size_t a, size_t b) {
            if (scores[a] != scores[b]) return scores[a] > scores[b];
            return docs[a] > docs[b];
        });
    }
    if (options_.max_retrieved >= 0 && order_.size() > static_cast<size_t>(options_.max_retrieved)) {
        order_.resize(static_cast<size_t>(options_.max_retrieved));
    }
}

// One measure against one group: rank_grades_ and group_grades_ hold the group's view.
double JudgmentGroupScorer::value(const Measure& m) const {
    const double threshold = std::isnan(m.relevant_at_least) ? options_.relevant_at_least : m.relevant_at_least;
    int64_t relevant = 0;
    for (double grade : group_grades_) relevant += grade >= threshold ? 1 : 0;
    const size_t n = rank_grades_.size();
    switch (m.kind) {
        case MeasureKind::map_avgjg: {  // trec_eval: 0 when no relevant document is retrieved
            int64_t hits = 0;
            double sum = 0.0;
            for (size_t r = 1; r <= n; ++r) {
                if (rank_grades_[r - 1] >= threshold) {
                    ++hits;
                    sum += static_cast<double>(hits) / static_cast<double>(r);
                }
            }
            return hits != 0 ? sum / static_cast<double>(relevant) : 0.0;
        }
        case MeasureKind::p_avgjg: {
            const size_t depth = std::min(n, static_cast<size_t>(m.cutoff));
            int64_t hits = 0;
            for (size_t r = 0; r < depth; ++r) hits += rank_grades_[r] >= threshold ? 1 : 0;
            return static_cast<double>(hits) / static_cast<double>(m.cutoff);
        }
        case MeasureKind::rprec_mult_avgjg: {
            // trec_eval's cutoff, (long) (multiple * R + 0.9) (bounded: 2^62 is past any
            // ranking), and its backward walk, which comes to the precision at the cutoff
            // (0 when no relevant document is at or above it), or past the ranking the
            // retrieved relevant documents over the cutoff: P at the cutoff either way.
            const double scaled = m.parameter * static_cast<double>(relevant) + 0.9;
            if (!(scaled >= 1)) return 0.0;
            const int64_t cutoff = scaled < 0x1p62 ? static_cast<int64_t>(scaled) : int64_t{1} << 62;
            const size_t depth = std::min(n, static_cast<size_t>(cutoff));
            int64_t hits = 0;
            for (size_t r = 0; r < depth; ++r) hits += rank_grades_[r] >= threshold ? 1 : 0;
            return static_cast<double>(hits) / static_cast<double>(cutoff);
        }
        default:
            return std::numeric_limits<double>::quiet_NaN();
    }
}

void JudgmentGroupScorer::score(const JudgmentGroups& judgments, size_t query, const std::string_view* docs,
                                const double* scores, const uint64_t* /*doc_hashes: not used*/,
                                const uint8_t* /*in_order: not used*/, size_t count, double* values) {
    rank(docs, scores, count);
    for (size_t m = 0; m < measures_.size(); ++m) values[m] = 0.0;
    const size_t first = judgments.query_groups[query], last = judgments.query_groups[query + 1];
    for (size_t g = first; g < last; ++g) {
        const size_t begin = judgments.judgment_offsets[g], end = judgments.judgment_offsets[g + 1];
        grade_of_.clear();
        group_grades_.assign(judgments.grades.begin() + static_cast<ptrdiff_t>(begin),
                             judgments.grades.begin() + static_cast<ptrdiff_t>(end));
        for (size_t j = begin; j < end; ++j) grade_of_.emplace(judgments.doc_ids[j], judgments.grades[j]);
        rank_grades_.clear();
        for (size_t at : order_) {
            const auto found = grade_of_.find(docs[at]);
            const double grade = found != grade_of_.end() ? found->second : std::numeric_limits<double>::quiet_NaN();
            // trec_eval -J: this group's unjudged documents (and negative grades) leave the ranking.
            if (options_.judged_only && !(grade >= 0)) continue;
            rank_grades_.push_back(grade);
        }
        for (size_t m = 0; m < measures_.size(); ++m) values[m] += value(measures_[m]);
    }
    if (last - first > 1) {
        for (size_t m = 0; m < measures_.size(); ++m) values[m] /= static_cast<double>(last - first);
    }
}

RunResults evaluate_judgment_groups(const JudgmentGroups& judgments, const QueryGroups& run,
                                    const std::vector<Measure>& measures, const RunOptions& options) {
    return evaluate_judged_queries(judgments, run, measures.size(), options, 1,
                                   [&] { return JudgmentGroupScorer(measures, options); });
}

}  // namespace evalcore
