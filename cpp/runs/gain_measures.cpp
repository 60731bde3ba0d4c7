#include "runs/gain_measures.hpp"

#include <cmath>
#include <limits>

#include "runs/measures.hpp"
#include "runs/tie_average.hpp"

namespace evalcore {

double trec_level(double grade) {
    if (std::isnan(grade)) return -1;  // not in the qrels (trec_eval's RELVALUE_NONPOOL)
    const double level = std::trunc(grade);
    return level < 0 ? -2 : level + 0.0;  // -0.5 is level 0, as atol reads it; -1 and below: in the pool, unjudged
}

namespace {

using Entry = GainScratch::Entry;

// trec_eval sorts the gains with qsort and a comparator returning (int)(a - b): differences
// below 1 compare equal, and differences of 2^31 or more (or NaN) convert to INT_MIN on
// x86-64. glibc's qsort is this merge sort (msort.c): halves n / 2 and the rest, the left
// element taken unless the comparator says it is greater.
bool left_first(const Entry& a, const Entry& b) {
    const double difference = a.gain - b.gain;
    return !(difference >= 1.0 && difference < 2147483648.0);
}

void merge_sort(Entry* items, size_t n, Entry* buffer) {
    if (n <= 1) return;
    const size_t half = n / 2;
    merge_sort(items, half, buffer);
    merge_sort(items + half, n - half, buffer);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n) buffer[k++] = left_first(items[i], items[j]) ? items[i++] : items[j++];
    while (i < half) buffer[k++] = items[i++];
    for (size_t m = 0; m < k; ++m) items[m] = buffer[m];
}

// gain_init.c's setup_gains: the parameter pairs in their order, then each level from 0 to the
// highest judged one that no pair names, with its own number as gain; each level's count of
// judgments on the first entry naming it; sorted as trec_eval sorts them. False if a level is
// past max_trec_level.
bool build_table(const std::vector<std::pair<double, double>>& pairs, const GainQuery& q, GainScratch& s) {
    double highest = -1;
    for (size_t j = 0; j < q.judged_count; ++j) {
        const double level = trec_level(q.judged_grades[j]);
        if (level > max_trec_level) return false;
        if (level > highest) highest = level;
    }
    s.counts.assign(static_cast<size_t>(highest + 1), 0);
    for (size_t j = 0; j < q.judged_count; ++j) {
        const double level = trec_level(q.judged_grades[j]);
        if (level >= 0) ++s.counts[static_cast<size_t>(level)];
    }
    s.entries.clear();
    for (const auto& [level, gain] : pairs) s.entries.push_back(Entry{level, 0, gain});
    for (size_t i = 0; i < s.counts.size(); ++i) {
        const double level = static_cast<double>(i);
        size_t j = 0;
        while (j < s.entries.size() && s.entries[j].level != level) ++j;
        if (j < s.entries.size()) {
            s.entries[j].count = s.counts[i];
        } else {
            s.entries.push_back(Entry{level, s.counts[i], level});
        }
    }
    s.sort_buffer.resize(s.entries.size());
    merge_sort(s.entries.data(), s.entries.size(), s.sort_buffer.data());
    // get_gain: the first entry of the sorted table naming the level, 0 if none does.
    s.result_gains.resize(q.retrieved);
    for (size_t i = 0; i < q.retrieved; ++i) {
        const double level = trec_level(q.rank_grades[i]);
        double gain = 0.0;
        for (const Entry& e : s.entries) {
            if (e.level == level) {
                gain = e.gain;
                break;
            }
        }
        s.result_gains[i] = gain;
    }
    return true;
}

// The ideal ranking, walked one rank at a time from the highest gain down (each entry as many
// times as it has judgments), as every measure here walks it.
struct IdealWalk {
    const std::vector<Entry>& table;
    long level;
    long at_level = 0;
    double gain;

    explicit IdealWalk(const std::vector<Entry>& entries)
        : table(entries), level(static_cast<long>(entries.size()) - 1), gain(level >= 0 ? entries.back().gain : 0.0) {}

    void step() {
        ++at_level;
        while (level >= 0 && at_level > table[static_cast<size_t>(level)].count) {
            at_level = 1;
            --level;
            gain = level >= 0 ? table[static_cast<size_t>(level)].gain : 0.0;
        }
    }
};

double discount(size_t i) { return std::log2(static_cast<double>(i + 2)); }  // rank i + 1

double bin_g(const GainQuery& q) {
    if (q.relevant == 0) return std::numeric_limits<double>::quiet_NaN();
    int64_t so_far = 0;
    double sum = 0.0;
    for (size_t i = 0; i < q.retrieved; ++i) {
        if (q.rank_grades[i] >= q.threshold) {  // false for NaN: unjudged
            ++so_far;
            sum += 1.0 / std::log2(static_cast<double>(3 + static_cast<int64_t>(i) - so_far));
        }
    }
    return sum / static_cast<double>(q.relevant);
}

// ties="average": a relevant document's term is 1 / log2(2 + the non-relevant documents above
// it); in a group of m with c relevant, each of 0..m - c of the group's non-relevant ones are
// above it with probability 1 / (m - c + 1) (docs/measures.md, "Ties").
double expected_bin_g(const GainQuery& q) {
    if (q.relevant == 0) return std::numeric_limits<double>::quiet_NaN();
    int64_t nonrelevant_above = 0;
    double sum = 0.0;
    for (size_t g = 0; g < q.tie_groups; ++g) {
        const size_t start = q.tie_bounds[g], end = q.tie_bounds[g + 1];
        int64_t c = 0;
        for (size_t i = start; i < end; ++i) c += q.rank_grades[i] >= q.threshold ? 1 : 0;
        const int64_t others = static_cast<int64_t>(end - start) - c;
        if (c > 0) {
            double inner = 0.0;
            for (int64_t x = 0; x <= others; ++x) inner += 1.0 / std::log2(static_cast<double>(2 + nonrelevant_above + x));
            sum += static_cast<double>(c) * inner / static_cast<double>(others + 1);
        }
        nonrelevant_above += others;
    }
    return sum / static_cast<double>(q.relevant);
}

double normalized_g(const GainScratch& s, size_t n) {
    const std::vector<double>& gains = s.result_gains;
    double results_g = 0.0, sum_results = 0.0, sum_ideal = 0.0, sum_cost = 0.0;
    const double min_cost = 1.0;
    IdealWalk ideal(s.entries);
    size_t i = 0;
    for (; i < n && ideal.gain > 0.0; ++i) {
        sum_results += gains[i];
        ideal.step();
        if (ideal.gain > 0.0) sum_ideal += ideal.gain;
        sum_cost += ideal.gain >= min_cost ? ideal.gain : min_cost;
        if (gains[i] != 0) results_g += gains[i] / std::log2(2 + sum_cost - sum_results);
    }
    for (; i < n; ++i) {
        sum_results += gains[i];
        sum_cost += min_cost;
        if (gains[i] != 0) results_g += gains[i] / std::log2(2 + sum_cost - sum_results);
    }
    while (ideal.gain > 0.0) {
        ideal.step();
        if (ideal.gain > 0.0) sum_ideal += ideal.gain;
    }
    // A discount of log2(x <= 1) (gains given to levels -1 and -2 only) makes the sum inf or
    // NaN: undefined, as a value no mean can take.
    const double value = sum_ideal > 0.0 ? results_g / sum_ideal : std::numeric_limits<double>::quiet_NaN();
    return std::isfinite(value) ? value : std::numeric_limits<double>::quiet_NaN();
}

// ndcg_rel's value from its sum over the ranks: the documents not retrieved count at the final
// dcg. A document of positive gain met while the ideal dcg is still 0 (a gain below 0 for the
// levels above) makes the sum inf: trec_eval prints inf, no mean can take it, so it is undefined
// here (docs/measures.md), as G's is.
double ndcg_rel_value(double sum, int64_t num_rel, int64_t num_rel_ret, double results_dcg, double ideal_dcg) {
    sum += static_cast<double>(num_rel - num_rel_ret) * results_dcg / ideal_dcg;
    if (sum > 0.0) {
        const double value = sum / static_cast<double>(num_rel);
        return std::isfinite(value) ? value : std::numeric_limits<double>::quiet_NaN();
    }
    return num_rel == 0 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
}

// dcg, ideal_dcg and ndcg (m_ndcg.c), and ndcg_rel (m_ndcg_rel.c), which walks the same way.
double dcg_family(MeasureKind kind, const GainScratch& s, const std::vector<double>& gains, size_t n) {
    double results_dcg = 0.0, ideal_dcg = 0.0, sum = 0.0;
    int64_t num_rel = 0, num_rel_ret = 0;
    IdealWalk ideal(s.entries);
    size_t i = 0;
    const auto add_result = [&](size_t at) {
        if (gains[at] != 0) results_dcg += gains[at] / discount(at);
        if (gains[at] > 0) {  // ndcg_rel averages at each document of positive gain
            sum += results_dcg / ideal_dcg;
            ++num_rel_ret;
        }
    };
    const auto add_ideal = [&](size_t at) {
        ideal.step();
        if (ideal.gain > 0.0) {
            ++num_rel;
            ideal_dcg += ideal.gain / discount(at);
        }
    };
    for (; i < n && ideal.gain > 0.0; ++i) {
        if (gains[i] != 0) results_dcg += gains[i] / discount(i);
        add_ideal(i);
        if (gains[i] > 0) {
            sum += results_dcg / ideal_dcg;
            ++num_rel_ret;
        }
    }
    for (; i < n; ++i) add_result(i);
    for (; ideal.gain > 0.0; ++i) add_ideal(i);
    const double undefined = std::numeric_limits<double>::quiet_NaN();
    switch (kind) {
        case MeasureKind::trec_dcg:
            return results_dcg;
        case MeasureKind::trec_ideal_dcg:
            return ideal_dcg;
        case MeasureKind::trec_ndcg:
            return ideal_dcg > 0.0 ? results_dcg / ideal_dcg : undefined;
        default:
            return ndcg_rel_value(sum, num_rel, num_rel_ret, results_dcg, ideal_dcg);
    }
}

// ties="average" for ndcg_rel (gains of 0 or more: the Python layer refuses negative ones, whose
// clamped sums are not linear): the sum's term at rank i is [gain(i) > 0] DCG(i) / ideal(i), so
// E[term] = (P / m) D + S+ / (m d(i)) + (P S - S+) / (m (m - 1)) * the sum of 1 / d(k) over the
// group's ranks k above i: D the expected DCG of the groups above, P, S and S+ the group's
// count of positive gains, sum of gains and sum of positive gains (docs/measures.md, "Ties").
// `means`: each rank's group mean gain. One document a group gives dcg_family's operations.
double expected_ndcg_rel(const GainScratch& s, const GainQuery& q, const std::vector<double>& means) {
    const std::vector<double>& gains = s.result_gains;
    const size_t n = q.retrieved;
    double results_dcg = 0.0, ideal_dcg = 0.0, sum = 0.0;
    int64_t num_rel = 0, num_rel_ret = 0;
    IdealWalk ideal(s.entries);
    size_t group = 0, group_end = 0;
    double share = 0.0, positive_sum = 0.0, cross = 0.0, before = 0.0, within = 0.0, size = 1.0;
    int64_t positive = 0;
    const auto add_result = [&](size_t at, bool with_ideal) {
        if (at == group_end) {  // a new group: its counts, and the expected DCG above it
            const size_t start = q.tie_bounds[group];
            group_end = q.tie_bounds[++group];
            positive = 0;
            positive_sum = 0.0;
            double total = 0.0;
            for (size_t r = start; r < group_end; ++r) {
                total += gains[r];
                if (gains[r] > 0) {
                    ++positive;
                    positive_sum += gains[r];
                }
            }
            size = static_cast<double>(group_end - start);
            share = static_cast<double>(positive) / size;
            cross = size > 1 ? (static_cast<double>(positive) * total - positive_sum) / (size * (size - 1)) : 0.0;
            before = results_dcg;
            within = 0.0;
        }
        if (means[at] != 0) results_dcg += means[at] / discount(at);
        if (with_ideal) {
            ideal.step();
            if (ideal.gain > 0.0) {
                ++num_rel;
                ideal_dcg += ideal.gain / discount(at);
            }
        }
        if (positive > 0) {
            double expected = share * before + positive_sum / (size * discount(at));
            if (size > 1) expected += cross * within;
            sum += expected / ideal_dcg;
        }
        if (gains[at] > 0) ++num_rel_ret;
        within += 1.0 / discount(at);
    };
    size_t i = 0;
    for (; i < n && ideal.gain > 0.0; ++i) add_result(i, true);
    for (; i < n; ++i) add_result(i, false);
    for (; ideal.gain > 0.0; ++i) {
        ideal.step();
        if (ideal.gain > 0.0) {
            ++num_rel;
            ideal_dcg += ideal.gain / discount(i);
        }
    }
    return ndcg_rel_value(sum, num_rel, num_rel_ret, results_dcg, ideal_dcg);
}

// Rndcg: ndcg at each rank where the ideal gain changes, and at the ranking's end, averaged.
double r_ndcg(const GainQuery& q, const GainScratch& s, const std::vector<double>& gains) {
    if (q.relevant == 0) return std::numeric_limits<double>::quiet_NaN();
    const size_t n = q.retrieved;
    double results_dcg = 0.0, ideal_dcg = 0.0, sum = 0.0;
    int64_t changes = 0;
    IdealWalk ideal(s.entries);
    double old_gain = ideal.gain;
    const auto at_change = [&]() {
        if (old_gain != ideal.gain) {
            if (ideal_dcg > 0.0) {
                sum += results_dcg / ideal_dcg;
                ++changes;
            }
            old_gain = ideal.gain;
        }
    };
    size_t i = 0;
    for (; i < n && ideal.gain > 0.0; ++i) {
        ideal.step();
        at_change();
        if (gains[i] != 0) results_dcg += gains[i] / discount(i);
        if (ideal.gain > 0.0) ideal_dcg += ideal.gain / discount(i);
    }
    if (i < n) {
        for (; i < n; ++i) {
            if (gains[i] != 0) results_dcg += gains[i] / discount(i);
        }
        if (ideal_dcg > 0.0) {
            sum += results_dcg / ideal_dcg;
            ++changes;
        }
    }
    for (; ideal.gain > 0.0; ++i) {
        ideal.step();
        at_change();
        if (ideal.gain > 0.0) ideal_dcg += ideal.gain / discount(i);
    }
    return sum / static_cast<double>(changes);  // trec_eval's 0 / 0 when nothing changed
}

}  // namespace

namespace {

// The gain table of this query and these pairs, built once for all its measures (GainScratch).
bool ensure_table(const std::vector<std::pair<double, double>>& pairs, const GainQuery& q, GainScratch& s) {
    if (s.built_serial != q.serial || s.built_pairs != pairs) {
        s.built = build_table(pairs, q, s);
        s.built_serial = q.serial;
        s.built_pairs = pairs;
    }
    return s.built;
}

}  // namespace

double rbp_with_gains(const std::vector<std::pair<double, double>>& pairs, const GainQuery& q, GainScratch& s,
                      double p) {
    if (!ensure_table(pairs, q, s)) return std::numeric_limits<double>::quiet_NaN();
    // m_rbp.c rescales the table's gains to [0, 1] when one is below 0 or above 1, from a
    // minimum and maximum it leaves uninitialised; trec_eval 10's binary behaves as if they
    // started at 0 (checked against it for gains all above 1, all below 0, and mixed:
    // tests/data/trec_eval/cli rbp_gains_*), which is what is done here.
    double low = 0.0, high = 0.0;
    for (const Entry& e : s.entries) {
        if (e.gain < low) low = e.gain;
        if (e.gain > high) high = e.gain;
    }
    const bool rescale = low < 0 || high > 1;
    const auto rank_gain = [&](size_t i) {
        const double level = trec_level(q.rank_grades[i]);
        for (const Entry& e : s.entries) {  // get_gain: the first entry naming the level (rescaled), else 0
            if (e.level == level) return rescale ? (e.gain - low) / (high - low) : e.gain;
        }
        return 0.0;
    };
    double sum = 0.0, weight = 1.0;  // weight: p^i, multiplied rank by rank as trec_eval does
    if (q.tie_bounds != nullptr) {  // ties="average": linear in the gains, so each group's mean gain
        s.tied_gains.resize(q.retrieved);
        for (size_t i = 0; i < q.retrieved; ++i) s.tied_gains[i] = rank_gain(i);
        replace_by_group_means(q.tie_bounds, q.tie_groups, s.tied_gains.data());
    }
    for (size_t i = 0; i < q.retrieved; ++i) {
        const double gain = q.tie_bounds != nullptr ? s.tied_gains[i] : rank_gain(i);
        if (gain != 0) sum += gain * weight;
        weight *= p;
    }
    return (1.0 - p) * sum;
}

double gain_measure(MeasureKind kind, const std::vector<std::pair<double, double>>& pairs, const GainQuery& q,
                    GainScratch& s) {
    const bool tied = q.tie_bounds != nullptr;
    if (kind == MeasureKind::trec_bin_g) return tied ? expected_bin_g(q) : bin_g(q);
    if (!ensure_table(pairs, q, s)) return std::numeric_limits<double>::quiet_NaN();
    if (tied && kind == MeasureKind::trec_g) return std::numeric_limits<double>::quiet_NaN();  // refused (GainQuery)
    // ties="average": each rank's gain is its group's mean gain (dcg, ndcg, ideal_dcg and Rndcg
    // are linear in them; ndcg_rel reads them and the groups' counts).
    if (tied) {
        s.tied_gains = s.result_gains;
        replace_by_group_means(q.tie_bounds, q.tie_groups, s.tied_gains.data());
    }
    const std::vector<double>& gains = tied ? s.tied_gains : s.result_gains;
    if (tied && kind == MeasureKind::trec_ndcg_rel) return expected_ndcg_rel(s, q, gains);
    if (kind == MeasureKind::trec_g) return normalized_g(s, q.retrieved);
    if (kind == MeasureKind::trec_rndcg) {
        // trec_eval's 0 / 0 is -NaN on x86; undefined is one NaN here, as in the reference.
        const double value = r_ndcg(q, s, gains);
        return std::isnan(value) ? std::numeric_limits<double>::quiet_NaN() : value;
    }
    return dcg_family(kind, s, gains, q.retrieved);
}

}  // namespace evalcore
