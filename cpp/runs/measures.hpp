// The per-query measures of bulk run evaluation: SPEC §2's definitions (precision, recall,
// reciprocal rank, truncated AP, nDCG) at any cutoff, over one query's ranking and judgments.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/id_table.hpp"

namespace evalcore {

enum class MeasureKind : uint8_t { precision, recall, reciprocal_rank, average_precision, ndcg };

// cutoff 0: the whole ranking (RR, AP and nDCG only; the Python layer checks names).
struct Measure {
    MeasureKind kind;
    int64_t cutoff;
};

struct RunOptions {
    double relevant_at_least = 1;  // > 0, so a grade of 0 or below is never relevant
    bool exponential = false;      // gain 2^g - 1 instead of g
    bool ties_by_score = true;     // sort by score descending, then doc ID descending (trec_eval)
    bool missing_zero = false;     // judged queries absent from the run count as empty rankings
};

// One query's inputs: its judgments and its ranking (scores may be null: already in rank order).
struct QueryData {
    const std::string_view* judged_docs;
    const double* grades;
    size_t judged_count;
    const std::string_view* docs;
    const double* scores;
    size_t doc_count;
    // Optional: a hash of every judged and ranked ID, from one function that gives equal
    // IDs equal hashes (the Python bindings pass str's cached hashes); else IdTable::hash.
    const uint64_t* judged_hashes = nullptr;
    const uint64_t* doc_hashes = nullptr;
};

// Scores one query at a time; one per thread (it reuses its buffers, so nothing is allocated
// per query once they have grown).
class QueryScorer {
public:
    QueryScorer(const std::vector<Measure>& measures, const RunOptions& options);

    // Writes one value per measure to `values`; NaN where the measure is undefined (no
    // relevant judgment for recall, RR and AP; zero ideal DCG for nDCG).
    void score(const QueryData& query, double* values);

private:
    double gain(double grade) const;
    void rank_order(const QueryData& query, size_t needed);
    void sort_ideal_gains(size_t depth);
    double discount(size_t rank);  // log2(rank + 1), from the C library, cached

    const std::vector<Measure>& measures_;
    RunOptions options_;
    bool needs_ideal_ = false;
    int64_t ideal_depth_ = 0;  // -1: all judgments
    int64_t deepest_ = 0;      // the ranks any measure reads; 0: all of them
    IdTable judged_;
    std::vector<uint32_t> order_;
    std::vector<int64_t> hits_;      // prefix over ranks 0..n
    std::vector<double> ap_sum_, dcg_;
    std::vector<double> ideal_gains_, ideal_dcg_;
    std::vector<double> discounts_;
};

}  // namespace evalcore
