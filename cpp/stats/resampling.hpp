// The resampling loops of evalcore.compare: Fisher's paired randomization (sign-flip) test,
// the paired bootstrap test and the percentile bootstrap of means, over one group of
// series (the runs' values of one measure, or several measures, on one set of queries).
//
// A pair's paired differences are run − baseline, exactly (fixed point, stats/
// fixed_point.hpp), so a pair's statistics follow from its two series' sums: with F_r(x)
// the sum of x over the positions resample r flips, the flipped sum of differences is
// S − 2·(F_r(run) − F_r(baseline)), and the bootstrap's resampled sum is T_r(run) −
// T_r(baseline). One pass over each series serves every pair it is in.
//
// Every resample's signs or indices come from its own counter-based stream
// (stats/counter_random.hpp), keyed by (seed, resample) and the position in the group's
// query order, not by the pair or the group: the outcome is the same whatever the threads,
// and a pair's p-value does not depend on the other pairs or measures of the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/progress.hpp"

namespace evalcore {

struct SeriesGroup {
    size_t queries = 0;                                // n: positions 0..n-1, in the group's query order
    size_t series = 0;                                 // rows of `values`
    const double* values = nullptr;                    // series × queries, one series per row; finite
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (run row, baseline row)
};

struct ResamplingPlan {
    uint64_t seed = 0;
    uint64_t resamples = 0;
    unsigned threads = 1;
    bool sign_flip = false;
    bool bootstrap = false;
    // Advanced by the resamples done, a block at a time, on every thread; once cancelled
    // (the caller's Ctrl-C), each thread throws ProgressCancelled at its next block.
    Progress* progress = nullptr;
};

struct GroupOutcome {
    std::vector<double> means;   // per series: its exact sum rounded once, / n
    std::vector<double> deltas;  // per pair: the exact sum of run − baseline rounded once, / n
    // Per pair: resamples r with |S − 2(F_r(run) − F_r(baseline))| >= |S| (the observed sum
    // S = Σ run − baseline), compared exactly.
    std::vector<uint64_t> sign_flip_counts;
    // Per pair: resamples with |(T_r(run) − T_r(baseline)) − S| >= |S|: the resampled mean
    // difference, centred on the observed one, at least as far from 0 as the observed.
    std::vector<uint64_t> bootstrap_counts;
    std::vector<double> bootstrap_means;   // series × resamples: T_r rounded once, / n (unsorted)
    std::vector<double> bootstrap_deltas;  // pairs × resamples: T_r(run) − T_r(baseline) rounded once, / n
};

// std::invalid_argument for a value that is not finite, a pair row out of range, or a
// bootstrap over 2^32 queries or more (the index draws are 32-bit); ProgressCancelled when
// plan.progress is cancelled meanwhile.
GroupOutcome resample_group(const SeriesGroup& group, const ResamplingPlan& plan);

}  // namespace evalcore
