// The randomized Tukey HSD test (Carterette 2012; Sakai's recommended practice for comparing
// many IR systems): over all pairs of m systems on the same n queries, one family. Each
// resample shuffles, query by query, which system a query's m values belong to, and records
// the range (largest minus smallest) of the systems' sums; a pair's count is the resamples
// whose range is at least the pair's observed |S_i − S_j|. Every sum is exact (fixed point,
// stats/fixed_point.hpp) and means share the divisor n, so comparing sums is comparing means.
//
// Resample r's shuffles come from its own counter-based stream (stats/counter_random.hpp,
// domain "tukeyhsd"): for query position q = 0..n-1 in turn, a Fisher–Yates shuffle of the
// systems 0..m-1 (for i = m-1 down to 1, j = below(i + 1), swap i and j), system s taking
// the value of system perm[s]. The outcome depends on (values, seed, resamples) only.
// Twin: python/evalcore/reference/comparisons/tukey.py; definition: docs/compare.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/progress.hpp"

namespace evalcore {

struct TukeyPlan {
    uint64_t seed = 0;
    uint64_t resamples = 0;
    unsigned threads = 1;
    Progress* progress = nullptr;
};

// values: systems × queries, row s system s's values (finite). Returns, per pair (i, j) with
// i < j in the order (0,1), (0,2), ..., (1,2), ..., its count. std::invalid_argument for
// fewer than two systems or one query, more than 2^32 − 1 systems, or a value not finite;
// ProgressCancelled when plan.progress is cancelled meanwhile.
std::vector<uint64_t> randomized_tukey_counts(const double* values, size_t systems, size_t queries,
                                              const TukeyPlan& plan);

}  // namespace evalcore
