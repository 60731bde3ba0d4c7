#include "runs/measures.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>

namespace evalcore {

QueryScorer::QueryScorer(const std::vector<Measure>& measures, const RunOptions& options)
    : measures_(measures), options_(options) {
    for (const Measure& m : measures_) {
        if (m.cutoff == 0) {
            deepest_ = -1;
        } else if (deepest_ >= 0) {
            deepest_ = std::max(deepest_, m.cutoff);
        }
    }
    if (deepest_ < 0) deepest_ = 0;  // 0: every rank
    for (const Measure& m : measures_) {
        if (m.kind != MeasureKind::ndcg) continue;
        needs_ideal_ = true;
        if (m.cutoff == 0) {
            ideal_depth_ = -1;
        } else if (ideal_depth_ >= 0) {
            ideal_depth_ = std::max(ideal_depth_, m.cutoff);
        }
    }
}

// TREC marks some documents with negative grades (spam); like trec_eval, they add no gain.
double QueryScorer::gain(double grade) const {
    if (!(grade > 0)) return 0.0;
    return options_.exponential ? std::pow(2.0, grade) - 1.0 : grade;
}

// order_[0..n) = the first n ranks' documents. By score: score descending, then doc ID
// descending - a total order, as a query lists each document once, so any sorting
// algorithm gives the same ranks. Runs usually arrive in rank order already, so an
// insertion sort with a budget goes first; past the budget, a (partial) sort does it.
void QueryScorer::rank_order(const QueryData& q, size_t n) {
    const size_t count = q.doc_count;
    order_.resize(count);
    for (size_t i = 0; i < count; ++i) order_[i] = static_cast<uint32_t>(i);
    if (!options_.ties_by_score || q.scores == nullptr || count < 2) return;
    const double* scores = q.scores;
    const std::string_view* docs = q.docs;
    const auto before = [scores, docs](uint32_t a, uint32_t b) {
        if (scores[a] != scores[b]) return scores[a] > scores[b];
        return docs[a] > docs[b];
    };
    size_t budget = 4 * count;
    size_t i = 1;
    for (; i < count && budget > 0; ++i) {
        const uint32_t item = order_[i];
        size_t j = i;
        for (; j > 0 && budget > 0 && before(item, order_[j - 1]); --j, --budget) order_[j] = order_[j - 1];
        order_[j] = item;
        if (budget == 0) break;
    }
    if (i >= count) return;
    // Out of budget (far from rank order): sort what is needed. The insertion may have
    // stopped halfway, which leaves a permutation; sorting any permutation gives the order.
    if (n < count) {
        std::partial_sort(order_.begin(), order_.begin() + static_cast<ptrdiff_t>(n), order_.end(), before);
    } else {
        std::sort(order_.begin(), order_.end(), before);
    }
}

// Puts the `depth` largest grades first, in descending order (equal grades give equal
// gains, so the order among them does not matter): a selection, then a sort of the head.
void QueryScorer::sort_ideal_gains(size_t depth) {
    std::vector<double>& g = ideal_gains_;
    const auto head = g.begin() + static_cast<ptrdiff_t>(depth);
    if (depth < g.size()) std::nth_element(g.begin(), head, g.end(), std::greater<double>());
    std::sort(g.begin(), head, std::greater<double>());
}

double QueryScorer::discount(size_t rank) {
    while (discounts_.size() < rank) discounts_.push_back(std::log2(static_cast<double>(discounts_.size() + 2)));
    return discounts_[rank - 1];
}

void QueryScorer::score(const QueryData& q, double* values) {
    // Judgments by document; R counts the relevant ones.
    const bool hashed = q.judged_hashes != nullptr && q.doc_hashes != nullptr;
    judged_.reset(q.judged_count);
    int64_t relevant_count = 0;
    for (size_t j = 0; j < q.judged_count; ++j) {
        const std::string_view doc = q.judged_docs[j];
        judged_.insert(doc, hashed ? q.judged_hashes[j] : IdTable::hash(doc), static_cast<uint32_t>(j));
        if (q.grades[j] >= options_.relevant_at_least) ++relevant_count;
    }

    // Only the ranks up to the deepest cutoff matter (all of them for a measure without one).
    const size_t n = std::min(q.doc_count, deepest_ == 0 ? q.doc_count : static_cast<size_t>(deepest_));
    rank_order(q, n);

    // Prefix sums over ranks, each summed left to right in rank order (SPEC §1.6), so the
    // value at any cutoff is the sum the single-cutoff definition writes.
    hits_.assign(n + 1, 0);
    ap_sum_.assign(n + 1, 0.0);
    dcg_.assign(n + 1, 0.0);
    size_t first_relevant = 0;
    for (size_t r = 1; r <= n; ++r) {
        const uint32_t at = order_[r - 1];
        const uint32_t* j = judged_.find(q.docs[at], hashed ? q.doc_hashes[at] : IdTable::hash(q.docs[at]));
        int64_t hits = hits_[r - 1];
        double ap_sum = ap_sum_[r - 1], dcg = dcg_[r - 1];
        if (j != nullptr) {
            const double grade = q.grades[*j];
            if (grade >= options_.relevant_at_least) {
                ++hits;
                ap_sum += static_cast<double>(hits) / static_cast<double>(r);
                if (first_relevant == 0) first_relevant = r;
            }
            dcg += gain(grade) / discount(r);  // an unjudged document adds nothing
        }
        hits_[r] = hits;
        ap_sum_[r] = ap_sum;
        dcg_[r] = dcg;
    }

    // Ideal DCG: all judgment grades sorted descending, prefix-summed as deep as needed
    // (only that many of the largest grades need to be in order).
    if (needs_ideal_) {
        ideal_gains_.assign(q.grades, q.grades + q.judged_count);
        const size_t depth = ideal_depth_ < 0 ? ideal_gains_.size()
                                              : std::min<size_t>(ideal_gains_.size(), static_cast<size_t>(ideal_depth_));
        sort_ideal_gains(depth);
        ideal_dcg_.assign(depth + 1, 0.0);
        for (size_t i = 1; i <= depth; ++i) ideal_dcg_[i] = ideal_dcg_[i - 1] + gain(ideal_gains_[i - 1]) / discount(i);
    }

    const double undefined = std::numeric_limits<double>::quiet_NaN();
    const bool has_relevant = relevant_count > 0;
    for (size_t m = 0; m < measures_.size(); ++m) {
        const Measure& measure = measures_[m];
        const size_t depth = measure.cutoff == 0 ? n : std::min<size_t>(n, static_cast<size_t>(measure.cutoff));
        double value = undefined;
        switch (measure.kind) {
            case MeasureKind::precision:  // k is the denominator even when fewer were retrieved
                value = static_cast<double>(hits_[depth]) / static_cast<double>(measure.cutoff);
                break;
            case MeasureKind::recall:
                if (has_relevant) value = static_cast<double>(hits_[depth]) / static_cast<double>(relevant_count);
                break;
            case MeasureKind::reciprocal_rank:
                if (has_relevant) {
                    value = first_relevant != 0 && first_relevant <= depth ? 1.0 / static_cast<double>(first_relevant) : 0.0;
                }
                break;
            case MeasureKind::average_precision:
                if (has_relevant) value = ap_sum_[depth] / static_cast<double>(relevant_count);
                break;
            case MeasureKind::ndcg: {
                const size_t ideal_depth = measure.cutoff == 0 ? ideal_dcg_.size() - 1
                                                               : std::min(ideal_dcg_.size() - 1, static_cast<size_t>(measure.cutoff));
                const double ideal = ideal_dcg_[ideal_depth];
                if (ideal != 0) value = dcg_[depth] / ideal;
                break;
            }
        }
        values[m] = value;
    }
}

}  // namespace evalcore
