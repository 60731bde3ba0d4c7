// Issue 25 item 3, the tie rules of QueryScorer beyond trec_eval's: the grade orders
// (ties="optimistic" / "pessimistic", the bounds of every order of a tied group for a measure
// monotone in relevance) and ties="average" (McSherry and Najork: the exact expectation over
// every order of each tied group, runs/tie_average.hpp). docs/measures.md ("Ties") says which
// measures take which; the Python layer refuses ties="average" for the others.
#include <algorithm>
#include <cmath>
#include <limits>

#include "runs/cwl_measures.hpp"
#include "runs/measures.hpp"
#include "runs/rank_measures.hpp"
#include "runs/tie_average.hpp"

namespace evalcore {

// Score descending, then grade (unjudged below every grade) descending for "optimistic" or
// ascending for "pessimistic", then doc ID descending: a total order (IDs are unique).
void QueryScorer::rank_order_by_grade(const QueryData& q) {
    const size_t count = q.doc_count;
    const double unjudged = -std::numeric_limits<double>::infinity();
    keys_.resize(count);
    input_grades_.resize(count);
    for (size_t i = 0; i < count; ++i) {
        const uint32_t at = static_cast<uint32_t>(i);
        keys_[i] = RankKey{descending_score_key(q.scores[i]), at};
        const uint32_t* j = find_judged(q, at);
        input_grades_[i] = j == nullptr || std::isnan(q.grades[*j]) ? unjudged : q.grades[*j];
    }
    const bool optimistic = options_.tie_rule == TieRule::optimistic;
    const std::string_view* docs = q.docs;
    const double* grades = input_grades_.data();
    std::sort(keys_.begin(), keys_.end(), [docs, grades, optimistic](const RankKey& a, const RankKey& b) {
        if (a.key != b.key) return a.key < b.key;
        const double ga = grades[a.at], gb = grades[b.at];
        if (ga != gb) return optimistic ? ga > gb : ga < gb;
        return docs[a.at] > docs[b.at];
    });
    for (size_t r = 0; r < count; ++r) order_[r] = keys_[r].at;
}

// tie_bounds_: where each group of equal scores begins among the n ranks read, and n. Without
// scores (a ranking given in order) every rank is a group of its own.
void QueryScorer::tie_bounds(const QueryData& q, size_t n) {
    tie_bounds_.clear();
    tie_bounds_.push_back(0);
    for (size_t r = 1; r < n; ++r) {
        if (q.scores == nullptr ||
            descending_score_key(q.scores[ranked_at_[r]]) != descending_score_key(q.scores[ranked_at_[r - 1]])) {
            tie_bounds_.push_back(r);
        }
    }
    if (n > 0) tie_bounds_.push_back(n);
}

bool QueryScorer::tie_average_value(const Measure& measure, const Level& level, const Gains& gains, const QueryData& q,
                                    size_t n, double& out) {
    const double undefined = std::numeric_limits<double>::quiet_NaN();
    const TiedRanking t{rank_grades_.data(), n, tie_bounds_.data(), tie_bounds_.size() - 1};
    const size_t depth = measure.cutoff == 0 ? n : std::min<size_t>(n, static_cast<size_t>(measure.cutoff));
    const bool has_relevant = level.relevant > 0;
    const double r = static_cast<double>(level.relevant);
    const double threshold = level.threshold;
    if (is_cwl_linear_in_gains(measure.kind)) {  // h25-ties3: RBP, INSQ, SDCG (cwl_measures.hpp)
        out = cwl_value(measure, rank_grades_.data(), n, query_serial_, cwl_scratch_, CwlTies{tie_bounds_.data(), t.groups});
        return true;
    }
    switch (measure.kind) {
        case MeasureKind::precision:
            out = expected_count(t, depth, Counted::relevant, threshold) / static_cast<double>(measure.cutoff);
            return true;
        case MeasureKind::recall:
            out = has_relevant ? expected_count(t, depth, Counted::relevant, threshold) / r : undefined;
            return true;
        case MeasureKind::r_precision:
            out = has_relevant ? expected_count(t, std::min(n, static_cast<size_t>(level.relevant)), Counted::relevant,
                                                threshold) / r
                               : undefined;
            return true;
        case MeasureKind::reciprocal_rank:
            out = has_relevant ? expected_reciprocal_rank(t, depth, threshold) : undefined;
            return true;
        case MeasureKind::average_precision:
            out = has_relevant ? expected_ap_sum(t, depth, threshold) / r : undefined;
            return true;
        case MeasureKind::success:
            out = has_relevant ? expected_success(t, depth, threshold) : undefined;
            return true;
        case MeasureKind::judged:
            out = depth > 0 ? expected_count(t, depth, Counted::judged, 0) / static_cast<double>(depth) : undefined;
            return true;
        case MeasureKind::ndcg:
        case MeasureKind::ncg: {  // issue 25 item 4: NCG, every discount 1 (a null array)
            const size_t ideal_depth = measure.cutoff == 0 ? gains.ideal_dcg.size() - 1
                                                           : std::min(gains.ideal_dcg.size() - 1, static_cast<size_t>(measure.cutoff));
            const double ideal = gains.ideal_dcg[ideal_depth];
            if (ideal == 0) {
                out = undefined;
                return true;
            }
            tie_gains_.resize(n);
            for (size_t k = 0; k < n; ++k) {
                const double grade = rank_grades_[k];
                tie_gains_[k] = std::isnan(grade) ? 0.0 : gain(grade, gains);
            }
            if (n > 0 && gains.discounted) discount(n);  // fills the cache of ranks 1..n
            out = expected_dcg(t, depth, tie_gains_.data(), gains.discounted ? discounts_.data() : nullptr) / ideal;
            return true;
        }
        case MeasureKind::err: {
            bool any_positive = false;
            for (size_t j = 0; j < q.judged_count && !any_positive; ++j) any_positive = q.grades[j] > 0;
            out = any_positive ? expected_err(t, depth, tie_scratch_) : undefined;
            return true;
        }
        // issue 25 item 3, second round: trec_eval's measures (tie_average_trec.cpp, gain_measures.cpp)
        case MeasureKind::bpref:
            out = has_relevant ? expected_bpref(t, threshold, level.relevant, level.judged_nonrelevant) : undefined;
            return true;
        case MeasureKind::relative_precision: {  // derived_measures.cpp's, on the expected hits
            const int64_t k = measure.cutoff;
            out = has_relevant ? expected_count(t, std::min<size_t>(n, static_cast<size_t>(k)), Counted::relevant,
                                                threshold) / static_cast<double>(k > level.relevant ? level.relevant : k)
                               : undefined;
            return true;
        }
        case MeasureKind::r_precision_mult: {  // rank_measures.cpp's rprec_mult, on the expected hits
            const double at = measure.parameter * r + 0.9;
            if (!(at >= 1)) {
                out = undefined;
                return true;
            }
            const auto cut = static_cast<int64_t>(at);
            out = expected_count(t, std::min(n, static_cast<size_t>(cut)), Counted::relevant, threshold) /
                  static_cast<double>(cut);
            return true;
        }
        case MeasureKind::unjudged:
            out = expected_count(t, std::min(n, static_cast<size_t>(measure.cutoff)), Counted::unjudged, 0) /
                  static_cast<double>(measure.cutoff);
            return true;
        case MeasureKind::rbp_residual:
            out = expected_rbp_residual(t, measure.parameter, tie_scratch_);
            return true;
        case MeasureKind::hits:  // ranx's hits and f1 (issue 25 item 4), on the expected count
            out = expected_count(t, depth, Counted::relevant, threshold);
            return true;
        case MeasureKind::f1:
            out = has_relevant ? evalcore::ranx_f1(expected_count(t, depth, Counted::relevant, threshold),
                                         measure.cutoff == 0 ? n : static_cast<size_t>(measure.cutoff), r)
                               : undefined;
            return true;
        // h25-ties3: ir_measures' Accuracy (the C/W/L measures linear in the gains: above the switch)
        case MeasureKind::accuracy:
            out = expected_accuracy(t, depth, threshold, tie_scratch_);
            return true;
        case MeasureKind::rbp:
        case MeasureKind::trec_bin_g:
        case MeasureKind::trec_dcg:
        case MeasureKind::trec_ideal_dcg:
        case MeasureKind::trec_ndcg:
        case MeasureKind::trec_ndcg_rel:  // gains of 0 or more (the Python layer refuses negative ones)
        case MeasureKind::trec_rndcg: {
            GainQuery query{rank_grades_.data(), n, q.grades, q.judged_count, threshold, level.relevant, query_serial_};
            query.tie_bounds = tie_bounds_.data();
            query.tie_groups = t.groups;
            out = measure.kind == MeasureKind::rbp ? rbp_with_gains(measure.gains, query, gain_scratch_, measure.parameter)
                                                   : gain_measure(measure.kind, measure.gains, query, gain_scratch_);
            return true;
        }
        default:
            return false;
    }
}

}  // namespace evalcore
