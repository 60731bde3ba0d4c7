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
};

// Which documents a count counts.
enum class Counted : uint8_t { relevant, judged };

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

}  // namespace evalcore
