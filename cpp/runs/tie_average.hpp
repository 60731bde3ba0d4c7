// Issue 25 item 3, ties="average": McSherry and Najork's tie-aware measures (ECIR 2008), the
// exact expectation of a measure over every order of each group of tied documents (each order
// equally likely), the groups staying where their scores put them. docs/measures.md ("Ties")
// derives each; the twin is python/evalcore/reference/runs/tie_average.py, which performs the
// same double operations in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace evalcore {

// One query's ranking cut into tied groups: ranks bounds[g] .. bounds[g + 1] - 1 (0-based)
// hold group g; bounds[0] = 0 and bounds[groups] = n. grades[r]: the grade at rank r + 1
// (NaN: unjudged).
struct TiedRanking {
    const double* grades;
    size_t n;
    const size_t* bounds;
    size_t groups;
};

// Reused from query to query (nothing allocated per query once grown).
struct TieScratch {
    std::vector<double> values;    // ERR: a group's distinct satisfaction probabilities > 0
    std::vector<int64_t> counts;   // how many documents have each
    std::vector<double> averages;  // ERR: the mean over i-subsets of the product of (1 - p)
    std::vector<double> weighted;  // ERR: per position of the group, the sum over documents of p times that mean
    std::vector<double> shares;    // rbp_resid: each rank's expected share of an unjudged document
    // (values: also Accuracy's hypergeometric weights of the group its cutoff cuts)
};

// Which documents a count counts (unjudged: not in the qrels, or a negative grade, as trec_eval's
// unj and rbp_resid read it).
enum class Counted : uint8_t { relevant, judged, unjudged };

// E[number of the first `depth` ranks holding a counted document]: the whole groups above the
// group the cutoff falls in, plus j c / m for that group (j of its m ranks above the cutoff,
// c counted documents: the hypergeometric mean).
double expected_count(const TiedRanking& t, size_t depth, Counted counted, double threshold);

// P(a relevant document in the first `depth` ranks).
double expected_success(const TiedRanking& t, size_t depth, double threshold);

// E[1 / rank of the first relevant document, 0 past `depth`].
double expected_reciprocal_rank(const TiedRanking& t, size_t depth, double threshold);

// E[sum over relevant ranks r <= depth of hits(r) / r]: AP's numerator.
double expected_ap_sum(const TiedRanking& t, size_t depth, double threshold);

// E[DCG at `depth`]: each rank's gain is its group's mean gain. gains[r]: the gain at rank
// r + 1 (0 unjudged); discounts[r]: log2(r + 2), or null for none (NCG's cumulated gain).
double expected_dcg(const TiedRanking& t, size_t depth, const double* gains, const double* discounts);

// E[ERR at `depth`] with gdeval's satisfaction probabilities (measures.cpp's err).
double expected_err(const TiedRanking& t, size_t depth, TieScratch& scratch);

// Each rank's value replaced by the mean of its tied group's values (summed in rank order, then
// divided by the group's size): E[the value at that rank] over the orders of the group. A
// measure linear in the values at fixed ranks (DCG, RBP) takes its expectation from these.
void replace_by_group_means(const size_t* bounds, size_t groups, double* values);

// trec_eval's bpref (measures.cpp's bpref) in expectation: a relevant document of a group with q
// judged non-relevant documents has, in a uniformly random order, each of 0..q of them above it
// with probability 1 / (q + 1) (its place among those q + 1 documents is uniform).
double expected_bpref(const TiedRanking& t, double threshold, int64_t relevant, int64_t judged_nonrelevant);

// trec_eval's rbp_resid (rank_measures.hpp) in expectation: linear in whether each rank is
// unjudged, whether any is being the same in every order.
double expected_rbp_residual(const TiedRanking& t, double p, TieScratch& scratch);

// Issue 25 item 3 (h25-ties3): ir_measures' Accuracy (rank_measures.hpp's accuracy) over the first
// `depth` ranks in expectation. A whole group above the cutoff with c relevant and q other
// documents adds c q / 2 inverted pairs on average (each pair's two orders equally likely); the
// group the cutoff cuts puts x of its c relevant documents above it with the hypergeometric
// probability, and given x its j ranks there are in a uniform order: E[S | x] = S0 + x M0 +
// x (j - x) / 2, over the denominator (M0 + j - x)(A0 + x). NaN (not defined) when an order
// leaves the first `depth` ranks without a relevant or without another document, as the plain
// measure is NaN there.
double expected_accuracy(const TiedRanking& t, size_t depth, double threshold, TieScratch& scratch);

}  // namespace evalcore
