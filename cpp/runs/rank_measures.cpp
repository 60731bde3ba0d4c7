#include "runs/rank_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace evalcore {

namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

// Not judged, as trec_eval's unj and rbp_resid read it: not in the qrels, or a negative grade.
bool unjudged(double grade) { return !(grade >= 0); }

// p ** i as ranx's numba-compiled `p ** np.arange(n)` computes it: by squaring, not libm's pow
// (the two differ in the last bits; ranx's values are the squaring's).
double power_by_squaring(double base, size_t exponent) {
    double result = 1.0;
    while (true) {
        if ((exponent & 1U) != 0) result *= base;
        exponent >>= 1U;
        if (exponent == 0) break;
        base *= base;
    }
    return result;
}

}  // namespace

double num_nonrel_judged_ret(const double* grades, size_t n, double threshold) {
    int64_t count = 0;
    for (size_t r = 0; r < n; ++r) count += (grades[r] >= 0 && grades[r] < threshold) ? 1 : 0;
    return static_cast<double>(count);
}

double rprec_mult(const int64_t* hits, size_t n, int64_t relevant, double multiple) {
    // trec_eval's (long) (x * num_rel + 0.9): a truncation; x >= 0, so toward zero is down.
    const double at = multiple * static_cast<double>(relevant) + 0.9;
    if (!(at >= 1)) return kUndefined;
    const auto cut = static_cast<int64_t>(at);
    const size_t depth = std::min(n, static_cast<size_t>(cut));
    return static_cast<double>(hits[depth]) / static_cast<double>(cut);
}

double unjudged_at(const double* grades, size_t n, int64_t k) {
    const size_t depth = std::min(n, static_cast<size_t>(k));
    int64_t count = 0;
    for (size_t r = 0; r < depth; ++r) count += unjudged(grades[r]) ? 1 : 0;
    return static_cast<double>(count) / static_cast<double>(k);
}

double rbp_residual(const double* grades, size_t n, double p) {
    double sum = 0.0, weight = 1.0;
    bool any = false;
    for (size_t r = 0; r < n; ++r) {
        if (unjudged(grades[r])) {
            any = true;
            sum += weight;
        }
        weight *= p;
    }
    return any ? weight + (1 - p) * sum : 0.0;
}

double yaap(double ap_sum, int64_t relevant) {
    if (relevant == 0) return kUndefined;
    return std::log((1.0 + ap_sum) / (1.0 + static_cast<double>(relevant) - ap_sum));
}

double inferred_ap(const double* grades, size_t n, double threshold, int64_t relevant) {
    if (relevant == 0) return kUndefined;
    constexpr double epsilon = .00001;  // trec_eval's INFAP_EPSILON
    int64_t nonrelevant = 0, relevant_so_far = 0, pool_unjudged = 0;
    double sum = 0.0;
    for (size_t j = 0; j < n; ++j) {
        const double grade = grades[j];
        if (std::isnan(grade)) continue;  // not in the pool
        if (grade < 0) {
            ++pool_unjudged;
            continue;
        }
        if (grade < threshold) {
            ++nonrelevant;
            continue;
        }
        ++relevant_so_far;
        if (j == 0) {
            sum += 1.0;
            continue;
        }
        const double fj = static_cast<double>(j);
        const int64_t above = relevant_so_far - 1;
        sum += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (static_cast<double>(above + nonrelevant + pool_unjudged) / fj) *
                                      ((static_cast<double>(above) + epsilon) / (static_cast<double>(above + nonrelevant) + 2 * epsilon));
    }
    return sum / static_cast<double>(relevant);
}

double accuracy(const double* grades, size_t n, double threshold) {
    int64_t relevant = 0, others = 0, others_above = 0;
    for (size_t r = 0; r < n; ++r) {
        if (grades[r] >= threshold) {  // false for NaN: unjudged
            ++relevant;
            others_above += others;
        } else {
            ++others;
        }
    }
    if (relevant == 0 || others == 0) return kUndefined;
    // ir_measures: 1. - sum(...) / (float(others) * relevant), each count exact as a double.
    return 1.0 - static_cast<double>(others_above) / (static_cast<double>(others) * static_cast<double>(relevant));
}

double ranx_f1(double found, size_t k, double relevant) {
    if (k == 0) return 0.0;  // ranx: an empty ranking without a cutoff
    const double p = found / static_cast<double>(k), rc = found / relevant;
    if (p + rc == 0) return 0.0;
    return 2 * ((p * rc) / (p + rc));  // ranx's operations, in its order
}

double ranx_rbp_sum(const double* terms, size_t n, double p) {
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) sum += terms[i] * power_by_squaring(p, i);
    return (1 - p) * sum;
}

}  // namespace evalcore
