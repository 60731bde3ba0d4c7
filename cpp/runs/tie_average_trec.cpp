// ties="average" for trec_eval's measures beyond the common ones (issue 25 item 3, second
// round): the group means that the measures linear in the values at fixed ranks take (dcg,
// ndcg with gains, Rndcg, rbp: gain_measures.cpp), bpref and rbp_resid. docs/measures.md
// ("Ties") derives each; the twin is python/evalcore/reference/runs/tie_average.py. Each
// reduces to the plain measure's operations, bit for bit, when every group has one document.
#include <algorithm>
#include <cmath>
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

}  // namespace evalcore
