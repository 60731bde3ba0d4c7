#include "runs/compat_measure.hpp"

#include <algorithm>
#include <limits>

namespace evalcore {

double compatibility(const CompatQuery& q, double p, bool normalize, CompatScratch& scratch) {
    std::vector<uint32_t>& ideal = scratch.ideal;
    ideal.clear();
    for (size_t j = 0; j < q.judged_count; ++j) {
        if (q.grades[j] > 0) ideal.push_back(static_cast<uint32_t>(j));
    }
    // ir_measures sorts by score, then (stably) by grade: grade descending, score descending,
    // judgment order. Judgment indices are distinct, so std::sort needs no stability.
    std::sort(ideal.begin(), ideal.end(), [&q](uint32_t a, uint32_t b) {
        if (q.grades[a] != q.grades[b]) return q.grades[a] > q.grades[b];
        if (q.score_keys[a] != q.score_keys[b]) return q.score_keys[a] > q.score_keys[b];
        return a < b;
    });
    const size_t relevant = ideal.size();
    const size_t depth = std::max(q.ranking_length, relevant);
    if (depth == 0) return std::numeric_limits<double>::quiet_NaN();
    // A document is in both prefixes of length i + 1 from i = max(its rank, its ideal position).
    std::vector<int64_t>& settled = scratch.settled_at;
    settled.assign(depth, 0);
    for (size_t i = 0; i < relevant; ++i) {
        const size_t rank = q.ranks[ideal[i]];
        if (rank != kUnranked && rank < q.ranking_length) ++settled[std::max(rank, i)];
    }
    // ir_measures' rbo(): weight * |overlap| / (i + 1) summed, then over the sum of the weights.
    double score = 0.0, best = 0.0, normalizer = 0.0, weight = 1.0;
    int64_t overlap = 0;
    for (size_t i = 0; i < depth; ++i) {
        overlap += settled[i];
        const double length = static_cast<double>(i + 1);
        score += weight * static_cast<double>(overlap) / length;
        best += weight * static_cast<double>(std::min(i + 1, relevant)) / length;
        normalizer += weight;
        weight *= p;
    }
    double value = score / normalizer;
    if (normalize) {
        const double ideal_value = best / normalizer;
        if (ideal_value > 0.0) value = value / ideal_value;
    }
    return value;
}

}  // namespace evalcore
