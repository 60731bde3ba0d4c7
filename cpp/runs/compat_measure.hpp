// issue 25 item 4: Clarke, Vtyurina and Smucker's compatibility (TOIS 2021), as ir_measures' compat
// provider computes it: the rank-biased overlap, persistence p, of the ranking with an ideal ranking
// of the documents judged above 0 (grade descending, then run score descending, unretrieved ones
// scoring 0, then judgment order), to the depth max(N, R), optionally divided by the ideal
// ranking's own overlap. docs/measures.md defines it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace evalcore {

// One query's judged documents as Compat reads them: grade, rank (0-based; kUnranked if not in
// the ranking read) and the score the ideal ranking's ties are ordered by.
struct CompatQuery {
    const double* grades;
    const size_t* ranks;
    const double* score_keys;
    size_t judged_count;
    size_t ranking_length;  // N
};

constexpr size_t kUnranked = SIZE_MAX;

// Reused buffers (nothing is allocated per query once they have grown).
struct CompatScratch {
    std::vector<uint32_t> ideal;
    std::vector<int64_t> settled_at;  // documents in both prefixes from this depth on
};

// NaN when N and R are both 0 (the depth is 0); otherwise in [0, 1] when normalized.
double compatibility(const CompatQuery& query, double p, bool normalize, CompatScratch& scratch);

}  // namespace evalcore
