// ties="average" (tie_average.hpp): each function walks the tied groups in rank order. Within a
// group of m documents, c of them counted, every order is equally likely, so the document at
// the group's i-th position is any of the m with probability 1 / m, and the first x positions
// hold a uniformly random x-subset of the group. docs/measures.md ("Ties") derives each formula.
#include "runs/tie_average.hpp"

#include <algorithm>
#include <cmath>

namespace evalcore {

namespace {

bool is_counted(double grade, Counted counted, double threshold) {
    if (counted == Counted::unjudged) return !(grade >= 0);  // NaN or a negative grade
    return counted == Counted::judged ? !std::isnan(grade) : grade >= threshold;  // NaN: never relevant
}

int64_t group_count(const TiedRanking& t, size_t start, size_t end, Counted counted, double threshold) {
    int64_t c = 0;
    for (size_t r = start; r < end; ++r) c += is_counted(t.grades[r], counted, threshold) ? 1 : 0;
    return c;
}

// gdeval's probability that a document of this grade satisfies (measures.cpp's err).
double satisfaction(double grade) {
    if (!(grade > 0)) return 0.0;
    return (std::pow(2.0, std::min(grade, 4.0)) - 1.0) / 16.0;
}

}  // namespace

double expected_count(const TiedRanking& t, size_t depth, Counted counted, double threshold) {
    int64_t before = 0;
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (start >= depth) break;
        const int64_t c = group_count(t, start, end, counted, threshold);
        if (end <= depth) {
            before += c;
            continue;
        }
        // The cutoff falls inside: j of the m ranks above it hold j c / m counted ones on average.
        const size_t j = depth - start, m = end - start;
        return static_cast<double>(before) + static_cast<double>(j) * static_cast<double>(c) / static_cast<double>(m);
    }
    return static_cast<double>(before);
}

double expected_success(const TiedRanking& t, size_t depth, double threshold) {
    int64_t before = 0;
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (before > 0) return 1.0;
        if (start >= depth) break;
        const int64_t c = group_count(t, start, end, Counted::relevant, threshold);
        if (end <= depth) {
            before += c;
            continue;
        }
        if (c == 0) return 0.0;
        // P(the j positions above the cutoff hold none of the c): prod (m - c - i) / (m - i).
        const int64_t j = static_cast<int64_t>(depth - start), m = static_cast<int64_t>(end - start);
        double none = 1.0;
        for (int64_t i = 0; i < j; ++i) {
            if (m - c - i <= 0) {
                none = 0.0;
                break;
            }
            none *= static_cast<double>(m - c - i) / static_cast<double>(m - i);
        }
        return 1.0 - none;
    }
    return before > 0 ? 1.0 : 0.0;
}

double expected_reciprocal_rank(const TiedRanking& t, size_t depth, double threshold) {
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (start >= depth) break;
        const int64_t c = group_count(t, start, end, Counted::relevant, threshold);
        if (c == 0) continue;
        // The first group with a relevant document holds the first one: at its x-th position
        // with probability (the first x - 1 are not relevant) * c / (m - x + 1).
        const int64_t m = static_cast<int64_t>(end - start), j = static_cast<int64_t>(std::min(end, depth) - start);
        double value = 0.0, none = 1.0;
        for (int64_t x = 1; x <= j; ++x) {
            const double probability = none * static_cast<double>(c) / static_cast<double>(m - x + 1);
            value += probability / static_cast<double>(static_cast<int64_t>(start) + x);
            if (m - c - x + 1 <= 0) break;  // the first relevant one has come by now
            none *= static_cast<double>(m - c - x + 1) / static_cast<double>(m - x + 1);
        }
        return value;
    }
    return 0.0;
}

double expected_ap_sum(const TiedRanking& t, size_t depth, double threshold) {
    int64_t before = 0;
    double sum = 0.0;
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (start >= depth) break;
        const int64_t c = group_count(t, start, end, Counted::relevant, threshold);
        const int64_t m = static_cast<int64_t>(end - start), j = static_cast<int64_t>(std::min(end, depth) - start);
        if (c > 0) {
            // E[rel(i) hits(i)] = P(rel at i) (before + 1 + E[relevant among the i - 1 others above
            // it | rel at i]) = c / m (before + 1 + (i - 1)(c - 1) / (m - 1)): not the AP of the
            // averaged gains, whose hits would count the document itself c / m times.
            const double share = static_cast<double>(c) / static_cast<double>(m);
            for (int64_t i = 1; i <= j; ++i) {
                double inner = static_cast<double>(before + 1);
                if (m > 1) inner += static_cast<double>((i - 1) * (c - 1)) / static_cast<double>(m - 1);
                sum += share * inner / static_cast<double>(static_cast<int64_t>(start) + i);
            }
        }
        before += c;
    }
    return sum;
}

double expected_dcg(const TiedRanking& t, size_t depth, const double* gains, const double* discounts) {
    double dcg = 0.0;
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (start >= depth) break;
        double group_sum = 0.0;
        for (size_t r = start; r < end; ++r) group_sum += gains[r];
        const double mean = group_sum / static_cast<double>(end - start);
        for (size_t r = start; r < std::min(end, depth); ++r) dcg += discounts != nullptr ? mean / discounts[r] : mean;
    }
    return dcg;
}

// ERR = sum over r of p(r) / r * prod over r' < r of (1 - p(r')). The product over whole groups
// above a group is the same in every order; within a group, the i-th position contributes
// E[p(doc at i) prod over the i - 1 before it of (1 - p)] = (1 / m) sum over documents d of
// p(d) A(i - 1, others of d), A(k, S) the mean over k-subsets of S of the product of (1 - p):
// an exact dynamic program over the group, per distinct p (a document's others depend on its
// p alone), as deep as the cutoff.
double expected_err(const TiedRanking& t, size_t depth, TieScratch& scratch) {
    double value = 0.0, reach = 1.0;
    for (size_t g = 0; g < t.groups; ++g) {
        const size_t start = t.bounds[g], end = t.bounds[g + 1];
        if (start >= depth) break;
        const size_t m = end - start, j = std::min(end, depth) - start;
        if (m == 1) {  // as measures.cpp's err
            const double p = satisfaction(t.grades[start]);
            if (p > 0) {
                value += reach * p / static_cast<double>(start + 1);
                reach *= 1.0 - p;
            }
            continue;
        }
        scratch.values.clear();
        scratch.counts.clear();
        for (size_t r = start; r < end; ++r) {
            const double p = satisfaction(t.grades[r]);
            if (!(p > 0)) continue;
            const auto at = std::find(scratch.values.begin(), scratch.values.end(), p);
            if (at == scratch.values.end()) {
                scratch.values.push_back(p);
                scratch.counts.push_back(1);
            } else {
                ++scratch.counts[static_cast<size_t>(at - scratch.values.begin())];
            }
        }
        if (scratch.values.empty()) continue;  // nothing satisfies: no value, reach unchanged
        scratch.weighted.assign(j, 0.0);
        for (size_t u = 0; u < scratch.values.size(); ++u) {
            // A(k, group without one document of this p) for k < j: adding the t-th document,
            // of 1 - p = a, A'(k) = (t - k) / t A(k) + k / t a A(k - 1) (means, so no binomials).
            std::vector<double>& averages = scratch.averages;
            averages.assign(j, 0.0);
            averages[0] = 1.0;
            bool skipped = false;
            size_t seen = 0;
            for (size_t r = start; r < end; ++r) {
                const double p = satisfaction(t.grades[r]);
                if (!skipped && p == scratch.values[u]) {
                    skipped = true;
                    continue;
                }
                ++seen;
                const double a = 1.0 - p;
                for (size_t k = std::min(seen, j - 1); k >= 1; --k) {
                    averages[k] = static_cast<double>(seen - k) / static_cast<double>(seen) * averages[k] +
                                  static_cast<double>(k) / static_cast<double>(seen) * a * averages[k - 1];
                }
            }
            for (size_t i = 0; i < j; ++i) {
                scratch.weighted[i] += static_cast<double>(scratch.counts[u]) * scratch.values[u] * averages[i];
            }
        }
        for (size_t i = 0; i < j; ++i) {
            value += reach * (scratch.weighted[i] / static_cast<double>(m)) / static_cast<double>(start + i + 1);
        }
        for (size_t r = start; r < end; ++r) {
            const double p = satisfaction(t.grades[r]);
            if (p > 0) reach *= 1.0 - p;
        }
    }
    return value;
}

}  // namespace evalcore
