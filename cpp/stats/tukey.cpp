#include "stats/tukey.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "common/parallel.hpp"
#include "stats/counter_random.hpp"
#include "stats/fixed_point.hpp"

namespace evalcore {
namespace {

template <int L>
bool less(const Fixed<L>& a, const Fixed<L>& b) {
    Fixed<L> difference = a;
    difference.subtract(b);  // within the layout's headroom: no overflow
    return difference.negative();
}

template <int L>
std::vector<uint64_t> counts(const double* values, size_t m, size_t n, int scale, const TukeyPlan& plan) {
    std::vector<Fixed<L>> terms(m * n);  // query-major: query q's m values together
    std::vector<Fixed<L>> totals(m);
    for (size_t s = 0; s < m; ++s) {
        for (size_t q = 0; q < n; ++q) {
            terms[q * m + s] = Fixed<L>::of(values[s * n + q], scale);
            totals[s].add(terms[q * m + s]);
        }
    }
    std::vector<Fixed<L>> observed;  // per pair, |S_i − S_j|
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = i + 1; j < m; ++j) {
            Fixed<L> d = totals[i];
            d.subtract(totals[j]);
            observed.push_back(d.magnitude());
        }
    }
    const unsigned threads = static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(plan.threads, plan.resamples)));
    std::vector<std::vector<uint64_t>> per_thread(threads, std::vector<uint64_t>(observed.size(), 0));
    on_threads(threads, [&](unsigned t) {
        // A fixed split of the resamples: what each thread counts is decided before it starts.
        const uint64_t base = plan.resamples / threads, extra = plan.resamples % threads;
        const uint64_t first = base * t + std::min<uint64_t>(t, extra), last = first + base + (t < extra ? 1 : 0);
        std::vector<uint32_t> perm(m);
        std::vector<Fixed<L>> sums(m);
        for (uint64_t r = first; r < last; ++r) {
            if ((r - first) % 64 == 0) advance(plan.progress, std::min<uint64_t>(64, last - r));
            IndexDraws stream(resample_key(plan.seed, tukey_domain, r), 1);
            std::fill(sums.begin(), sums.end(), Fixed<L>{});
            for (size_t q = 0; q < n; ++q) {
                std::iota(perm.begin(), perm.end(), 0u);
                for (size_t i = m - 1; i >= 1; --i) std::swap(perm[i], perm[stream.below(static_cast<uint32_t>(i + 1))]);
                const Fixed<L>* row = &terms[q * m];
                for (size_t s = 0; s < m; ++s) sums[s].add(row[perm[s]]);
            }
            Fixed<L> low = sums[0], high = sums[0];
            for (size_t s = 1; s < m; ++s) {
                if (less(sums[s], low)) low = sums[s];
                if (less(high, sums[s])) high = sums[s];
            }
            high.subtract(low);
            for (size_t k = 0; k < observed.size(); ++k) {
                if (magnitude_at_least(high, observed[k])) ++per_thread[t][k];
            }
        }
    });
    std::vector<uint64_t> total(observed.size(), 0);
    for (const auto& c : per_thread) {
        for (size_t k = 0; k < total.size(); ++k) total[k] += c[k];
    }
    return total;
}

}  // namespace

std::vector<uint64_t> randomized_tukey_counts(const double* values, size_t systems, size_t queries,
                                              const TukeyPlan& plan) {
    if (systems < 2 || queries < 1) throw std::invalid_argument("the randomized Tukey HSD needs two systems and a query");
    if (systems > 0xFFFFFFFFu) throw std::invalid_argument("the randomized Tukey HSD takes fewer than 2^32 systems");
    const FixedLayout layout = fixed_layout(values, systems * queries);
    const int bits = fixed_bits_needed(layout, queries);
    if (bits <= 2 * 64) return counts<2>(values, systems, queries, layout.scale, plan);
    if (bits <= 34 * 64) return counts<34>(values, systems, queries, layout.scale, plan);
    throw std::invalid_argument("values too far apart for the fixed-point sums");  // not reached for doubles
}

}  // namespace evalcore
