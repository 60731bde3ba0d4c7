// The per-query measures of bulk run evaluation: docs/contract.md §2's definitions (precision, recall,
// reciprocal rank, truncated AP, nDCG) at any cutoff, and trec_eval 10's definitions of the
// measures ranking-evaluate lacks (counts, R-precision, bpref, interpolated precision,
// success, set measures), ir_measures' Judged and gdeval's ERR, over one query's ranking
// and judgments. docs/measures.md defines each.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "common/id_table.hpp"
#include "runs/gain_measures.hpp"
#include "runs/compat_measure.hpp"  // issue 25 item 4
#include "runs/cwl_measures.hpp"
#include "runs/tie_average.hpp"

namespace evalcore {

// In the order the Python layer numbers them (run_evaluation.MEASURE_KINDS).
enum class MeasureKind : uint8_t {
    precision,
    recall,
    reciprocal_rank,
    average_precision,
    ndcg,
    num_ret,                 // retrieved documents
    num_rel,                 // relevant judgments
    num_rel_ret,             // relevant documents retrieved
    r_precision,             // precision at rank R
    bpref,                   // Buckley and Voorhees' bpref, as trec_eval computes it
    interpolated_precision,  // at the recall point `parameter` (trec_eval 10's rounding)
    success,                 // a relevant document in the top k
    set_precision,           // over the whole ranking
    set_recall,
    set_f,                   // trec_eval's set_F: (x + 1)PR / (xP + R), x = `parameter`
    judged,                  // share of the top min(k, N) documents that are judged
    err,                     // expected reciprocal rank (Chapelle et al.), gdeval's grade mapping
    // trec_eval 10's gain measures (runs/gain_measures.hpp; Measure.gains: its level=gain pairs)
    trec_bin_g,
    trec_g,
    trec_dcg,
    trec_ideal_dcg,
    trec_ndcg,       // ndcg with gain parameters (-m ndcg.1=3,2=7)
    trec_ndcg_rel,
    trec_rndcg,
    // trec_eval's measures derived from the others (cpp/runs/derived_measures.cpp):
    gm_ap,                   // ln(max(AP, 0.00001)): gm_map's per-query value (the summary: exp of the mean)
    gm_bpref,                // ln(max(bpref, 0.00001))
    utility,                 // p1 a + p2 b + p3 c + p4 d over the contingency table, p = `parameters`
    eleven_point_average,    // 11pt_avg: interpolated precision averaged over the recall points `parameters`
    relative_precision,      // relative_P: hits in the top k / min(k, R)
    set_relative_precision,  // set_relative_P: relevant retrieved / min(N, R)
    set_map,                 // (relevant retrieved)^2 / (N R)
    num_q,                   // 1 per query (the summary: the number of queries)
    run_id,                  // 0 per query, as pytrec_eval gives (the CLI prints the run's tag)
    // issue 23, judgment groups (trec_eval -R qrels_jg; runs/jg_measures.hpp scores them):
    map_avgjg,               // map averaged over a query's judgment groups
    p_avgjg,                 // P at `cutoff`, averaged over the groups
    rprec_mult_avgjg,        // precision at `parameter` times R, averaged over the groups
    // trec_eval 10's rank-based measures (cpp/runs/rank_measures.hpp):
    num_nonrel_judged_ret,   // judged non-relevant documents retrieved
    r_precision_mult,        // precision at rank (long)(`parameter` * R + 0.9)
    unjudged,                // share of the top k documents not judged (trec_eval's unj)
    rbp,                     // rank-biased precision, persistence `parameter`
    rbp_residual,            // rbp's residual over unjudged documents (trec_eval's rbp_resid)
    yaap,                    // Robertson's yet another average precision
    inferred_ap,             // Yilmaz and Aslam's infAP, as trec_eval computes it
    rank_grade,              // the grade at rank `cutoff` (NaN: unjudged, or past N): trec_eval's relstring
    // issue 23, preferences (trec_eval -R prefs / qrels_prefs; runs/prefs_measures.hpp scores them):
    prefs_num_prefs_poss,
    prefs_num_prefs_ful,
    prefs_num_prefs_ful_ret,
    prefs_simp,
    prefs_pair,
    prefs_avgjg,
    prefs_avgjg_rnonrel,
    prefs_simp_ret,
    prefs_pair_ret,
    prefs_avgjg_ret,
    prefs_avgjg_rnonrel_ret,
    prefs_simp_imp,
    prefs_pair_imp,
    prefs_avgjg_imp,
    // issue 25 item 2, the C/W/L family (cwl_eval's; runs/cwl_measures.hpp scores them):
    cwl_rbp,
    cwl_inst,
    cwl_insq,
    cwl_bpm,
    cwl_sdcg,
    cwl_nerr8,
    cwl_nerr9,
    cwl_nerr10,
    cwl_nerr11,
    cwl_bpmd,  // issue 25 item 2, cwl2: cwl_eval's dynamic BPM (BPMDCWLMetric)
    // issue 25 item 1, diversity (ndeval's measures; diversity/diversity_measures.hpp):
    alpha_dcg,
    alpha_ndcg,
    err_ia,
    nerr_ia,
    nrbp,
    nnrbp,
    p_ia,
    ap_ia,
    st_recall,
    // issue 25 item 4, the remaining common names (runs/compat_measure.hpp):
    compat,                  // Clarke et al.'s compatibility, persistence `parameter`, normalized if parameters[0] != 0
    accuracy,                // ir_measures' Accuracy: P(a relevant document above a non-relevant one), top `cutoff`
    hits,                    // ranx's hits: relevant documents in the top `cutoff`
    f1,                      // ranx's f1: 2 P R / (P + R) at `cutoff`, P's denominator the cutoff
    ranx_rbp,                // ranx's graded rbp: (1 - p) * sum of grade * p^(r-1) over grades >= the level
    // issue 25 item 4 (h25-ncg): Jarvelin and Kekalainen's normalized cumulated gain, nDCG's
    // gain sets with every discount 1 (Gains.discounted false)
    ncg,
    last = ncg,
};

// cutoff 0: the whole ranking (the Python layer decides which kinds take one).
struct Measure {
    MeasureKind kind;
    int64_t cutoff;
    double relevant_at_least = std::nan("");  // this measure's relevance level; NaN: the run's
    std::vector<std::pair<double, double>> gains;  // nDCG: grade -> gain (others keep their grade); empty: the run's gain
    double parameter = 0;
    std::vector<double> parameters;  // a measure's list of numbers (trec_eval's -m NAME.x,y,...), empty if none
};

// Whether a kind reads the whole ranking whatever its cutoff.
bool reads_whole_ranking(MeasureKind kind);

// Issue 25 item 3: how documents of equal score are ordered (all but by_id need scores).
enum class TieRule : uint8_t {
    by_id,        // doc ID descending (trec_eval), or the input order when ties_by_score is false
    average,      // the expectation over every order of each tied group (runs/tie_average.hpp)
    optimistic,   // grade descending within a tied group (unjudged last), then doc ID descending
    pessimistic,  // grade ascending within a tied group (unjudged first), then doc ID descending
};

// A finite score as a key whose unsigned order is the scores' order, descending (-0 and 0
// are one score, as they compare equal).
inline uint64_t descending_score_key(double score) {
    if (score == 0) score = 0;  // -0 → +0
    uint64_t bits;
    std::memcpy(&bits, &score, sizeof bits);
    const uint64_t ascending = (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
    return ~ascending;
}

struct RunOptions {
    double relevant_at_least = 1;  // > 0, so a grade of 0 or below is never relevant
    bool exponential = false;      // gain 2^g - 1 instead of g
    bool ties_by_score = true;     // sort by score descending, then doc ID descending (trec_eval)
    bool missing_zero = false;     // judged queries absent from the run count as empty rankings
    // These two change the ranking itself, before any measure reads it (trec_eval's -M and -J):
    int64_t max_retrieved = -1;    // >= 0: only the first max_retrieved ranks count; -1: all
    bool judged_only = false;      // then drop documents without a judgment of grade >= 0, ranks closing up
    TieRule tie_rule = TieRule::by_id;  // issue 25 item 3 (with ties_by_score true)
};

// One query's inputs: its judgments and its ranking (scores may be null: already in rank order).
struct QueryData {
    const std::string_view* judged_docs;
    const double* grades;
    size_t judged_count;
    const std::string_view* docs;
    const double* scores;
    size_t doc_count;
    // Optional: a hash of every judged and of every ranked ID, taken when the IDs were read
    // (later they may be scattered over the input). Both given: from any one function that
    // gives equal IDs equal hashes (the Python bindings pass str's cached hashes). Ranked
    // ones alone: IdTable::hash, and the judged IDs are hashed with it here. Judged ones
    // alone are not used.
    const uint64_t* judged_hashes = nullptr;
    const uint64_t* doc_hashes = nullptr;
};

// Scores one query at a time; one per thread (it reuses its buffers, so nothing is allocated
// per query once they have grown).
class QueryScorer {
public:
    QueryScorer(const std::vector<Measure>& measures, const RunOptions& options);

    // Writes one value per measure to `values`; NaN where the measure is undefined
    // (docs/measures.md: e.g. no relevant judgment for recall, RR and AP; zero ideal DCG).
    void score(const QueryData& query, double* values);

private:
    // What the measures at one relevance level share, per query.
    struct Level {
        double threshold = 1;
        int64_t relevant = 0;  // R
        int64_t judged_nonrelevant = 0;
        size_t first_relevant = 0;  // rank; 0: none in the ranks read
        std::vector<int64_t> hits;  // prefix over ranks 0..n
        std::vector<double> ap_sum;
        // For iprec_at_recall and 11pt_avg, made on the first use in a query (score_level
        // clears `interpolation_ready`): best_from[i], the highest precision at rank i or
        // below; hit_rank[k], the rank of the k-th relevant document retrieved. One walk per
        // query where each of their 22 points walked the ranking (perf: 12 % of score's samples).
        mutable bool interpolation_ready = false;
        mutable std::vector<double> best_from;
        mutable std::vector<size_t> hit_rank;
    };
    // What the nDCG measures with one gain mapping share, per query.
    struct Gains {
        const std::vector<std::pair<double, double>>* map = nullptr;  // null: the run's gain option
        int64_t ideal_depth = 0;                            // -1: all judgments
        bool discounted = true;  // false: NCG's cumulated gain (every discount 1; issue 25 item 4)
        std::vector<double> dcg, ideal_gains, ideal_dcg;
    };

    static Level make_level(double threshold) {
        Level level;
        level.threshold = threshold;
        return level;
    }
    static Gains make_gains(const std::vector<std::pair<double, double>>* map, bool discounted) {
        Gains gains;
        gains.map = map;
        gains.discounted = discounted;
        return gains;
    }
    double gain(double grade, const Gains& gains) const;
    void rank_order(const QueryData& query, size_t needed);
    size_t rank(const QueryData& query);
    size_t rank_judged_only(const QueryData& query, size_t kept);
    const uint32_t* find_judged(const QueryData& query, uint32_t at) const;
    void score_level(Level& level, const QueryData& query, size_t n);
    void score_gains(Gains& gains, const QueryData& query, size_t n);
    double value(const Measure& measure, const Level& level, const Gains& gains, const QueryData& query, size_t n);
    double interpolated_precision(const Level& level, double recall_point, size_t n) const;
    double bpref(const Level& level, size_t n) const;
    double err(size_t depth) const;
    double derived(const Measure& measure, const Level& level, size_t n);  // derived_measures.cpp
    double eleven_point_average(const Level& level, const std::vector<double>& points, size_t n);
    double discount(size_t rank);  // log2(rank + 1), from the C library, cached
    // issue 25 item 3 (tie_measures.cpp): the order with grades breaking ties, the tied groups
    // of the ranks read, and a measure's expectation over the orders of its groups (false: the
    // measure does not depend on the order within groups; its value is the plain one).
    void rank_order_by_grade(const QueryData& query);
    void tie_bounds(const QueryData& query, size_t n);
    bool tie_average_value(const Measure& measure, const Level& level, const Gains& gains, const QueryData& query,
                           size_t n, double& out);

    const std::vector<Measure>& measures_;
    RunOptions options_;
    int64_t deepest_ = 0;  // the ranks any measure reads; 0: all of them
    size_t retrieved_ = 0;  // this query's ranking length N, after max_retrieved and judged_only
    bool has_ndcg_ = false;
    std::vector<Level> levels_;
    std::vector<Gains> gain_sets_;
    std::vector<uint16_t> level_of_, gains_of_;  // per measure
    IdTable judged_;
    std::vector<uint32_t> order_;
    // What the rank sort sorts: each document's score as an unsigned key that orders as
    // the scores do, descending, and its position (no indirection per comparison).
    struct RankKey {
        uint64_t key;
        uint32_t at;
    };
    std::vector<RankKey> keys_;
    std::vector<double> rank_grades_;     // per rank 1..n (index r - 1): the grade, NaN if unjudged
    std::vector<int64_t> judged_prefix_;  // judged documents in ranks 1..r
    std::vector<double> discounts_;
    GainScratch gain_scratch_;
    CwlScratch cwl_scratch_;  // issue 25 item 2 (runs/cwl_measures.hpp)
    uint64_t query_serial_ = 0;  // counts the queries scored: 1 for the first
    std::vector<int64_t> cutoffs_;  // 11pt_avg's points as numbers of relevant documents
    // issue 25 item 3, ties: the input position of each rank read (after -J), the tied groups'
    // bounds, each rank's gain for nDCG, the grades of the input documents for the grade orders.
    std::vector<uint32_t> ranked_at_;
    std::vector<size_t> tie_bounds_;
    std::vector<double> tie_gains_, input_grades_;
    TieScratch tie_scratch_;
    // issue 25 item 4, Compat: each judged document's rank and ideal-order score, and its buffers.
    double compat(const Measure& measure, const QueryData& query, size_t n);
    double ranx_rbp(double threshold, double p, size_t n);  // ties="average" too (issue 25 item 3)
    std::vector<size_t> compat_ranks_;
    std::vector<double> compat_keys_;
    CompatScratch compat_scratch_;
};

}  // namespace evalcore
