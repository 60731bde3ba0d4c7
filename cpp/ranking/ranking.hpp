// ranking-evaluate (docs/contract.md §2): schema, semantic checks, metrics, evidence and provenance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/evaluation.hpp"
#include "json/emitter.hpp"
#include "json/document.hpp"
#include "common/limits.hpp"
#include "json/output_keys.hpp"
#include "common/query_progress.hpp"

namespace evalcore {

// The request after the schema checks (phase 2): node indices into the request Document.
struct Judgment {
    uint32_t id;  // string node
    double grade;
};

struct Query {
    uint32_t id = 0;         // string node
    uint32_t retrieved = 0;  // array node of string nodes
    size_t judgments_begin = 0, judgments_end = 0;
};

struct RankingRequest {
    std::vector<Query> queries;
    std::vector<Judgment> judgments;  // all queries', in order
    double k_number = 10;             // as given (3.0 stays a number for the canonical form)
    int64_t k = 10;
    double relevant_at_least = 1;
    bool exponential = false;
    bool unjudged_error = true;
};

struct RankedDocument {
    uint32_t id;  // string node of the request
    double grade;
    bool judged;
    bool relevant;
};

constexpr int ranking_metric_count = 5;
constexpr Key ranking_metric_keys[ranking_metric_count] = {Key::precisionAtK, Key::recallAtK, Key::reciprocalRankAtK,
                                                           Key::averagePrecisionAtK, Key::ndcgAtK};

struct QueryOutcome {
    uint32_t id;  // string node of the request
    double values[ranking_metric_count];
    bool defined[ranking_metric_count];
    int64_t relevant_count, retrieved_at_k, hits, unjudged;
    double dcg, ideal_dcg;
    size_t missed_begin, missed_end;  // into RankingOutcome::missed
    size_t ranked_begin, ranked_end;  // into RankingOutcome::ranked
};

struct RankingOutcome {
    int64_t k = 0;
    std::vector<QueryOutcome> queries;
    std::vector<RankedDocument> ranked;
    std::vector<uint32_t> missed;  // string nodes
    double macro[ranking_metric_count] = {};
    int64_t defined_counts[ranking_metric_count] = {};
    size_t conventions_variant = 0;  // 2 * (gain is exponential) + (unjudged is nonrelevant)
};

// The steps of one evaluation; each is thread-safe and needs no Python.
//
// Phase 2 on a request that RequestReader produced: throws SCHEMA_VIOLATION.
RankingRequest ranking_read(const Document& doc, const Limits& limits);
// Sizes every part of the outcome, so that computing never moves what is already written.
RankingOutcome ranking_layout(const Document& doc, const RankingRequest& request);
// Phases 3 and 4: throws the first semantic fault in document order. Each finished query
// is published to `progress` (if given) for a consumer that emits while this computes;
// nothing is published once a fault is found, and the count reaches the number of queries
// only when the macro values are ready.
void ranking_compute(const Document& doc, const RankingRequest& request, RankingOutcome& outcome,
                     QueryProgress* progress = nullptr);

// SHA-256 of the canonical request (RFC 8785, defaults applied): provenance.inputSha256.
std::string ranking_input_sha256(const Document& doc, const RankingRequest& request);

// Writes `result` (docs/contract.md §2 key order) through any emitter (json/emitter.hpp). Before each
// query's part and before the summary it calls out.await(n): the first n queries (all of
// them, for the summary) must be computed by then.
template <class Out>
void emit_ranking_result(const Document& doc, const RankingOutcome& outcome, const std::vector<std::string>& conventions,
                         Out& out) {
    out.begin_object(7);
    out.key(Key::profile);
    out.literal("supplied-ranking-evaluation-v1");
    out.key(Key::k);
    out.integer(outcome.k);
    out.key(Key::queryCount);
    out.integer(static_cast<int64_t>(outcome.queries.size()));
    out.key(Key::queries);
    out.begin_array(outcome.queries.size());
    for (size_t qi = 0; qi < outcome.queries.size(); ++qi) {
        out.await(qi + 1);
        const QueryOutcome& q = outcome.queries[qi];
        out.begin_object(14);
        for (int m = 0; m < ranking_metric_count; ++m) {
            out.key(ranking_metric_keys[m]);
            if (q.defined[m]) {
                out.number(q.values[m]);
            } else {
                out.null_value();
            }
        }
        out.key(Key::id);
        out.input_string(doc, q.id);
        out.key(Key::relevantJudgmentCount);
        out.integer(q.relevant_count);
        out.key(Key::retrievedAtKCount);
        out.integer(q.retrieved_at_k);
        out.key(Key::hitsAtK);
        out.integer(q.hits);
        out.key(Key::unjudgedAtKCount);
        out.integer(q.unjudged);
        out.key(Key::dcgAtK);
        out.number(q.dcg);
        out.key(Key::idealDcgAtK);
        out.number(q.ideal_dcg);
        out.key(Key::missedRelevantIds);
        out.begin_array(q.missed_end - q.missed_begin);
        for (size_t i = q.missed_begin; i < q.missed_end; ++i) out.input_string(doc, outcome.missed[i]);
        out.end();
        out.key(Key::ranking);
        out.begin_array(q.ranked_end - q.ranked_begin);
        for (size_t i = q.ranked_begin; i < q.ranked_end; ++i) {
            const RankedDocument& r = outcome.ranked[i];
            out.begin_object(5);
            out.key(Key::rank);
            out.integer(static_cast<int64_t>(i - q.ranked_begin + 1));
            out.key(Key::id);
            out.input_string(doc, r.id);
            out.key(Key::grade);
            if (r.judged) {
                out.number(r.grade);
            } else {
                out.null_value();
            }
            out.key(Key::relevant);
            out.boolean(r.relevant);
            out.key(Key::judged);
            out.boolean(r.judged);
            out.end();
        }
        out.end();
        out.end();
    }
    out.end();
    out.await(outcome.queries.size());
    out.key(Key::macro);
    out.begin_object(ranking_metric_count);
    for (int m = 0; m < ranking_metric_count; ++m) {
        out.key(ranking_metric_keys[m]);
        if (outcome.defined_counts[m] > 0) {
            out.number(outcome.macro[m]);
        } else {
            out.null_value();
        }
    }
    out.end();
    out.key(Key::definedQueryCounts);
    out.begin_object(ranking_metric_count);
    for (int m = 0; m < ranking_metric_count; ++m) {
        out.key(ranking_metric_keys[m]);
        out.integer(outcome.defined_counts[m]);
    }
    out.end();
    emit_conventions(conventions, out);
    out.end();
}

// Writes the compact JSON of `result` into `evaluation` (reusing its buffer), checks
// OUTPUT_LIMIT and fills output_sha256.
void ranking_serialize(const Document& request, const RankingOutcome& outcome, const ConventionsTable& conventions,
                       const Limits& limits, Evaluation& evaluation);

}  // namespace evalcore
