// trec_eval 10's preference measures (`-R prefs`, `-R qrels_prefs`): prefs_num_prefs_poss,
// prefs_num_prefs_ful, prefs_num_prefs_ful_ret, prefs_simp, prefs_pair, prefs_avgjg,
// prefs_avgjg_Rnonrel and their _ret and _imp forms, from the counts form_prefs_counts.c
// makes of a query's judgment groups (docs/measures.md). A query's judged documents get
// internal ranks: the retrieved ones 0, 1, ... in rank order (score descending, then document
// ID ascending, that file's own tie order), the others after them in byte order. A group
// with one sub-group keeps its equivalence classes (rel_level descending, ranks ascending);
// one with several is a set of preferences closed under transitivity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runs/evaluation.hpp"
#include "runs/measures.hpp"
#include "runs/prefs_records.hpp"

namespace evalcore {

// Whether a kind is one of the preference measures (scored only with prefs judgments).
bool is_preference_kind(MeasureKind kind);

// One judgment group's counts (trec_eval's JG): the possible counts include the fulfilled.
struct PreferenceGroup {
    int64_t ful_ret = 0, poss_ret = 0, ful_imp = 0, poss_imp = 0, notoccur = 0;
    int64_t rel = 0, rel_ret = 0, nonrel = 0, nonrel_ret = 0;
    std::vector<std::vector<int64_t>> classes;         // one sub-group: ranks per rel_level (else empty)
    std::vector<std::pair<int64_t, int64_t>> pairs;    // several: the closed preferences (better, worse)
    std::map<int64_t, double> level;                   // several: each document's rel_level
};

// Scores one query at a time against its preferences (it reuses its buffers).
class PreferenceScorer {
public:
    PreferenceScorer(const std::vector<Measure>& measures, const RunOptions& options);

    // Query `query` of `prefs` against the ranking docs[0..count) (scores may be null: in rank
    // order); one value per measure to `values`.
    void score(const Preferences& prefs, size_t query, const std::string_view* docs, const double* scores,
               size_t count, double* values);

private:
    void count(const Preferences& prefs, size_t query, const std::string_view* docs, const double* scores,
               size_t count);
    double value(MeasureKind kind) const;
    double per_group(MeasureKind kind) const;
    double pair_share(int regions) const;

    const std::vector<Measure>& measures_;
    RunOptions options_;
    std::vector<PreferenceGroup> groups_;
    // trec_eval's counts array, sparse: (better, worse) -> preferences over all groups, kept
    // in its unsigned short (wrapping at 2^16 as there).
    std::map<std::pair<int64_t, int64_t>, uint16_t> counts_;
    int64_t judged_ret_ = 0;
};

// Scores a run (grouped by query) against preferences: the judged queries of the run in run
// order, then (options.missing_zero) the judged queries it lacks, as empty rankings.
RunResults evaluate_preferences(const Preferences& prefs, const QueryGroups& run, const std::vector<Measure>& measures,
                                const RunOptions& options);

}  // namespace evalcore
