// trec_eval 10's measures derived from the counts and the rankings the other measures read:
// gm_map and gm_bpref per query, utility, 11pt_avg, relative_P, set_relative_P, set_map, num_q
// and runid. Each follows trec_eval's operations in its order (m_gm_map.c, m_utility.c,
// m_11pt_avg.c, m_rel_P.c, m_set_rel_P.c, m_set_map.c), so the values are bit-identical; where
// trec_eval prints 0 for a query without a relevant judgment (or, for the set measures, an
// empty ranking), the value is undefined here (NaN), as for the measures they derive from.
// docs/measures.md defines each; the reference twin is reference/runs/derived_measures.py.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "runs/measures.hpp"

namespace evalcore {

namespace {

constexpr double min_geo_mean = 0.00001;  // trec_eval's floor under the logarithm (MIN_GEO_MEAN)

}  // namespace

double QueryScorer::derived(const Measure& measure, const Level& level, size_t n) {
    const double undefined = std::numeric_limits<double>::quiet_NaN();
    const int64_t relevant = level.relevant;
    const int64_t retrieved = static_cast<int64_t>(retrieved_);
    const int64_t relevant_retrieved = level.hits[n];
    switch (measure.kind) {
        case MeasureKind::gm_ap:
            if (relevant == 0) return undefined;
            return std::log(std::max(level.ap_sum[n] / static_cast<double>(relevant), min_geo_mean));
        case MeasureKind::gm_bpref:
            if (relevant == 0) return undefined;
            return std::log(std::max(bpref(level, n), min_geo_mean));
        case MeasureKind::utility: {
            // The coefficients of a (relevant retrieved), b (non-relevant retrieved), c
            // (relevant not retrieved), d (the rest of a collection of 0 documents: evalcore
            // has no -N), summed left to right as trec_eval does.
            const std::vector<double>& p = measure.parameters;
            if (p.size() != 4) return undefined;  // the Python layer refuses other counts
            const int64_t collection = 0;
            return p[0] * static_cast<double>(relevant_retrieved) +
                   p[1] * static_cast<double>(retrieved - relevant_retrieved) +
                   p[2] * static_cast<double>(relevant - relevant_retrieved) +
                   p[3] * static_cast<double>(collection + relevant_retrieved - retrieved - relevant);
        }
        case MeasureKind::eleven_point_average:
            if (relevant == 0 || measure.parameters.empty()) return undefined;
            return eleven_point_average(level, measure.parameters, n);
        case MeasureKind::relative_precision: {
            if (relevant == 0) return undefined;
            const int64_t k = measure.cutoff;
            const size_t depth = std::min<size_t>(n, static_cast<size_t>(k));
            return static_cast<double>(level.hits[depth]) / static_cast<double>(k > relevant ? relevant : k);
        }
        case MeasureKind::set_relative_precision:
            if (relevant == 0 || retrieved == 0) return undefined;
            return static_cast<double>(relevant_retrieved) / static_cast<double>(std::min(retrieved, relevant));
        case MeasureKind::set_map:
            if (relevant == 0 || retrieved == 0) return undefined;
            return (static_cast<double>(relevant_retrieved) * static_cast<double>(relevant_retrieved)) /
                   (static_cast<double>(retrieved) * static_cast<double>(relevant));
        case MeasureKind::num_q:
            return 1.0;
        case MeasureKind::run_id:
            return 0.0;
        default:
            return undefined;
    }
}

// trec_eval's 11pt_avg: each point x names the lround(x R)-th relevant document; walking the
// ranking from the bottom with the running maximum of precision (interpolated precision), a
// point's value is that maximum when its document is reached, points taken from the last
// given down (so points that do not ascend get trec_eval's values, not each one's own
// interpolated precision); points past the relevant retrieved get the maximum at rank 1.
// The sum is taken in that order and divided by the number of points. An empty ranking:
// trec_eval's 0 / 0 (NaN) for the points of 0 documents.
double QueryScorer::eleven_point_average(const Level& level, const std::vector<double>& points, size_t n) {
    const int64_t relevant = level.relevant;
    const int64_t relevant_retrieved = level.hits[n];
    cutoffs_.resize(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        // Any cutoff past R behaves as R + 1 (never reached); this keeps lround in range.
        const double wanted = points[i] * static_cast<double>(relevant);
        cutoffs_[i] = wanted > static_cast<double>(relevant) + 1.0 ? relevant + 1 : static_cast<int64_t>(std::lround(wanted));
    }
    std::ptrdiff_t current = static_cast<std::ptrdiff_t>(points.size()) - 1;
    while (current >= 0 && cutoffs_[static_cast<size_t>(current)] > relevant_retrieved) --current;
    double precision = static_cast<double>(relevant_retrieved) / static_cast<double>(n);
    double interpolated = precision;
    int64_t so_far = relevant_retrieved;
    double sum = 0.0;
    for (size_t i = n; i > 0 && so_far > 0; --i) {
        precision = static_cast<double>(so_far) / static_cast<double>(i);
        if (interpolated < precision) interpolated = precision;
        if (level.hits[i] != level.hits[i - 1]) {  // rank i holds a relevant document
            while (current >= 0 && so_far == cutoffs_[static_cast<size_t>(current)]) {
                sum += interpolated;
                --current;
            }
            --so_far;
        }
    }
    for (; current >= 0; --current) sum += interpolated;
    const double average = sum / static_cast<double>(points.size());
    return std::isnan(average) ? std::numeric_limits<double>::quiet_NaN() : average;  // evalcore's one NaN, not 0/0's
}

}  // namespace evalcore
