// Exact-match chunk counts and seqeval's report numbers. Every float is computed as
// seqeval/metrics/v1.py computes it with numpy: per-type ratios of int64 counts (0.0 where
// the denominator is 0: zero_division="warn"), F1 as (2 * p) * r / (p + r or 1), the macro
// average as numpy's mean (pairwise sum / n), the weighted one as np.average with weights
// (pairwise sum of p * w over the pairwise sum of w), micro as ratios of the summed counts.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tags/tags.hpp"

namespace evalcore {
namespace tags {

double pairwise_sum(const double* a, size_t n) {
    // numpy's pairwise_sum (loops_utils.h): the block size is 128, the unroll 8.
    if (n < 8) {
        double total = 0.0;
        for (size_t i = 0; i < n; ++i) total += a[i];
        return total;
    }
    if (n <= 128) {
        double r[8];
        for (size_t j = 0; j < 8; ++j) r[j] = a[j];
        size_t i = 8;
        for (; i < n - (n % 8); i += 8) {
            for (size_t j = 0; j < 8; ++j) r[j] += a[i + j];
        }
        double total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) total += a[i];
        return total;
    }
    size_t half = n / 2;
    half -= half % 8;
    return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
}

void ChunkTally::add(const std::vector<Chunk>& truth, const std::vector<Chunk>& predicted_chunks,
                     const ParsedTags& parsed) {
    const size_t types = parsed.type_names.size();
    matched.resize(types, 0);
    predicted.resize(types, 0);
    supports.resize(types, 0);
    for (const Chunk& c : truth) ++supports.at(static_cast<size_t>(c.type));
    for (const Chunk& c : predicted_chunks) ++predicted.at(static_cast<size_t>(c.type));
    // Both lists are in increasing order of their (distinct) ends: one merge pairs them.
    size_t a = 0, b = 0;
    while (a < truth.size() && b < predicted_chunks.size()) {
        const Chunk &t = truth[a], &p = predicted_chunks[b];
        if (t.end < p.end) {
            ++a;
        } else if (p.end < t.end) {
            ++b;
        } else {
            if (t.start == p.start && t.type == p.type) ++matched[static_cast<size_t>(t.type)];
            ++a;
            ++b;
        }
    }
}

TypeCounts ChunkTally::sorted(const ParsedTags& parsed) const {
    TypeCounts out;
    for (size_t t = 0; t < supports.size(); ++t) {
        if (supports[t] + predicted[t] > 0) out.types.push_back(static_cast<int32_t>(t));
    }
    std::sort(out.types.begin(), out.types.end(), [&](int32_t x, int32_t y) {
        return parsed.type_names[static_cast<size_t>(x)] < parsed.type_names[static_cast<size_t>(y)];
    });
    for (const int32_t t : out.types) {
        out.matched.push_back(matched[static_cast<size_t>(t)]);
        out.predicted.push_back(predicted[static_cast<size_t>(t)]);
        out.supports.push_back(supports[static_cast<size_t>(t)]);
    }
    return out;
}

TypeCounts count_chunks(const std::vector<Chunk>& truth, const std::vector<Chunk>& predicted,
                        const ParsedTags& parsed) {
    ChunkTally tally;
    tally.add(truth, predicted, parsed);
    return tally.sorted(parsed);
}

namespace {

double divide(int64_t numerator, int64_t denominator) {
    return denominator == 0 ? 0.0 : static_cast<double>(numerator) / static_cast<double>(denominator);
}

double f1_of(double p, double r) {
    const double denominator = p + r;
    return 2.0 * p * r / (denominator != 0.0 ? denominator : 1.0);
}

double mean(const std::vector<double>& values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();  // numpy's mean of nothing
    return (0.0 + pairwise_sum(values.data(), values.size())) / static_cast<double>(values.size());
}

}  // namespace

TagReport seqeval_report(const TypeCounts& counts) {
    const size_t n = counts.types.size();
    std::vector<double> precision(n), recall(n), f1(n), weights(n), products(n);
    TagReport report;
    report.rows.resize(n);
    int64_t matched = 0, predicted = 0, support = 0;
    for (size_t k = 0; k < n; ++k) {
        precision[k] = divide(counts.matched[k], counts.predicted[k]);
        recall[k] = divide(counts.matched[k], counts.supports[k]);
        f1[k] = f1_of(precision[k], recall[k]);
        report.rows[k] = ScoreRow{precision[k], recall[k], f1[k], counts.supports[k]};
        matched += counts.matched[k];
        predicted += counts.predicted[k];
        support += counts.supports[k];
        weights[k] = static_cast<double>(counts.supports[k]);
    }
    const double micro_p = divide(matched, predicted), micro_r = divide(matched, support);
    report.micro = ScoreRow{micro_p, micro_r, f1_of(micro_p, micro_r), support};
    report.macro = ScoreRow{mean(precision), mean(recall), mean(f1), support};
    if (support == 0) {
        report.weighted = ScoreRow{0.0, 0.0, 0.0, 0};  // seqeval's early return
    } else {
        const double scale = pairwise_sum(weights.data(), n);
        const auto weighted = [&](const std::vector<double>& values) {
            for (size_t k = 0; k < n; ++k) products[k] = values[k] * weights[k];
            return (0.0 + pairwise_sum(products.data(), n)) / scale;
        };
        report.weighted = ScoreRow{weighted(precision), weighted(recall), weighted(f1), support};
    }
    return report;
}

}  // namespace tags
}  // namespace evalcore
