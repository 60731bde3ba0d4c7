// The C/W/L family (Moffat et al.'s framework, as cwl_eval 1.0.12 computes it): RBP, INST, INSQ,
// BPM (static and dynamic), SDCG, NERR (equations 8-11), each with the five expected figures
// cwl_eval reports (EU, ETU, EC, ETC, ED) and their residuals. docs/measures.md defines each.
//
// A measure's user model is a continuation vector C over cwl_eval's depth (1000 ranks by
// default, its --max_depth: the ranking truncated or padded there): W_i = prod_{j<i} C_j /
// sum_k prod_{j<k} C_j, the stopping probabilities L_i = prod_{j<i} C_j (1 - C_i). Costs: every
// ranked item costs `cost` (a cost file's for the run's one element type) or, unknown, max_cost
// (min_cost in the upper bound), as the padding does. Gains: a judged grade g as ir_measures
// hands it to cwl_eval, max(g, 0) then either binary (>= rel) or clipped to [min_rel, max_rel]
// and scaled to [0, 1] (or, raw, cwl_eval's --max_gain reading: clipped to [0, max_rel], not
// scaled); an unjudged rank and the padding past the ranking gain 0 (the lower bound; 1, or
// max_gain raw, for the upper bound the residuals measure). Sums run in rank order, in the
// reference twin's order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace evalcore {

// (runs/measures.hpp, which includes this header for CwlScratch)
enum class MeasureKind : uint8_t;
struct Measure;

// cwl_eval's max_depth default: its vectors all have this length unless depth= says otherwise.
constexpr size_t kCwlDepth = 1000;
// The deepest depth= (python/evalcore/runs/cwl_names.py's CWL_MAX_DEPTH).
constexpr size_t kCwlMaxDepth = 1000000;
// measure.parameters' length for every C/W/L measure (cwl_value lists them).
constexpr size_t kCwlParameterCount = 12;

bool is_cwl_kind(MeasureKind kind);

// Issue 25 item 3 (h25-ties3): the C/W/L measures whose continuation vector reads no gain (RBP,
// INSQ, SDCG). Every figure of theirs is then linear in the gain at each rank under weights
// fixed by the model and the costs (which do not depend on the order), so the expectation of a
// figure over the orders of each tied group is the figure of each rank's group-mean gain:
// ties="average" takes them, exactly. INST, BPM, BPMD and NERR's continuations read the gains.
bool is_cwl_linear_in_gains(MeasureKind kind);

// ties="average"'s tied groups of the ranking cwl_value reads (runs/tie_average.hpp's bounds):
// ranks bounds[g] .. bounds[g + 1] - 1 hold group g; a null `bounds` means no ties ("score").
struct CwlTies {
    const size_t* bounds = nullptr;
    size_t groups = 0;
};

// measure.parameters[0] past the ten figures: the number of ranks (of the first `depth`)
// whose judged grade graded gains clip (runs/cwl_clipping.py's hidden measures, issue 25 item 2).
constexpr size_t kCwlClippedFigure = 10;

// cwl_eval's five figures of one measure over one query, at one bound.
struct CwlFigures {
    double eu = 0, etu = 0, ec = 0, etc = 0, ed = 0;
};

// What one scorer reuses across queries (no allocation per query once grown). The figures of
// each measure are kept for the query being scored: a measure's five figures and residuals,
// named apart, are computed once (bench/bench_cwl.py: 5 times fewer walks over the 1000 ranks).
struct CwlScratch {
    struct Entry {
        const Measure* measure;  // the first measure of its model (kind, parameter, cutoff, gains)
        bool has_upper;
        CwlFigures lower, upper;
    };
    std::vector<double> gains, costs, continuation;
    std::vector<Entry> entries;
    uint64_t query_serial = 0;  // the query `entries` hold figures of
};

// One C/W/L figure of one query. `grades[r]` is the grade at rank r + 1 (NaN: unjudged), n ranks.
// measure.parameter: p (RBP, NERR10) or T (INST, INSQ, BPM, BPMD, NERR11); measure.cutoff: k
// (SDCG, NERR8, NERR9) or K (BPM, BPMD); measure.parameters, kCwlParameterCount of them:
// (figure 0..9: EU, ETU, EC, ETC, ED, then their residuals, 10 the count of clipped grades;
// min_rel; max_rel; rel, 0 for graded gains; depth; raw, 1 for max_gain=; cost, NaN when
// unknown; max_cost; min_cost; hb; hc; gain_med (the last three BPMD's, 0 otherwise)).
// `query_serial` tells queries apart (QueryScorer's count of the queries it scored). With `ties`
// (ties="average", a measure is_cwl_linear_in_gains takes), each rank's gain is its tied group's
// mean gain, the group taken whole (its ranks past `depth` too), and the count of clipped
// grades counts every rank of the groups that begin within `depth` (the documents some order
// puts there, whose clipping the expectation reads).
double cwl_value(const Measure& measure, const double* grades, size_t n, uint64_t query_serial, CwlScratch& scratch,
                 CwlTies ties = CwlTies{});

}  // namespace evalcore
