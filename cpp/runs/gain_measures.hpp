// trec_eval 10's gain-based measures that read a table of gains per relevance level: binG, G,
// dcg, ideal_dcg, ndcg with gain parameters (`-m ndcg.1=3,2=7`), ndcg_rel and Rndcg
// (m_binG.c, m_G.c, m_ndcg.c, m_ndcg_rel.c, m_Rndcg.c, gain_init.c). docs/measures.md defines
// each; the twin is python/evalcore/reference/runs/gain_measures.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace evalcore {

enum class MeasureKind : uint8_t;

// A relevance level as trec_eval reads it: a grade's integer part (atol of its text), -2 for
// a judged grade below 0 (in the pool, unjudged), -1 for a document without a judgment.
double trec_level(double grade);

// Levels up to this one are tabled; a query with a higher grade gets NaN for these measures
// (trec_eval allocates an entry for every level from 0 to the highest).
constexpr double max_trec_level = 1 << 20;

// One query's inputs to the gain measures: its ranking's grades (NaN: unjudged), after -M
// and -J, and its judgments' grades.
struct GainQuery {
    const double* rank_grades;
    size_t retrieved;
    const double* judged_grades;
    size_t judged_count;
    double threshold;   // the measure's relevance level (binG, Rndcg)
    int64_t relevant;   // judgments at or above it
    uint64_t serial;    // which query this is: the same for every measure of one query, never 0
    // issue 25 item 3, ties="average": the tied groups of the ranking (runs/tie_average.hpp's
    // bounds, tie_groups + 1 of them); null: the ranking as it is. binG, dcg, ideal_dcg, ndcg,
    // Rndcg, rbp and ndcg_rel (gains of 0 or more on levels 0 and up) then give their expectation
    // over the orders of the groups; G, which the Python layer refuses with ties="average", NaN.
    const size_t* tie_bounds = nullptr;
    size_t tie_groups = 0;
};

// What the measures reuse from query to query (no allocation once grown).
struct GainScratch {
    struct Entry {
        double level;
        int64_t count;
        double gain;
    };
    std::vector<int64_t> counts;
    std::vector<Entry> entries, sort_buffer;
    std::vector<double> result_gains;
    std::vector<double> tied_gains;  // ties="average": result_gains replaced by their groups' means
    // The query and the gain parameters the table above was built for (and whether it could
    // be): the six gain measures of all_trec share one table per query instead of building
    // it six times (perf: the build was a fifth of QueryScorer::score's samples).
    uint64_t built_serial = 0;
    std::vector<std::pair<double, double>> built_pairs;
    bool built = false;
};

// One measure's value for one query: trec_eval's value where trec_eval sets one, NaN where
// it leaves its initial 0 (the measure is undefined there: docs/measures.md). `pairs` are
// the (level, gain) parameters in the order given, `kind` one of the gain kinds.
double gain_measure(MeasureKind kind, const std::vector<std::pair<double, double>>& pairs, const GainQuery& query,
                    GainScratch& scratch);

// trec_eval 10's rbp (m_rbp.c): the persistence p and the gain table of `pairs` (levels named
// in rbp.1=2,...; the others their own number), rescaled to [0, 1] when a gain is outside it.
double rbp_with_gains(const std::vector<std::pair<double, double>>& pairs, const GainQuery& query,
                      GainScratch& scratch, double p);

}  // namespace evalcore
