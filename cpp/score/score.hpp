// score (docs/contract.md §4): Mixpeek-compatible set scoring of predicted vs ground-truth IDs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "json/document.hpp"
#include "common/limits.hpp"
#include "json/output_keys.hpp"

namespace evalcore {

constexpr int score_metric_count = 4;  // precision, recall, f1, f2
constexpr Key score_metric_keys[score_metric_count] = {Key::precision, Key::recall, Key::f1, Key::f2};

struct IdRange {
    uint32_t begin, end;  // into ScoreRequest::ids
};

// A request after its checks. The IDs are views (UTF-8) of storage that outlives the
// scoring: the request Document, or the caller's str objects on the fast path.
struct ScoreRequest {
    std::vector<std::string_view> ids;
    std::vector<uint64_t> hashes;  // IdTable::hash of each ID (empty: computed when scoring)
    std::vector<IdRange> predicted, ground_truth;  // one of each per pair (one pair for the single form)
    std::vector<int> metrics;                      // indices into score_metric_keys, in request order
    bool has_k = false;
    int64_t k = 0;

    // Empties it, keeping the vectors' memory for the next request.
    void clear() {
        ids.clear();
        hashes.clear();
        predicted.clear();
        ground_truth.clear();
        metrics.clear();
        has_k = false;
        k = 0;
    }
};

struct ScoreOutcome {
    std::vector<std::array<double, score_metric_count>> per_item;
    std::array<double, score_metric_count> aggregate{};  // mean over items, summed in item order
};

// Phase 2 (schema, then the one-form rule) and phase 3 (lone surrogates), in document order.
ScoreRequest score_read(const Document& doc);
// Scores every pair, spread over `threads` threads; the result does not depend on them.
ScoreOutcome score_compute(const ScoreRequest& request, unsigned threads);
// The pieces, for a caller that scores a batch part by part as it arrives: pairs
// [begin, end) of `request` into out[0, end - begin) on this thread, then the mean of each
// metric over all of outcome.per_item (summed in item order) into outcome.aggregate.
void score_pairs(const ScoreRequest& request, size_t begin, size_t end, std::array<double, score_metric_count>* out);
void score_aggregate(ScoreOutcome& outcome);

// Writes Mixpeek's response {metrics, k, count, per_item, aggregate} through any emitter.
template <class Out>
void emit_score_response(const ScoreRequest& request, const ScoreOutcome& outcome, Out& out) {
    static constexpr const char* names[score_metric_count] = {"precision", "recall", "f1", "f2"};
    out.begin_object(5);
    out.key(Key::metrics);
    out.begin_array(request.metrics.size());
    for (int m : request.metrics) out.literal(names[m]);
    out.end();
    out.key(Key::k);
    if (request.has_k) {
        out.integer(request.k);
    } else {
        out.null_value();
    }
    out.key(Key::count);
    out.integer(static_cast<int64_t>(outcome.per_item.size()));
    out.key(Key::per_item);
    out.begin_array(outcome.per_item.size());
    // await(n): items [0, n) are scored (n = count + 1: the aggregate too), for an emitter
    // that runs while the scoring goes on; in batches, as each wait takes a lock.
    constexpr size_t batch = 1024;
    const size_t count = outcome.per_item.size();
    for (size_t i = 0; i < count; ++i) {
        if (i % batch == 0) out.await(std::min(count, i + batch));
        const auto& values = outcome.per_item[i];
        out.begin_object(request.metrics.size());
        for (int m : request.metrics) {
            out.key(score_metric_keys[m]);
            out.number(values[static_cast<size_t>(m)]);
        }
        out.end();
    }
    out.end();
    out.await(count + 1);
    out.key(Key::aggregate);
    out.begin_object(request.metrics.size());
    for (int m : request.metrics) {
        out.key(score_metric_keys[m]);
        out.number(outcome.aggregate[static_cast<size_t>(m)]);
    }
    out.end();
    out.end();
}

}  // namespace evalcore
