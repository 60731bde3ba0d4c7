#include "runs/cwl_measures.hpp"

#include "runs/measures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace evalcore {

namespace {

using Figures = CwlFigures;

// cwl_eval's gain of a judged grade, as ir_measures' cwl_eval provider prepares its qrels.
double judged_gain(double grade, double min_rel, double max_rel, double rel) {
    const double g = std::max(grade, 0.0);
    if (rel > 0) return g >= rel ? 1.0 : 0.0;
    return (std::min(std::max(g, min_rel), max_rel) - min_rel) / (max_rel - min_rel);
}

// A square as x * x, in the twin too (its _squared): pow(x, 2.0), which Python's `x ** 2.0`
// calls, is within 0.52 ulp in glibc, not always x * x's double.
double squared(double x) { return x * x; }

void continuation(const Measure& m, const std::vector<double>& gains, std::vector<double>& c) {
    const size_t depth = gains.size();
    const double x = m.parameter;
    const auto k = static_cast<size_t>(m.cutoff);
    double cumulative = 0;
    bool gain_open = true, cost_open = true;  // BPM: neither bound reached yet
    for (size_t i = 0; i < depth; ++i) {
        const double rank = static_cast<double>(i) + 1.0;
        cumulative += gains[i];
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
                gain_open = gain_open && cumulative < x;
                cost_open = cost_open && rank < static_cast<double>(m.cutoff);
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

// The five figures with unjudged ranks and the padding at `unjudged_gain` (0: the lower bound).
Figures figures(const Measure& m, const double* grades, size_t n, double unjudged_gain, CwlScratch& s) {
    const double min_rel = m.parameters[1], max_rel = m.parameters[2], rel = m.parameters[3];
    s.gains.resize(kCwlDepth);
    s.continuation.resize(kCwlDepth);
    for (size_t r = 0; r < kCwlDepth; ++r) {
        const double grade = r < n ? grades[r] : std::numeric_limits<double>::quiet_NaN();
        s.gains[r] = std::isnan(grade) ? unjudged_gain : judged_gain(grade, min_rel, max_rel, rel);
    }
    continuation(m, s.gains, s.continuation);
    // reach = prod_{j<i} C_j: W_i = reach / total, L_i = reach (1 - C_i).
    double total = 0, reach = 1;
    for (size_t i = 0; i < kCwlDepth; ++i) {
        total += reach;
        reach *= s.continuation[i];
    }
    const double first = 1.0 / total;
    Figures f;
    double cumulative_gain = 0;
    reach = 1;
    for (size_t i = 0; i < kCwlDepth; ++i) {
        const double w = i == 0 ? first : reach * first;
        const double stop = reach * (1.0 - s.continuation[i]);
        cumulative_gain += s.gains[i];
        f.eu += w * s.gains[i];
        f.etu += stop * cumulative_gain;
        f.ec += w;
        f.etc += stop * (static_cast<double>(i) + 1.0);
        reach *= s.continuation[i];
    }
    f.ed = 1.0 / first;
    return f;
}

// Issue 25 item 2 (cwl2): how many of the ranks read hold a judged grade that graded gains
// change on the way to [min_rel, max_rel] (below max(min_rel, 0): negatives are 0 first;
// above max_rel). cwl_eval itself refuses such gains; evaluate_run warns with this count.
double clipped_grades(const Measure& m, const double* grades, size_t n) {
    const double low = std::max(m.parameters[1], 0.0), high = m.parameters[2];
    if (m.parameters[3] > 0) return 0;  // binary gains (rel=): nothing is clipped
    double count = 0;
    for (size_t r = 0; r < std::min(n, kCwlDepth); ++r) {
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

}  // namespace

bool is_cwl_kind(MeasureKind kind) { return kind >= MeasureKind::cwl_rbp && kind <= MeasureKind::cwl_nerr11; }

namespace {

// The same user model and gains: only the figure picked differs.
bool same_model(const Measure& a, const Measure& b) {
    return a.kind == b.kind && a.parameter == b.parameter && a.cutoff == b.cutoff && a.parameters[1] == b.parameters[1] &&
           a.parameters[2] == b.parameters[2] && a.parameters[3] == b.parameters[3];
}

}  // namespace

double cwl_value(const Measure& measure, const double* grades, size_t n, uint64_t query_serial, CwlScratch& scratch) {
    if (measure.parameters.size() != 4) return std::numeric_limits<double>::quiet_NaN();
    const double figure = measure.parameters[0];
    const auto index = static_cast<size_t>(figure >= 0 && figure <= static_cast<double>(kCwlClippedFigure) ? figure : 0);
    if (index == kCwlClippedFigure) return clipped_grades(measure, grades, n);
    if (scratch.query_serial != query_serial) {
        scratch.entries.clear();
        scratch.query_serial = query_serial;
    }
    size_t at = 0;
    while (at < scratch.entries.size() && !same_model(*scratch.entries[at].measure, measure)) ++at;
    if (at == scratch.entries.size()) {
        scratch.entries.push_back(CwlScratch::Entry{&measure, false, figures(measure, grades, n, 0.0, scratch), {}});
    }
    if (index < 5) return pick(scratch.entries[at].lower, index);
    if (!scratch.entries[at].has_upper) {
        scratch.entries[at].upper = figures(measure, grades, n, 1.0, scratch);
        scratch.entries[at].has_upper = true;
    }
    return pick(scratch.entries[at].upper, index - 5) - pick(scratch.entries[at].lower, index - 5);
}

}  // namespace evalcore
