// ties="average" for trec_eval's measures beyond the common ones (issue 25 item 3, second
// round): the group means that the measures linear in the values at fixed ranks take (dcg,
// ndcg with gains, Rndcg, rbp: gain_measures.cpp), bpref and rbp_resid; and (h25-ties3)
// ir_measures' Accuracy. docs/measures.md ("Ties") derives each; the twin is
// python/evalcore/reference/runs/tie_average.py. Each reduces to the plain measure's
// operations, bit for bit, when every group has one document.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "runs/tie_average.hpp"

namespace evalcore {

void replace_by_group_means(const size_t* bounds, size_t groups, double* values) {
    for (size_t g = 0; g < groups; ++g) {
        const size_t start = bounds[g], end = bounds[g + 1];
        double sum = 0.0;
        for (size_t r = start; r < end; ++r) sum += values[r];
        const double mean = sum / static_cast<double>(end - start);
        for (size_t r = start; r < end; ++r) values[r] = mean;
    }
}

double expected_bpref(const TiedRanking& t, double threshold, int64_t relevant, int64_t judged_nonrelevant) {
    const double denominator = static_cast<double>(std::min(judged_nonrelevant, relevant));
    int64_t nonrelevant_above = 0;  // judged non-relevant documents in the groups above
    double sum = 0.0;
    for (size_t g = 0; g < t.groups; ++g) {
        int64_t c = 0, q = 0;
        for (size_t r = t.bounds[g]; r < t.bounds[g + 1]; ++r) {
            const double grade = t.grades[r];
            if (std::isnan(grade) || grade < 0) continue;  // skipped, as bpref skips them
            if (grade < threshold) {
                ++q;
            } else {
                ++c;
            }
        }
        if (c > 0) {
            // The mean over x = 0..q of a relevant document's term with nonrelevant_above + x
            // judged non-relevant documents above it (measures.cpp's bpref term).
            double inner = 0.0;
            for (int64_t x = 0; x <= q; ++x) {
                const int64_t above = nonrelevant_above + x;
                inner += above > 0 ? 1.0 - static_cast<double>(std::min(above, relevant)) / denominator : 1.0;
            }
            sum += static_cast<double>(c) * inner / static_cast<double>(q + 1);
        }
        nonrelevant_above += q;
    }
    return sum / static_cast<double>(relevant);
}

double expected_rbp_residual(const TiedRanking& t, double p, TieScratch& scratch) {
    std::vector<double>& shares = scratch.shares;
    shares.resize(t.n);
    for (size_t r = 0; r < t.n; ++r) shares[r] = !(t.grades[r] >= 0) ? 1.0 : 0.0;
    replace_by_group_means(t.bounds, t.groups, shares.data());
    double sum = 0.0, weight = 1.0;
    bool any = false;
    for (size_t r = 0; r < t.n; ++r) {
        if (shares[r] != 0) {
            any = true;
            sum += shares[r] * weight;
        }
        weight *= p;
    }
    return any ? weight + (1 - p) * sum : 0.0;
}

namespace {

// The value of ir_measures' Accuracy with `num` = 2 S (twice the expected others above each
// relevant document, summed: an integer), `others` and `relevant` documents read; NaN when either
// is 0. num / 2 is exact, so without ties this is accuracy()'s 1 - S / (M A), bit for bit.
double accuracy_term(int64_t num, int64_t others, int64_t relevant) {
    if (relevant == 0 || others == 0) return std::numeric_limits<double>::quiet_NaN();
    const double s = static_cast<double>(num) / 2.0;
    return 1.0 - s / (static_cast<double>(others) * static_cast<double>(relevant));
}

}  // namespace

double expected_accuracy(const TiedRanking& t, size_t depth, double threshold, TieScratch& scratch) {
    int64_t relevant = 0, others = 0, twice_s = 0;  // A0, M0, 2 E[S] of the whole groups above
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (start >= depth) break;
        int64_t c = 0;
        for (size_t r = start; r < end; ++r) c += t.grades[r] >= threshold ? 1 : 0;  // false for NaN: unjudged
        const int64_t m = static_cast<int64_t>(end - start), q = m - c;
        if (end <= depth) {
            twice_s += 2 * c * others + c * q;  // each relevant one below every other above; c q / 2 within
            relevant += c;
            others += q;
            continue;
        }
        // The cutoff cuts this group: x of its c relevant documents among its first j ranks, with
        // the hypergeometric weights w(x + 1) / w(x) = (c - x)(j - x) / ((x + 1)(m - c - j + x + 1)),
        // w = 1 at the mode and walked outward (no overflow; far tails underflow to 0), summed in
        // the order of x, then divided by their sum.
        const int64_t j = static_cast<int64_t>(depth - start);
        const int64_t low = std::max<int64_t>(0, j - q), high = std::min(j, c);
        if (relevant + low == 0 || others + j - high == 0) return std::numeric_limits<double>::quiet_NaN();
        const int64_t mode = std::min(high, std::max(low, (j + 1) * (c + 1) / (m + 2)));
        std::vector<double>& weights = scratch.values;
        weights.assign(static_cast<size_t>(high - low + 1), 0.0);
        weights[static_cast<size_t>(mode - low)] = 1.0;
        for (int64_t x = mode; x < high; ++x) {
            weights[static_cast<size_t>(x + 1 - low)] = weights[static_cast<size_t>(x - low)] *
                static_cast<double>((c - x) * (j - x)) / static_cast<double>((x + 1) * (q - j + x + 1));
        }
        for (int64_t x = mode; x > low; --x) {
            weights[static_cast<size_t>(x - 1 - low)] = weights[static_cast<size_t>(x - low)] *
                static_cast<double>(x * (q - j + x)) / static_cast<double>((c - x + 1) * (j - x + 1));
        }
        double total = 0.0, sum = 0.0;
        for (int64_t x = low; x <= high; ++x) {
            const double w = weights[static_cast<size_t>(x - low)];
            total += w;
            sum += w * accuracy_term(twice_s + 2 * x * others + x * (j - x), others + j - x, relevant + x);
        }
        return sum / total;
    }
    return accuracy_term(twice_s, others, relevant);
}

}  // namespace evalcore
