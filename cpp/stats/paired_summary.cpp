#include "stats/paired_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "common/exact_sum.hpp"

namespace evalcore {

Moments moments(const double* values, size_t n) {
    Moments out;
    if (n == 0) {
        out.mean = out.ss = std::numeric_limits<double>::quiet_NaN();
        return out;
    }
    ExactSum sum;
    for (size_t i = 0; i < n; ++i) sum.add(values[i]);
    out.mean = sum.rounded() / static_cast<double>(n);
    ExactSum squares;
    bool overflow = false;  // ExactSum skips infinities; a square past the largest double makes ss inf
    for (size_t i = 0; i < n; ++i) {
        const double deviation = values[i] - out.mean;
        const double square = deviation * deviation;
        if (!std::isfinite(square)) overflow = true;
        squares.add(square);
    }
    out.ss = overflow ? std::numeric_limits<double>::infinity() : squares.rounded();
    // Values that are all equal have no spread: the rounded mean can miss them by an ulp,
    // and the squares of that miss would stand for a variance that is not there.
    if (std::all_of(values, values + n, [&](double v) { return v == values[0]; })) out.ss = 0.0;
    return out;
}

SignedRanks signed_ranks(const double* differences, size_t n, bool keep_ranks) {
    SignedRanks out;
    if (n >= (size_t{1} << 31)) throw std::overflow_error("signed ranks: too many differences");
    std::vector<uint32_t> order;
    order.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        if (differences[i] == 0.0) {
            ++out.zeros;
        } else {
            order.push_back(static_cast<uint32_t>(i));
        }
    }
    std::sort(order.begin(), order.end(),
              [differences](uint32_t a, uint32_t b) { return std::fabs(differences[a]) < std::fabs(differences[b]); });
    if (keep_ranks) out.ranks2.assign(order.size(), 0);
    std::vector<int64_t> rank_of(keep_ranks ? n : 0, 0);
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        const double magnitude = std::fabs(differences[order[i]]);
        while (j + 1 < order.size() && std::fabs(differences[order[j + 1]]) == magnitude) ++j;
        const int64_t rank2 = static_cast<int64_t>(i + 1) + static_cast<int64_t>(j + 1);  // (first + last rank)
        for (size_t k = i; k <= j; ++k) {
            if (differences[order[k]] > 0) out.r_plus2 += rank2;
            if (keep_ranks) rank_of[order[k]] = rank2;
        }
        const uint64_t t = j - i + 1;
        if (t > 1) {
            out.has_ties = true;
            uint64_t cube = 0, total = 0;
            if (__builtin_mul_overflow(t * t, t, &cube) || t > (uint64_t{1} << 32) ||
                __builtin_add_overflow(out.tie_term, cube - t, &total)) {
                throw std::overflow_error("signed ranks: the tie correction does not fit 64 bits");
            }
            out.tie_term = total;
        }
        i = j + 1;
    }
    if (keep_ranks) {  // in the order of the differences, as the reference lists them
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            if (differences[i] != 0.0) out.ranks2[k++] = rank_of[i];
        }
    }
    return out;
}

}  // namespace evalcore
