#include "runs/cwl_measures.hpp"

#include "runs/measures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace evalcore {

namespace {

using Figures = CwlFigures;

// The parameters of one C/W/L measure, named (cwl_measures.hpp lists their places).
struct Model {
    double min_rel, max_rel, rel;
    size_t depth;
    bool raw;  // cwl_eval's reading of gains (max_gain=): clipped to [0, max_rel], not scaled
    double cost, max_cost, min_cost;  // cost NaN: the ranked items' cost is unknown
    double hb, hc, gain_med;          // the dynamic BPM's (hc: read by cwl_eval for nothing)
};

Model model_of(const Measure& m) {
    const std::vector<double>& p = m.parameters;
    return Model{p[1], p[2], p[3], static_cast<size_t>(p[4]), p[5] > 0, p[6], p[7], p[8], p[9], p[10], p[11]};
}

// cwl_eval's gain of a judged grade, as ir_measures' cwl_eval provider prepares its qrels
// (or, raw, as cwl_eval reads a gain file whose gains it would accept).
double judged_gain(double grade, const Model& m) {
    const double g = std::max(grade, 0.0);
    if (m.rel > 0) return g >= m.rel ? 1.0 : 0.0;
    const double clipped = std::min(std::max(g, m.min_rel), m.max_rel);
    return m.raw ? clipped : (clipped - m.min_rel) / (m.max_rel - m.min_rel);
}

// A square as x * x, in the twin too (its _squared): pow(x, 2.0), which Python's `x ** 2.0`
// calls, is within 0.52 ulp in glibc, not always x * x's double.
double squared(double x) { return x * x; }

void continuation(const Measure& m, const Model& model, CwlScratch& s) {
    const std::vector<double>& gains = s.gains;
    std::vector<double>& c = s.continuation;
    const size_t depth = gains.size();
    const double x = m.parameter;
    const auto k = static_cast<size_t>(m.cutoff);
    double cumulative = 0, cumulative_cost = 0;
    double target = x;  // the dynamic BPM's T, moved by each gain read while under it
    bool gain_open = true, cost_open = true;  // BPM: neither bound reached yet
    for (size_t i = 0; i < depth; ++i) {
        const double rank = static_cast<double>(i) + 1.0;
        cumulative += gains[i];
        cumulative_cost += s.costs[i];
        double ci = 0;
        switch (m.kind) {
            case MeasureKind::cwl_rbp:
                ci = x;
                break;
            case MeasureKind::cwl_inst: {
                const double remaining = x - cumulative;
                ci = squared((rank + x + remaining - 1.0) / (rank + x + remaining));
                break;
            }
            case MeasureKind::cwl_insq:
                ci = squared((rank + 2.0 * x - 1.0) / (rank + 2.0 * x));
                break;
            case MeasureKind::cwl_bpm:
            case MeasureKind::cwl_bpmd:
                gain_open = gain_open && cumulative < target;
                if (gain_open && m.kind == MeasureKind::cwl_bpmd) target = target + model.hb * (gains[i] - model.gain_med);
                // K stays: cwl_eval's dynamic loop moves T, not K, by hc (its code as published)
                cost_open = cost_open && cumulative_cost < static_cast<double>(m.cutoff);
                ci = gain_open && cost_open ? 1.0 : 0.0;
                break;
            case MeasureKind::cwl_sdcg:
                ci = i + 1 < k ? (std::log(rank + 1.0) / std::log(2.0)) / (std::log(rank + 2.0) / std::log(2.0)) : 0.0;
                break;
            case MeasureKind::cwl_nerr8:
                ci = i + 1 < k ? 1.0 - gains[i] : 0.0;
                break;
            case MeasureKind::cwl_nerr9:
                ci = i + 1 < k ? (rank / (rank + 1.0)) * (1.0 - gains[i]) : 0.0;
                break;
            case MeasureKind::cwl_nerr10:
                ci = x * (1.0 - gains[i]);
                break;
            case MeasureKind::cwl_nerr11:
                ci = squared((rank + 2.0 * x - 1.0) / (rank + 2.0 * x)) * (1.0 - gains[i]);
                break;
            default:
                break;
        }
        c[i] = ci;
    }
}

// ties="average" (cwl_measures.hpp's is_cwl_linear_in_gains): the gain of each of the first
// `depth` ranks replaced by its tied group's mean gain, summed over the whole group in rank order
// and divided by its size (tie_average_trec.cpp's replace_by_group_means, the group possibly
// running past depth): E[the gain at that rank] over the orders of the group. A group of one
// keeps its gain bit for bit (g / 1).
void average_tied_gains(const Model& model, const double* grades, double unjudged_gain, CwlTies ties,
                        std::vector<double>& gains) {
    const size_t depth = gains.size();
    for (size_t g = 0; g < ties.groups; ++g) {
        const size_t start = ties.bounds[g], end = ties.bounds[g + 1];
        if (start >= depth) break;
        double sum = 0.0;
        for (size_t r = start; r < end; ++r) sum += std::isnan(grades[r]) ? unjudged_gain : judged_gain(grades[r], model);
        const double mean = sum / static_cast<double>(end - start);
        for (size_t r = start; r < std::min(end, depth); ++r) gains[r] = mean;
    }
}

// The five figures at one bound: the lower (upper false) with unjudged ranks and the padding
// at gain 0 and unknown costs at max_cost; the upper with them at the best gain (1, or
// max_gain read raw) and unknown costs at min_cost.
Figures figures(const Measure& m, const Model& model, const double* grades, size_t n, bool upper, CwlScratch& s,
                CwlTies ties) {
    const size_t depth = model.depth;
    const double unjudged_gain = upper ? (model.raw ? model.max_rel : 1.0) : 0.0;
    const double unknown_cost = upper ? model.min_cost : model.max_cost;
    const double ranked_cost = std::isnan(model.cost) ? unknown_cost : model.cost;
    s.gains.resize(depth);
    s.costs.resize(depth);
    s.continuation.resize(depth);
    for (size_t r = 0; r < depth; ++r) {
        const double grade = r < n ? grades[r] : std::numeric_limits<double>::quiet_NaN();
        s.gains[r] = std::isnan(grade) ? unjudged_gain : judged_gain(grade, model);
        s.costs[r] = r < n ? ranked_cost : unknown_cost;
    }
    if (ties.bounds != nullptr) average_tied_gains(model, grades, unjudged_gain, ties, s.gains);
    continuation(m, model, s);
    // reach = prod_{j<i} C_j: W_i = reach / total, L_i = reach (1 - C_i).
    double total = 0, reach = 1;
    for (size_t i = 0; i < depth; ++i) {
        total += reach;
        reach *= s.continuation[i];
    }
    const double first = 1.0 / total;
    Figures f;
    double cumulative_gain = 0, cumulative_cost = 0;
    reach = 1;
    for (size_t i = 0; i < depth; ++i) {
        const double w = i == 0 ? first : reach * first;
        const double stop = reach * (1.0 - s.continuation[i]);
        cumulative_gain += s.gains[i];
        cumulative_cost += s.costs[i];
        f.eu += w * s.gains[i];
        f.etu += stop * cumulative_gain;
        f.ec += w * s.costs[i];
        f.etc += stop * cumulative_cost;
        reach *= s.continuation[i];
    }
    f.ed = 1.0 / first;
    return f;
}

// Issue 25 item 2 (cwl2): how many of the ranks read hold a judged grade that graded gains
// change on the way to [min_rel, max_rel] (below max(min_rel, 0): negatives are 0 first;
// above max_rel). cwl_eval itself refuses such gains; evaluate_run warns with this count.
// With ties, the ranks read run to the end of the group that `depth` cuts (cwl_value).
double clipped_grades(const Model& m, const double* grades, size_t n, CwlTies ties) {
    const double low = std::max(m.min_rel, 0.0), high = m.max_rel;
    if (m.rel > 0) return 0;  // binary gains (rel=): nothing is clipped
    size_t read = std::min(n, m.depth);
    for (size_t g = 0; g < ties.groups; ++g) {
        if (ties.bounds[g] < read && ties.bounds[g + 1] > read) read = std::min(n, ties.bounds[g + 1]);
    }
    double count = 0;
    for (size_t r = 0; r < read; ++r) {
        if (grades[r] < low || grades[r] > high) count += 1;  // false for NaN: unjudged
    }
    return count;
}

double pick(const Figures& f, size_t figure) {
    switch (figure) {
        case 0: return f.eu;
        case 1: return f.etu;
        case 2: return f.ec;
        case 3: return f.etc;
        default: return f.ed;
    }
}

// Equal, or both NaN (an unknown cost).
bool same_number(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// The same user model, gains and costs: only the figure picked differs.
bool same_model(const Measure& a, const Measure& b) {
    if (a.kind != b.kind || a.parameter != b.parameter || a.cutoff != b.cutoff) return false;
    for (size_t i = 1; i < kCwlParameterCount; ++i) {
        if (!same_number(a.parameters[i], b.parameters[i])) return false;
    }
    return true;
}

}  // namespace

bool is_cwl_kind(MeasureKind kind) { return kind >= MeasureKind::cwl_rbp && kind <= MeasureKind::cwl_bpmd; }

bool is_cwl_linear_in_gains(MeasureKind kind) {
    return kind == MeasureKind::cwl_rbp || kind == MeasureKind::cwl_insq || kind == MeasureKind::cwl_sdcg;
}

double cwl_value(const Measure& measure, const double* grades, size_t n, uint64_t query_serial, CwlScratch& scratch,
                 CwlTies ties) {
    if (measure.parameters.size() != kCwlParameterCount) return std::numeric_limits<double>::quiet_NaN();
    // (checked as a double: converting NaN or an out-of-range value to size_t is undefined)
    const double depth = measure.parameters[4];
    if (!(depth >= 1 && depth <= static_cast<double>(kCwlMaxDepth))) return std::numeric_limits<double>::quiet_NaN();
    const Model model = model_of(measure);
    const double figure = measure.parameters[0];
    const auto index = static_cast<size_t>(figure >= 0 && figure <= static_cast<double>(kCwlClippedFigure) ? figure : 0);
    if (index == kCwlClippedFigure) return clipped_grades(model, grades, n, ties);
    if (scratch.query_serial != query_serial) {
        scratch.entries.clear();
        scratch.query_serial = query_serial;
    }
    size_t at = 0;
    while (at < scratch.entries.size() && !same_model(*scratch.entries[at].measure, measure)) ++at;
    if (at == scratch.entries.size()) {
        scratch.entries.push_back(CwlScratch::Entry{&measure, false, figures(measure, model, grades, n, false, scratch, ties), {}});
    }
    if (index < 5) return pick(scratch.entries[at].lower, index);
    if (!scratch.entries[at].has_upper) {
        scratch.entries[at].upper = figures(measure, model, grades, n, true, scratch, ties);
        scratch.entries[at].has_upper = true;
    }
    return pick(scratch.entries[at].upper, index - 5) - pick(scratch.entries[at].lower, index - 5);
}

}  // namespace evalcore
