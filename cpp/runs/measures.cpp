#include "runs/measures.hpp"

#include "runs/rank_measures.hpp"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>

namespace evalcore {

bool reads_whole_ranking(MeasureKind kind) {
    switch (kind) {
        case MeasureKind::num_ret:
        case MeasureKind::num_rel_ret:
        case MeasureKind::r_precision:
        case MeasureKind::bpref:
        case MeasureKind::interpolated_precision:
        case MeasureKind::set_precision:
        case MeasureKind::set_recall:
        case MeasureKind::set_f:
        case MeasureKind::trec_bin_g:
        case MeasureKind::trec_g:
        case MeasureKind::trec_dcg:
        case MeasureKind::trec_ideal_dcg:
        case MeasureKind::trec_ndcg:
        case MeasureKind::trec_ndcg_rel:
        case MeasureKind::trec_rndcg:
        case MeasureKind::num_nonrel_judged_ret:
        case MeasureKind::r_precision_mult:
        case MeasureKind::rbp:
        case MeasureKind::rbp_residual:
        case MeasureKind::yaap:
        case MeasureKind::inferred_ap:
        case MeasureKind::compat:  // issue 25 item 4
        case MeasureKind::ranx_rbp:
            return true;
        default:
            return is_cwl_kind(kind);  // cwl_eval's 1000 ranks (issue 25 item 2)
    }
}

namespace {

// Kinds whose value depends on which documents are relevant (and so on a level).
bool uses_level(MeasureKind kind) {
    return kind != MeasureKind::ndcg && kind != MeasureKind::num_ret && kind != MeasureKind::judged &&
           kind != MeasureKind::err && kind != MeasureKind::unjudged && kind != MeasureKind::rbp &&
           kind != MeasureKind::rbp_residual && kind != MeasureKind::rank_grade && kind != MeasureKind::compat &&
           kind != MeasureKind::ncg && !is_cwl_kind(kind);
}

}  // namespace

QueryScorer::QueryScorer(const std::vector<Measure>& measures, const RunOptions& options)
    : measures_(measures), options_(options) {
    for (const Measure& m : measures_) {
        if (m.cutoff == 0 || reads_whole_ranking(m.kind)) {
            deepest_ = -1;
        } else if (deepest_ >= 0) {
            deepest_ = std::max(deepest_, m.cutoff);
        }
    }
    if (deepest_ < 0) deepest_ = 0;  // 0: every rank
    // ties="average": a group cut by the deepest cutoff is read whole (the ranks below count).
    if (options_.tie_rule == TieRule::average) deepest_ = 0;
    // One level per relevance threshold in use, one gain set per gain mapping: the prefix
    // sums are computed once per query for each, however many measures read them.
    level_of_.resize(measures_.size());
    gains_of_.resize(measures_.size());
    for (size_t i = 0; i < measures_.size(); ++i) {
        const Measure& m = measures_[i];
        if (uses_level(m.kind)) {
            const double threshold = std::isnan(m.relevant_at_least) ? options_.relevant_at_least : m.relevant_at_least;
            size_t l = 0;
            while (l < levels_.size() && levels_[l].threshold != threshold) ++l;
            if (l == levels_.size()) levels_.push_back(make_level(threshold));
            level_of_[i] = static_cast<uint16_t>(l);
        }
        if (m.kind != MeasureKind::ndcg && m.kind != MeasureKind::ncg) continue;
        const auto* map = m.gains.empty() ? nullptr : &m.gains;
        const bool discounted = m.kind == MeasureKind::ndcg;  // NCG: a gain set of its own, every discount 1
        size_t g = 0;
        while (g < gain_sets_.size() && !(gain_sets_[g].discounted == discounted &&
                                          (gain_sets_[g].map == map || (gain_sets_[g].map && map && *gain_sets_[g].map == *map)))) {
            ++g;
        }
        if (g == gain_sets_.size()) gain_sets_.push_back(make_gains(map, discounted));
        Gains& gains = gain_sets_[g];
        if (m.cutoff == 0) {
            gains.ideal_depth = -1;
        } else if (gains.ideal_depth >= 0) {
            gains.ideal_depth = std::max(gains.ideal_depth, m.cutoff);
        }
        gains_of_[i] = static_cast<uint16_t>(g);
    }
    has_ndcg_ = !gain_sets_.empty();
    // Measures without a level or gain set point at these, which they never read.
    if (levels_.empty()) levels_.push_back(make_level(options_.relevant_at_least));
    if (gain_sets_.empty()) gain_sets_.push_back(make_gains(nullptr, true));
}

// TREC marks some documents with negative grades (spam); like trec_eval, they add no gain.
// A gain mapping replaces the grade of each listed grade (ir_measures' nDCG(gains=...)).
double QueryScorer::gain(double grade, const Gains& gains) const {
    if (gains.map != nullptr) {
        for (const auto& [from, to] : *gains.map) {
            if (from == grade) {
                grade = to;
                break;
            }
        }
        return grade > 0 ? grade : 0.0;
    }
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
    if (!options_.ties_by_score || q.scores == nullptr || count < 2) {
        for (size_t i = 0; i < count; ++i) order_[i] = static_cast<uint32_t>(i);
        return;
    }
    if (options_.tie_rule == TieRule::optimistic || options_.tie_rule == TieRule::pessimistic) {
        rank_order_by_grade(q);  // tie_measures.cpp
        return;
    }
    keys_.resize(count);
    for (size_t i = 0; i < count; ++i) keys_[i] = RankKey{descending_score_key(q.scores[i]), static_cast<uint32_t>(i)};
    const std::string_view* docs = q.docs;
    // Score descending, then document ID descending (trec_eval's order; IDs are unique).
    const auto before = [docs](const RankKey& a, const RankKey& b) {
        if (a.key != b.key) return a.key < b.key;
        return docs[a.at] > docs[b.at];
    };
    // Runs often come in rank order, or nearly: insertion sort, while it stays cheap
    // (within a budget of moves). Far from it (many places where the order goes down: a
    // shuffled run), straight to the sort, which an insertion sort would only delay.
    const auto insertion_sort = [&](size_t budget) {
        for (size_t i = 1; i < count; ++i) {
            const RankKey item = keys_[i];
            size_t j = i;
            bool spent = false;
            for (; j > 0 && before(item, keys_[j - 1]); --j) {
                if (budget-- == 0) {
                    spent = true;
                    break;
                }
                keys_[j] = keys_[j - 1];
            }
            keys_[j] = item;  // in its place or not: a permutation either way, which the sort takes
            if (spent) return false;
        }
        return true;
    };
    size_t descents = 0;
    for (size_t k = 1; k < count; ++k) descents += before(keys_[k], keys_[k - 1]) ? 1 : 0;
    if (descents > 0 && !(descents <= count / 16 && insertion_sort(4 * count))) {
        if (n < count) {
            std::partial_sort(keys_.begin(), keys_.begin() + static_cast<ptrdiff_t>(n), keys_.end(), before);
        } else {
            std::sort(keys_.begin(), keys_.end(), before);
        }
    }
    for (size_t r = 0; r < count; ++r) order_[r] = keys_[r].at;
}

double QueryScorer::discount(size_t rank) {
    while (discounts_.size() < rank) discounts_.push_back(std::log2(static_cast<double>(discounts_.size() + 2)));
    return discounts_[rank - 1];
}

// Prefix sums over ranks at one level, each summed left to right in rank order (docs/contract.md
// §1.6), so the value at any cutoff is the sum the single-cutoff definition writes.
void QueryScorer::score_level(Level& level, const QueryData& q, size_t n) {
    level.relevant = level.judged_nonrelevant = 0;
    for (size_t j = 0; j < q.judged_count; ++j) {
        const double grade = q.grades[j];
        if (grade >= level.threshold) {
            ++level.relevant;
        } else if (grade >= 0) {
            ++level.judged_nonrelevant;
        }
    }
    level.hits.assign(n + 1, 0);
    level.ap_sum.assign(n + 1, 0.0);
    level.first_relevant = 0;
    level.interpolation_ready = false;
    int64_t hits = 0;
    double ap_sum = 0.0;
    for (size_t r = 1; r <= n; ++r) {
        if (rank_grades_[r - 1] >= level.threshold) {  // false for NaN: unjudged
            ++hits;
            ap_sum += static_cast<double>(hits) / static_cast<double>(r);
            if (level.first_relevant == 0) level.first_relevant = r;
        }
        level.hits[r] = hits;
        level.ap_sum[r] = ap_sum;
    }
}

// DCG prefix sums, and the ideal DCG: every judgment's gain sorted descending, prefix-summed
// as deep as needed (only that many of the largest need to be in order). Undiscounted (NCG):
// the gains themselves, the cumulated gain (x / 1 is x, so the same operations serve both).
void QueryScorer::score_gains(Gains& gains, const QueryData& q, size_t n) {
    const auto discount_at = [this, &gains](size_t rank) { return gains.discounted ? discount(rank) : 1.0; };
    // As deep as the deepest nDCG cutoff of these gains (other measures may read deeper).
    const size_t dcg_depth = gains.ideal_depth < 0 ? n : std::min(n, static_cast<size_t>(gains.ideal_depth));
    gains.dcg.assign(dcg_depth + 1, 0.0);
    double dcg = 0.0;
    for (size_t r = 1; r <= dcg_depth; ++r) {
        const double grade = rank_grades_[r - 1];
        if (!std::isnan(grade)) dcg += gain(grade, gains) / discount_at(r);  // an unjudged document adds nothing
        gains.dcg[r] = dcg;
    }
    std::vector<double>& ideal = gains.ideal_gains;
    ideal.resize(q.judged_count);
    for (size_t j = 0; j < q.judged_count; ++j) ideal[j] = gain(q.grades[j], gains);
    const size_t depth = gains.ideal_depth < 0 ? ideal.size() : std::min<size_t>(ideal.size(), static_cast<size_t>(gains.ideal_depth));
    const auto head = ideal.begin() + static_cast<ptrdiff_t>(depth);
    if (depth < ideal.size()) std::nth_element(ideal.begin(), head, ideal.end(), std::greater<double>());
    std::sort(ideal.begin(), head, std::greater<double>());
    gains.ideal_dcg.assign(depth + 1, 0.0);
    for (size_t i = 1; i <= depth; ++i) gains.ideal_dcg[i] = gains.ideal_dcg[i - 1] + ideal[i - 1] / discount_at(i);
}

// trec_eval 10's iprec_at_recall: the point stands for lround(point * R) relevant documents;
// its value is the best precision at or below the rank where that many were retrieved
// (0 if they never were). Precision at rank i is hits(i) / i, the walk goes bottom up.
double QueryScorer::interpolated_precision(const Level& level, double recall_point, size_t n) const {
    const long needed = std::lround(recall_point * static_cast<double>(level.relevant));
    const int64_t retrieved = level.hits[n];
    if (needed > retrieved) return 0.0;
    // An empty ranking at a point of 0 relevant documents: trec_eval's 0 / 0, undefined here.
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    const long target = needed == 0 ? 1 : needed;  // 0 relevant: as for the first one
    if (retrieved == 0) return 0.0;
    // The walk from rank n up to the rank where the target-th relevant document was retrieved
    // keeps the best precision met: best_from at that rank (a maximum: the same double
    // whichever way it is taken).
    if (!level.interpolation_ready || level.best_from.size() != n + 1) {
        level.best_from.assign(n + 1, 0.0);
        level.hit_rank.assign(static_cast<size_t>(retrieved) + 1, 0);
        double best = 0.0;
        for (size_t i = n; i > 0; --i) {
            const double precision = static_cast<double>(level.hits[i]) / static_cast<double>(i);
            if (best < precision) best = precision;
            level.best_from[i] = best;
            if (level.hits[i] != level.hits[i - 1]) level.hit_rank[static_cast<size_t>(level.hits[i])] = i;
        }
        level.interpolation_ready = true;
    }
    return level.best_from[level.hit_rank[static_cast<size_t>(target)]];
}

// trec_eval's bpref: for each judged relevant document retrieved, the share of the first R
// judged non-relevant documents (of all judged) ranked below it; unjudged and negative
// grades are skipped. Summed in rank order, divided by R.
double QueryScorer::bpref(const Level& level, size_t n) const {
    const int64_t relevant = level.relevant;
    const double denominator = static_cast<double>(std::min(level.judged_nonrelevant, relevant));
    int64_t nonrelevant_so_far = 0;
    double sum = 0.0;
    for (size_t r = 1; r <= n; ++r) {
        const double grade = rank_grades_[r - 1];
        if (std::isnan(grade) || grade < 0) continue;
        if (grade < level.threshold) {
            ++nonrelevant_so_far;
        } else if (nonrelevant_so_far > 0) {
            sum += 1.0 - static_cast<double>(std::min(nonrelevant_so_far, relevant)) / denominator;
        } else {
            sum += 1.0;
        }
    }
    return sum / static_cast<double>(relevant);
}

// Expected reciprocal rank (Chapelle et al. 2009) with gdeval's mapping of a grade g to the
// probability that the document satisfies: (2^g - 1) / 2^4, grades above 4 taken as 4 (gdeval
// refuses them), none for unjudged documents and grades of 0 or below.
double QueryScorer::err(size_t depth) const {
    double value = 0.0, reach = 1.0;
    for (size_t r = 1; r <= depth; ++r) {
        const double grade = rank_grades_[r - 1];
        if (!(grade > 0)) continue;
        const double satisfied = (std::pow(2.0, std::min(grade, 4.0)) - 1.0) / 16.0;
        value += reach * satisfied / static_cast<double>(r);
        reach *= 1.0 - satisfied;
    }
    return value;
}

double QueryScorer::value(const Measure& measure, const Level& level, const Gains& gains, const QueryData& q, size_t n) {
    double expected = 0;
    if (options_.tie_rule == TieRule::average && tie_average_value(measure, level, gains, q, n, expected)) return expected;
    const double undefined = std::numeric_limits<double>::quiet_NaN();
    const size_t depth = measure.cutoff == 0 ? n : std::min<size_t>(n, static_cast<size_t>(measure.cutoff));
    const int64_t relevant = level.relevant;
    const bool has_relevant = relevant > 0;
    const double r = static_cast<double>(relevant);
    switch (measure.kind) {
        case MeasureKind::precision:  // k is the denominator even when fewer were retrieved
            return static_cast<double>(level.hits[depth]) / static_cast<double>(measure.cutoff);
        case MeasureKind::recall:
            return has_relevant ? static_cast<double>(level.hits[depth]) / r : undefined;
        case MeasureKind::reciprocal_rank:
            if (!has_relevant) return undefined;
            return level.first_relevant != 0 && level.first_relevant <= depth ? 1.0 / static_cast<double>(level.first_relevant)
                                                                               : 0.0;
        case MeasureKind::average_precision:
            return has_relevant ? level.ap_sum[depth] / r : undefined;
        case MeasureKind::ndcg:
        case MeasureKind::ncg: {  // NCG (issue 25 item 4): its gain set's discounts are 1
            const size_t ideal_depth = measure.cutoff == 0 ? gains.ideal_dcg.size() - 1
                                                           : std::min(gains.ideal_dcg.size() - 1, static_cast<size_t>(measure.cutoff));
            const double ideal = gains.ideal_dcg[ideal_depth];
            return ideal != 0 ? gains.dcg[depth] / ideal : undefined;
        }
        case MeasureKind::num_ret:
            return static_cast<double>(retrieved_);
        case MeasureKind::num_rel:
            return r;
        case MeasureKind::num_rel_ret:
            return static_cast<double>(level.hits[n]);
        case MeasureKind::r_precision:
            return has_relevant ? static_cast<double>(level.hits[std::min(n, static_cast<size_t>(relevant))]) / r : undefined;
        case MeasureKind::bpref:
            return has_relevant ? bpref(level, n) : undefined;
        case MeasureKind::interpolated_precision:
            return has_relevant ? interpolated_precision(level, measure.parameter, n) : undefined;
        case MeasureKind::success:
            return has_relevant ? (level.hits[depth] > 0 ? 1.0 : 0.0) : undefined;
        case MeasureKind::set_precision:
            return n > 0 ? static_cast<double>(level.hits[n]) / static_cast<double>(n) : undefined;
        case MeasureKind::set_recall:
            return has_relevant ? static_cast<double>(level.hits[n]) / r : undefined;
        case MeasureKind::set_f: {
            if (!has_relevant || n == 0) return undefined;
            if (level.hits[n] == 0) return 0.0;
            const double p = static_cast<double>(level.hits[n]) / static_cast<double>(n);
            const double rc = static_cast<double>(level.hits[n]) / r;
            const double x = measure.parameter;
            return (x + 1.0) * p * rc / (x * p + rc);
        }
        case MeasureKind::judged:
            return depth > 0 ? static_cast<double>(judged_prefix_[depth]) / static_cast<double>(depth) : undefined;
        case MeasureKind::err: {
            bool any_positive = false;
            for (size_t j = 0; j < q.judged_count && !any_positive; ++j) any_positive = q.grades[j] > 0;
            return any_positive ? err(depth) : undefined;
        }
        case MeasureKind::trec_bin_g:  // trec_eval's gain measures: runs/gain_measures.cpp
        case MeasureKind::trec_g:
        case MeasureKind::trec_dcg:
        case MeasureKind::trec_ideal_dcg:
        case MeasureKind::trec_ndcg:
        case MeasureKind::trec_ndcg_rel:
        case MeasureKind::trec_rndcg:
            return gain_measure(measure.kind, measure.gains,
                                GainQuery{rank_grades_.data(), n, q.grades, q.judged_count, level.threshold, relevant, query_serial_},
                                gain_scratch_);
        case MeasureKind::gm_ap:
        case MeasureKind::gm_bpref:
        case MeasureKind::utility:
        case MeasureKind::eleven_point_average:
        case MeasureKind::relative_precision:
        case MeasureKind::set_relative_precision:
        case MeasureKind::set_map:
        case MeasureKind::num_q:
        case MeasureKind::run_id:
            return derived(measure, level, n);
        case MeasureKind::map_avgjg:  // judgment groups' measures: JudgmentGroupScorer's, not read here
        case MeasureKind::p_avgjg:
        case MeasureKind::rprec_mult_avgjg:
            return undefined;
        case MeasureKind::num_nonrel_judged_ret:
            return evalcore::num_nonrel_judged_ret(rank_grades_.data(), n, level.threshold);
        case MeasureKind::r_precision_mult:
            return rprec_mult(level.hits.data(), n, relevant, measure.parameter);
        case MeasureKind::unjudged:
            return unjudged_at(rank_grades_.data(), n, measure.cutoff);
        case MeasureKind::rbp:
            return rbp_with_gains(measure.gains, GainQuery{rank_grades_.data(), n, q.grades, q.judged_count,
                                                           level.threshold, relevant, query_serial_},
                                  gain_scratch_, measure.parameter);
        case MeasureKind::rbp_residual:
            return evalcore::rbp_residual(rank_grades_.data(), n, measure.parameter);
        case MeasureKind::yaap:
            return evalcore::yaap(level.ap_sum[n], relevant);
        case MeasureKind::inferred_ap:
            return evalcore::inferred_ap(rank_grades_.data(), n, level.threshold, relevant);
        case MeasureKind::rank_grade:
            return static_cast<size_t>(measure.cutoff) <= n ? rank_grades_[static_cast<size_t>(measure.cutoff) - 1] : undefined;
        case MeasureKind::prefs_num_prefs_poss:  // preferences: PreferenceScorer's, not read here
        case MeasureKind::prefs_num_prefs_ful:
        case MeasureKind::prefs_num_prefs_ful_ret:
        case MeasureKind::prefs_simp:
        case MeasureKind::prefs_pair:
        case MeasureKind::prefs_avgjg:
        case MeasureKind::prefs_avgjg_rnonrel:
        case MeasureKind::prefs_simp_ret:
        case MeasureKind::prefs_pair_ret:
        case MeasureKind::prefs_avgjg_ret:
        case MeasureKind::prefs_avgjg_rnonrel_ret:
        case MeasureKind::prefs_simp_imp:
        case MeasureKind::prefs_pair_imp:
        case MeasureKind::prefs_avgjg_imp:
        // issue 25 item 1: the diversity measures read subtopic judgments (diversity/), not these
        case MeasureKind::alpha_dcg:
        case MeasureKind::alpha_ndcg:
        case MeasureKind::err_ia:
        case MeasureKind::nerr_ia:
        case MeasureKind::nrbp:
        case MeasureKind::nnrbp:
        case MeasureKind::p_ia:
        case MeasureKind::ap_ia:
        case MeasureKind::st_recall:
            return undefined;
        case MeasureKind::cwl_rbp:  // issue 25 item 2, the C/W/L family: runs/cwl_measures.cpp
        case MeasureKind::cwl_inst: case MeasureKind::cwl_insq: case MeasureKind::cwl_bpm: case MeasureKind::cwl_sdcg:
        case MeasureKind::cwl_nerr8: case MeasureKind::cwl_nerr9: case MeasureKind::cwl_nerr10: case MeasureKind::cwl_nerr11:
        case MeasureKind::cwl_bpmd:  // (cwl2)
            return cwl_value(measure, rank_grades_.data(), n, query_serial_, cwl_scratch_);
        case MeasureKind::compat:  // issue 25 item 4: runs/compat_measure.cpp
            return compat(measure, q, n);
        case MeasureKind::accuracy:  // issue 25 item 4: runs/rank_measures.cpp
            return evalcore::accuracy(rank_grades_.data(), depth, level.threshold);
        case MeasureKind::hits:  // issue 25 item 4, ranx's hits and f1
            return static_cast<double>(level.hits[depth]);
        case MeasureKind::f1:
            return has_relevant ? evalcore::ranx_f1(static_cast<double>(level.hits[depth]),
                                                    measure.cutoff == 0 ? n : static_cast<size_t>(measure.cutoff), r)
                                : undefined;
        case MeasureKind::ranx_rbp:
            return ranx_rbp(level.threshold, measure.parameter, n);

    }
    return undefined;
}

// ranx's graded rbp (rank_measures.hpp) on each rank's grade of at least the level (others 0);
// ties="average": each rank's term is its group's mean, rbp being linear in them.
double QueryScorer::ranx_rbp(double threshold, double p, size_t n) {
    tie_gains_.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const double grade = rank_grades_[i];
        tie_gains_[i] = grade >= threshold ? grade : 0.0;  // false for NaN: unjudged
    }
    if (options_.tie_rule == TieRule::average) replace_by_group_means(tie_bounds_.data(), tie_bounds_.size() - 1, tie_gains_.data());
    return ranx_rbp_sum(tie_gains_.data(), n, p);
}

// Compat's view of the query: each judged document's rank among the n read, and the score that
// orders equal grades in the ideal ranking (ir_measures': the run's score, 0 if not retrieved;
// with no scores, the ranking's order, unretrieved ones last).
double QueryScorer::compat(const Measure& measure, const QueryData& q, size_t n) {
    compat_ranks_.assign(q.judged_count, kUnranked);
    compat_keys_.assign(q.judged_count, q.scores != nullptr ? 0.0 : -std::numeric_limits<double>::infinity());
    for (size_t r = 0; r < n; ++r) {
        const uint32_t at = options_.judged_only ? ranked_at_[r] : order_[r];
        const uint32_t* j = find_judged(q, at);
        if (j == nullptr) continue;
        compat_ranks_[*j] = r;
        compat_keys_[*j] = q.scores != nullptr ? q.scores[at] : -static_cast<double>(r);
    }
    const bool normalize = measure.parameters.empty() || measure.parameters[0] != 0;
    return compatibility(CompatQuery{q.grades, compat_ranks_.data(), compat_keys_.data(), q.judged_count, n},
                         measure.parameter, normalize, compat_scratch_);
}

// The judgment of the document at input position `at`, or null if it has none.
const uint32_t* QueryScorer::find_judged(const QueryData& q, uint32_t at) const {
    return judged_.find(q.docs[at], q.doc_hashes != nullptr ? q.doc_hashes[at] : IdTable::hash(q.docs[at]));
}

// Orders the ranking and looks up each rank's grade once for every level and gain set;
// returns how many ranks the measures read. Sets retrieved_ (N): the documents in the
// ranking, the first max_retrieved of the order when that option is set (trec_eval -M).
size_t QueryScorer::rank(const QueryData& q) {
    size_t kept = q.doc_count;
    if (options_.max_retrieved >= 0) kept = std::min(kept, static_cast<size_t>(options_.max_retrieved));
    if (options_.judged_only) return rank_judged_only(q, kept);
    retrieved_ = kept;
    // Only the ranks up to the deepest cutoff matter (all of them for a measure without one).
    const size_t n = std::min(kept, deepest_ == 0 ? kept : static_cast<size_t>(deepest_));
    rank_order(q, n);
    rank_grades_.resize(n);
    judged_prefix_.resize(n + 1);
    judged_prefix_[0] = 0;
    if (options_.tie_rule == TieRule::average) ranked_at_.assign(order_.begin(), order_.begin() + static_cast<ptrdiff_t>(n));
    for (size_t r = 1; r <= n; ++r) {
        const uint32_t* j = find_judged(q, order_[r - 1]);
        rank_grades_[r - 1] = j != nullptr ? q.grades[*j] : std::numeric_limits<double>::quiet_NaN();
        judged_prefix_[r] = judged_prefix_[r - 1] + (j != nullptr ? 1 : 0);
    }
    return n;
}

// trec_eval -J: of the first `kept` ranks, only documents judged with a grade of 0 or more
// stay, in their order (the ranks close up); N is how many stay. Which ones stay is known
// only once each is looked up, so all `kept` are ordered and looked up.
size_t QueryScorer::rank_judged_only(const QueryData& q, size_t kept) {
    rank_order(q, kept);
    rank_grades_.resize(kept);
    ranked_at_.resize(kept);
    size_t stay = 0;
    for (size_t r = 0; r < kept; ++r) {
        const uint32_t* j = find_judged(q, order_[r]);
        if (j == nullptr || !(q.grades[*j] >= 0)) continue;
        ranked_at_[stay] = order_[r];
        rank_grades_[stay++] = q.grades[*j];
    }
    retrieved_ = stay;
    const size_t n = std::min(stay, deepest_ == 0 ? stay : static_cast<size_t>(deepest_));
    rank_grades_.resize(n);
    judged_prefix_.resize(n + 1);
    for (size_t r = 0; r <= n; ++r) judged_prefix_[r] = static_cast<int64_t>(r);  // every one is judged
    return n;
}

void QueryScorer::score(const QueryData& q, double* values) {
    ++query_serial_;  // what the gain measures' shared table is keyed by (gain_measures.hpp)
    // Judgments by document (QueryData says which hashes the two sides may use).
    const uint64_t* judged_hashes = q.doc_hashes != nullptr ? q.judged_hashes : nullptr;
    judged_.reset(q.judged_count);
    for (size_t j = 0; j < q.judged_count; ++j) {
        const std::string_view doc = q.judged_docs[j];
        judged_.insert(doc, judged_hashes != nullptr ? judged_hashes[j] : IdTable::hash(doc), static_cast<uint32_t>(j));
    }
    const size_t n = rank(q);
    if (options_.tie_rule == TieRule::average) tie_bounds(q, n);
    for (Level& level : levels_) score_level(level, q, n);
    if (has_ndcg_) {
        for (Gains& gains : gain_sets_) score_gains(gains, q, n);
    }
    for (size_t m = 0; m < measures_.size(); ++m) {
        values[m] = value(measures_[m], levels_[level_of_[m]], gain_sets_[gains_of_[m]], q, n);
    }
}

}  // namespace evalcore
