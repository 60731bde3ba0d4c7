// What the classical paired tests need from the per-query values, computed where the values
// are (the p-values themselves come from python/evalcore/comparisons/distributions.py, shared with the
// reference): the mean and the sum of squared deviations (Student's t, its confidence
// interval, the standardized effect), and the signed ranks (Wilcoxon).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace evalcore {

struct Moments {
    double mean = 0;  // the exact sum rounded once, divided by n (docs/contract.md §5's rule); NaN for n = 0
    double ss = 0;    // Σ (x − mean)², each square a binary64 product, summed exactly, rounded once;
                      // exactly 0 when every value is the same
};

Moments moments(const double* values, size_t n);

// Wilcoxon's signed-rank statistic of differences as scipy.stats.wilcoxon ranks them
// (zero_method="wilcox"): zeros dropped, the rest ranked by |d| with average ranks for ties.
struct SignedRanks {
    size_t zeros = 0;
    int64_t r_plus2 = 0;      // twice the rank sum of the positive differences (ranks are halves)
    uint64_t tie_term = 0;    // Σ (t³ − t) over groups of t tied |d|
    bool has_ties = false;
    std::vector<int64_t> ranks2;  // twice each nonzero difference's rank (kept when asked)
};

// std::overflow_error when a tie term would not fit 64 bits (over 2.6 million tied values).
SignedRanks signed_ranks(const double* differences, size_t n, bool keep_ranks);

}  // namespace evalcore
