// The TREC Web track's diversity measures, as ndeval 4.5 computes them (through pyndeval):
// alpha-DCG and alpha-nDCG@k, ERR-IA and nERR-IA@k, NRBP and nNRBP, P-IA@k, AP-IA (ndeval's
// MAP-IA) and subtopic recall (strec@k). A document's gain at a rank is the sum, over the
// subtopics it is relevant to (grade >= the level), of (1 - alpha)^(times the subtopic was
// covered above it); the ideal ranking is ndeval's greedy one (each rank the document of
// the largest gain, ties to the larger document ID). docs/measures.md defines each one and
// the quirks kept (the first rank of alpha-DCG and ERR-IA is not normalised, as in ndeval).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "common/id_table.hpp"
#include "diversity/subtopic_judgments.hpp"
#include "runs/evaluation.hpp"
#include "runs/measures.hpp"

namespace evalcore {

// Whether a kind is one of the diversity measures (scored only with subtopic judgments).
bool is_diversity_kind(MeasureKind kind);

// What a diversity measure is computed with besides its cutoff: Measure::parameters holds
// (alpha, beta, judged_only as 0 or 1).
struct DiversitySetting {
    double level, alpha, beta;
    bool judged_only;
    bool operator==(const DiversitySetting& o) const {
        return level == o.level && alpha == o.alpha && beta == o.beta && judged_only == o.judged_only;
    }
};

// Scores one query at a time (it reuses its buffers across queries).
class DiversityScorer {
public:
    DiversityScorer(const std::vector<Measure>& measures, const RunOptions& options);

    // Query `query` of `judgments` against the ranking docs[0..count) (scores may be null:
    // in input order; doc_hashes, IdTable::hash of each document, may be null: taken here;
    // in_order, QueryGroups::in_order of each, may be null: checked here); one value per
    // measure to `values`.
    void score(const SubtopicJudgments& judgments, size_t query, const std::string_view* docs, const double* scores,
               const uint64_t* doc_hashes, const uint8_t* in_order, size_t count, double* values);

private:
    void rank(const std::string_view* docs, const double* scores, const uint8_t* in_order, size_t count);
    void judge(const SubtopicJudgments& judgments, size_t query, double level);
    void find_rows(const SubtopicJudgments& judgments, size_t query, const std::string_view* docs,
                   const uint64_t* doc_hashes);
    void ideal_gains(double alpha);
    void run_gains(double alpha, double beta, std::vector<double>& decays, bool judged_only, size_t depth);

    const std::vector<Measure>& measures_;
    RunOptions options_;
    std::vector<DiversitySetting> settings_;  // distinct settings, in order of first use
    std::vector<size_t> setting_of_;          // per measure
    std::vector<int64_t> depth_;              // per setting: the largest cutoff (at least 1)
    struct RankKey {
        uint64_t key;     // descending_score_key of the score
        size_t at;        // input position
        uint64_t prefix;  // the document ID's first 8 bytes (id_prefix), when sorting
    };
    std::vector<RankKey> keys_;
    std::vector<size_t> order_;  // the ranking: input positions in rank order
    // The query's judged documents (rows, as SubtopicJudgments numbers them), by ID (row_of_);
    // the judged documents of the ranking, with their rows. Then, at a level: the subtopics each row is
    // relevant to (positions in subtopic_ids_, ascending: the order ndeval adds them in),
    // and each subtopic's count.
    IdTable row_of_;
    std::array<uint64_t, 64> row_filter_{};  // bits the rows' hashes set (find_rows)
    struct JudgedRank {
        size_t rank;  // its position in the ranking (order_)
        uint32_t row;
    };
    std::vector<JudgedRank> judged_ranks_;  // the ranking's judged documents, in rank order
    struct PassedRank {
        size_t rank;
        uint64_t hash;  // its document's IdTable::hash
    };
    std::vector<PassedRank> passed_;  // (find_rows) the ranks row_filter_ lets through
    std::vector<uint64_t> row_prefixes_;  // each row's id_prefix (its ID's first 8 bytes)
    std::vector<uint32_t> candidates_;    // the ideal ranking's rows not picked yet
    // With up to 64 subtopics, those rows in classes by their subtopics (a bit mask of
    // positions in subtopic_ids_): class_rows_ by mask, then ID descending; each class's
    // rows not picked yet are class_rows_[next, end).
    struct ClassRow {
        uint64_t mask;
        uint32_t row;
    };
    struct RowClass {
        uint64_t mask;
        size_t next, end;
    };
    std::vector<ClassRow> class_rows_;
    std::vector<RowClass> classes_;
    std::vector<std::string_view> row_docs_;
    std::vector<std::pair<uint32_t, uint32_t>> pairs_;  // (row, subtopic) of each relevant judgment
    std::vector<size_t> row_offsets_;
    std::vector<uint32_t> row_subtopics_;
    std::vector<uint32_t> subtopic_ids_;
    std::vector<int64_t> relevant_of_;
    static constexpr uint32_t no_position = UINT32_MAX;
    std::vector<uint32_t> position_of_;  // by subtopic number: its position in subtopic_ids_ (judge), else no_position
    std::vector<size_t> cursor_;         // judge's next slot of each row
    // Gains at each rank of the ideal ranking and of the run, and the run's counts.
    std::vector<double> gain_left_, ideal_, run_;
    std::vector<uint8_t> covered_;
    std::vector<int64_t> covered_at_, pairs_at_, hits_;
    std::vector<double> precision_sums_;
    double ap_ia_ = 0.0;
    size_t run_length_ = 0;      // the ranks of the run (its judged documents only, with judged_only)
    double run_nrbp_sum_ = 0.0;  // sum of its gains times beta^rank
    std::vector<std::vector<double>> decays_;  // per setting: beta^rank, rank 0 on
    std::vector<double> run_dcg_, run_err_, ideal_dcg_, ideal_err_, unit_dcg_, unit_err_;
};

// Scores a run (grouped by query) against subtopic judgments: the judged queries of the run
// in run order, then (options.missing_zero) the judged queries it lacks, as empty rankings;
// the queries scored on up to `threads` threads (the results do not depend on them).
RunResults evaluate_diversity(const SubtopicJudgments& judgments, const QueryGroups& run,
                              const std::vector<Measure>& measures, const RunOptions& options, unsigned threads = 1);

}  // namespace evalcore
