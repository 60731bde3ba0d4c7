#include "ranking/ranking.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/id_table.hpp"
#include "json/emitter.hpp"
#include "json/writer.hpp"
#include "json/sha256.hpp"
#include "json/schema.hpp"

namespace evalcore {
namespace {

// ---- phase 2: schema -----------------------------------------------------------------

void read_judgment(const SchemaChecker& schema, const Document& doc, uint32_t index, const Path& path,
                   RankingRequest& out) {
    const Node& node = schema.object(index, path, "a judgment", {"id", "grade"});
    Judgment judgment{0, 0.0};
    for (uint32_t m = 0; m < node.size; ++m) {
        size_t field = schema.member(node, m, path, "a judgment", {"id", "grade"});
        uint32_t value = doc.member_value(node, m);
        if (field == 0) {
            schema.string(value, path.child("id"), "a judgment id", 1, 80);
            judgment.id = value;
        } else {
            judgment.grade = schema.number(value, path.child("grade"), "grade", 0, 10);
        }
    }
    out.judgments.push_back(judgment);
}

void read_query(const SchemaChecker& schema, const Document& doc, uint32_t index, const Path& path,
                const Limits& limits, RankingRequest& out) {
    const Node& node = schema.object(index, path, "a query", {"id", "retrieved", "judgments"});
    Query query;
    for (uint32_t m = 0; m < node.size; ++m) {
        size_t field = schema.member(node, m, path, "a query", {"id", "retrieved", "judgments"});
        uint32_t value = doc.member_value(node, m);
        if (field == 0) {
            schema.string(value, path.child("id"), "a query id", 1, 80);
            query.id = value;
        } else if (field == 1) {
            Path at = path.child("retrieved");
            const Node& list = schema.array(value, at, "retrieved", 0, limits.retrieved_per_query, "retrievedPerQuery");
            for (uint32_t j = 0; j < list.size; ++j) {
                schema.string(doc.item(list, j), at.child(j), "a retrieved document id", 1, 80);
            }
            query.retrieved = value;
        } else {
            Path at = path.child("judgments");
            const Node& list = schema.array(value, at, "judgments", 0, limits.judgments_per_query, "judgmentsPerQuery");
            query.judgments_begin = out.judgments.size();
            for (uint32_t j = 0; j < list.size; ++j) read_judgment(schema, doc, doc.item(list, j), at.child(j), out);
            query.judgments_end = out.judgments.size();
        }
    }
    out.queries.push_back(query);
}

}  // namespace

RankingRequest ranking_read(const Document& doc, const Limits& limits) {
    SchemaChecker schema(doc);
    Path root;
    const Node& node = schema.object(0, root, "the request", {"queries"});
    RankingRequest request;
    for (uint32_t m = 0; m < node.size; ++m) {
        size_t field = schema.member(node, m, root, "the request", {"queries", "k", "relevantAtLeast", "gain", "unjudged"});
        uint32_t value = doc.member_value(node, m);
        switch (field) {
            case 0: {
                Path at = root.child("queries");
                const Node& list = schema.array(value, at, "queries", 1, limits.queries, "queries");
                request.queries.reserve(list.size);
                for (uint32_t i = 0; i < list.size; ++i) read_query(schema, doc, doc.item(list, i), at.child(i), limits, request);
                break;
            }
            case 1:
                request.k_number = schema.number(value, root.child("k"), "k", 1, static_cast<double>(limits.max_k), false, true, "maxK");
                request.k = static_cast<int64_t>(request.k_number);
                break;
            case 2:
                request.relevant_at_least = schema.number(value, root.child("relevantAtLeast"), "relevantAtLeast", 0, 10, true);
                break;
            case 3: request.exponential = schema.enumeration(value, root.child("gain"), "gain", {"linear", "exponential"}) == 1; break;
            default:
                request.unjudged_error =
                    schema.enumeration(value, root.child("unjudged"), "unjudged", {"error", "nonrelevant"}) == 0;
                break;
        }
    }
    return request;
}

namespace {

// ---- phase 3: how a semantic fault is kept and reported ------------------------------------------------------------

// Where a semantic fault sits; the pointer and message are only formatted for the one reported.
enum class Site : uint8_t { query_id, judgment_id, retrieved };

struct SemanticFault {
    uint32_t node = UINT32_MAX;  // document order: the earliest node wins
    int rank = 0;                // at one node: the lowest rank wins
    ErrorCode code = ErrorCode::schema_violation;
    Site site = Site::query_id;
    size_t query = 0, index = 0;

    void consider(const SemanticFault& other) {
        if (other.node < node || (other.node == node && other.rank < rank)) *this = other;
    }
};

std::string quoted(const Document& doc, uint32_t index) {
    std::string out;
    append_json_string(out, doc.string(index));  // escaped: messages stay valid text
    return shorten_for_message(out);
}

[[noreturn]] void raise(const Document& doc, const RankingRequest& request, const SemanticFault& fault) {
    std::string pointer = "/queries/" + std::to_string(fault.query);
    std::string id = quoted(doc, fault.node);
    std::string message;
    switch (fault.site) {
        case Site::query_id: pointer += "/id"; break;
        case Site::judgment_id: pointer += "/judgments/" + std::to_string(fault.index) + "/id"; break;
        case Site::retrieved: pointer += "/retrieved/" + std::to_string(fault.index); break;
    }
    switch (fault.code) {
        case ErrorCode::invalid_unicode: message = id + " contains a lone surrogate; send well-formed Unicode"; break;
        case ErrorCode::duplicate_id:
            message = fault.site == Site::query_id ? "the query id " + id + " is used by an earlier query"
                      : fault.site == Site::judgment_id
                          ? "the document " + id + " is judged twice in query " + std::to_string(fault.query)
                          : "the document " + id + " is retrieved twice in query " + std::to_string(fault.query);
            break;
        default:
            message = "the document " + id + " at rank " + std::to_string(fault.index + 1) + " (within k = " +
                      std::to_string(request.k) + ") has no judgment; add one or send unjudged: \"nonrelevant\"";
            break;
    }
    throw RequestError(fault.code, pointer, message);
}

// ---- phases 3 and 4: semantic checks, metrics and evidence -----------------------------------
//
// One pass per query builds each ID table once, for the checks and the metrics alike. The
// faults are only collected; if any is found the computed values are thrown away.

double gain_of(double grade, bool exponential) { return exponential ? std::pow(2.0, grade) - 1.0 : grade; }

struct Scratch {
    IdTable query_ids, judged, retrieved;
    std::vector<double> discount;  // log2(rank + 1) for rank 1..k, from the C library once each
    std::vector<uint8_t> judgment_in_top;
    std::vector<double> ideal;
    SemanticFault fault;

    // An ID's own faults: a lone surrogate (rank 0), a repeat within `seen` (rank 1).
    bool check_id(const Document& doc, uint32_t node, IdTable& seen, uint32_t value, Site site, size_t query,
                  size_t index) {
        if (doc[node].flag) fault.consider({node, 0, ErrorCode::invalid_unicode, site, query, index});
        if (seen.insert(doc.string(node), value) == nullptr) return true;
        fault.consider({node, 1, ErrorCode::duplicate_id, site, query, index});
        return false;
    }
};

void evaluate_query(const Document& doc, const RankingRequest& request, size_t qi, Scratch& scratch,
                    RankingOutcome& outcome) {
    const Query& query = request.queries[qi];
    scratch.check_id(doc, query.id, scratch.query_ids, static_cast<uint32_t>(qi), Site::query_id, qi, 0);

    const size_t jb = query.judgments_begin, je = query.judgments_end;
    scratch.judged.reset(je - jb);
    int64_t relevant_count = 0;
    for (size_t j = jb; j < je; ++j) {
        scratch.check_id(doc, request.judgments[j].id, scratch.judged, static_cast<uint32_t>(j), Site::judgment_id, qi,
                         j - jb);
        if (request.judgments[j].grade >= request.relevant_at_least) ++relevant_count;
    }
    scratch.judgment_in_top.assign(je - jb, 0);

    const Node& list = doc[query.retrieved];
    const uint32_t top_count = static_cast<uint32_t>(std::min<int64_t>(request.k, list.size));
    QueryOutcome& q = outcome.queries[qi];  // laid out by ranking_layout
    q.id = query.id;
    uint32_t first_relevant_rank = 0;
    double precision_sum = 0.0, dcg = 0.0;
    scratch.retrieved.reset(list.size);
    for (uint32_t r = 0; r < list.size; ++r) {
        const uint32_t id = doc.item(list, r);
        scratch.check_id(doc, id, scratch.retrieved, r, Site::retrieved, qi, r);
        if (r >= top_count) continue;  // past k: only uniqueness is checked
        const uint32_t* j = scratch.judged.find(doc.string(id));
        if (j == nullptr && request.unjudged_error) {
            scratch.fault.consider({id, 2, ErrorCode::unjudged_document, Site::retrieved, qi, r});
        }
        RankedDocument& ranked = outcome.ranked[q.ranked_begin + r];  // filled in place (no stack copy)
        ranked.id = id;
        ranked.judged = j != nullptr;
        ranked.grade = ranked.judged ? request.judgments[*j].grade : 0.0;
        ranked.relevant = ranked.judged && ranked.grade >= request.relevant_at_least;
        const uint32_t rank = r + 1;
        if (ranked.relevant) {
            ++q.hits;
            precision_sum += static_cast<double>(q.hits) / static_cast<double>(rank);
            if (first_relevant_rank == 0) first_relevant_rank = rank;
        }
        if (!ranked.judged) {
            ++q.unjudged;
        } else {
            scratch.judgment_in_top[*j - jb] = 1;
            // An unjudged document adds gain 0; skipping it leaves the sum unchanged.
            dcg += gain_of(ranked.grade, request.exponential) / scratch.discount[r];
        }
    }

    std::vector<double>& ideal = scratch.ideal;
    ideal.clear();
    for (size_t j = jb; j < je; ++j) ideal.push_back(request.judgments[j].grade);
    std::sort(ideal.begin(), ideal.end(), std::greater<double>());
    double ideal_dcg = 0.0;
    const size_t ideal_count = std::min<size_t>(ideal.size(), static_cast<size_t>(request.k));
    for (size_t i = 0; i < ideal_count; ++i) {
        ideal_dcg += gain_of(ideal[i], request.exponential) / scratch.discount[i];
    }
    // A relevant judgment is missed when its document is not in the top k.
    q.missed_end = q.missed_begin;
    for (size_t j = jb; j < je; ++j) {
        const Judgment& judgment = request.judgments[j];
        if (judgment.grade >= request.relevant_at_least && !scratch.judgment_in_top[j - jb]) {
            outcome.missed[q.missed_end++] = judgment.id;
        }
    }

    const bool has_relevant = relevant_count > 0;
    q.relevant_count = relevant_count;
    q.retrieved_at_k = top_count;
    q.dcg = dcg;
    q.ideal_dcg = ideal_dcg;
    q.values[0] = static_cast<double>(q.hits) / static_cast<double>(request.k);
    q.values[1] = has_relevant ? static_cast<double>(q.hits) / static_cast<double>(relevant_count) : 0.0;
    q.values[2] = first_relevant_rank ? 1.0 / static_cast<double>(first_relevant_rank) : 0.0;
    q.values[3] = has_relevant ? precision_sum / static_cast<double>(relevant_count) : 0.0;
    q.values[4] = ideal_dcg != 0 ? dcg / ideal_dcg : 0.0;
    q.defined[0] = true;
    q.defined[1] = q.defined[2] = q.defined[3] = has_relevant;
    q.defined[4] = ideal_dcg != 0;
}

// ---- canonical request (RFC 8785 key order, defaults applied) ------------------------------

std::string canonical_request(const Document& doc, const RankingRequest& request) {
    std::string text;
    text.reserve(doc.text.size() + 24 * request.judgments.size() + 16 * request.queries.size() + 128);
    JsonText out(text);
    out.raw(request.exponential ? "{\"gain\":\"exponential\",\"k\":" : "{\"gain\":\"linear\",\"k\":");
    out.number(request.k_number);
    out.raw(",\"queries\":[");
    for (size_t qi = 0; qi < request.queries.size(); ++qi) {
        const Query& query = request.queries[qi];
        if (qi) out.ch(',');
        out.raw("{\"id\":");
        out.string(doc.string(query.id));
        out.raw(",\"judgments\":[");
        for (size_t j = query.judgments_begin; j < query.judgments_end; ++j) {
            if (j != query.judgments_begin) out.ch(',');
            out.raw("{\"grade\":");
            out.number(request.judgments[j].grade);
            out.raw(",\"id\":");
            out.string(doc.string(request.judgments[j].id));
            out.ch('}');
        }
        out.raw("],\"retrieved\":[");
        const Node& list = doc[query.retrieved];
        for (uint32_t r = 0; r < list.size; ++r) {
            if (r) out.ch(',');
            out.string(doc.string(doc.item(list, r)));
        }
        out.raw("]}");
    }
    out.raw("],\"relevantAtLeast\":");
    out.number(request.relevant_at_least);
    out.raw(request.unjudged_error ? ",\"unjudged\":\"error\"}" : ",\"unjudged\":\"nonrelevant\"}");
    out.finish();
    return text;
}

}  // namespace

RankingOutcome ranking_layout(const Document& doc, const RankingRequest& request) {
    RankingOutcome outcome;
    outcome.k = request.k;
    outcome.queries.resize(request.queries.size());
    size_t ranked = 0, judged = 0;
    for (size_t qi = 0; qi < request.queries.size(); ++qi) {
        const Query& query = request.queries[qi];
        QueryOutcome& q = outcome.queries[qi];
        q.ranked_begin = ranked;
        ranked += static_cast<size_t>(std::min<int64_t>(request.k, doc[query.retrieved].size));
        q.ranked_end = ranked;
        q.missed_begin = q.missed_end = judged;  // at most every judgment is missed
        judged += query.judgments_end - query.judgments_begin;
    }
    outcome.ranked.resize(ranked);
    outcome.missed.resize(judged);
    outcome.conventions_variant = (request.exponential ? 2 : 0) + (request.unjudged_error ? 0 : 1);
    return outcome;
}

void ranking_compute(const Document& doc, const RankingRequest& request, RankingOutcome& outcome,
                     QueryProgress* progress) {
    Scratch scratch;
    scratch.query_ids.reset(request.queries.size());
    size_t longest = 0;  // discounts are needed up to min(k, longest list)
    for (const Query& query : request.queries) {
        longest = std::max<size_t>(longest, std::max<size_t>(doc[query.retrieved].size, query.judgments_end - query.judgments_begin));
    }
    scratch.discount.resize(std::min<size_t>(longest, static_cast<size_t>(request.k)));
    for (size_t r = 0; r < scratch.discount.size(); ++r) scratch.discount[r] = std::log2(static_cast<double>(r + 2));
    const size_t count = request.queries.size();
    for (size_t qi = 0; qi < count; ++qi) {
        evaluate_query(doc, request, qi, scratch, outcome);
        // Nothing is published once a fault is known: the consumer must not use the values.
        if (progress != nullptr && scratch.fault.node == UINT32_MAX && qi + 1 < count) progress->publish(qi + 1);
    }
    if (scratch.fault.node != UINT32_MAX) raise(doc, request, scratch.fault);
    // Macro: mean over the queries where the metric is defined, summed in query order.
    for (int m = 0; m < ranking_metric_count; ++m) {
        double sum = 0.0;
        int64_t defined = 0;
        for (const QueryOutcome& q : outcome.queries) {
            if (!q.defined[m]) continue;
            sum += q.values[m];
            ++defined;
        }
        outcome.defined_counts[m] = defined;
        outcome.macro[m] = defined > 0 ? sum / static_cast<double>(defined) : 0.0;
    }
    if (progress != nullptr) progress->publish(count);  // the summary is ready too
}

std::string ranking_input_sha256(const Document& doc, const RankingRequest& request) {
    return sha256_hex(canonical_request(doc, request));
}

void ranking_serialize(const Document& doc, const RankingOutcome& outcome, const ConventionsTable& conventions,
                       const Limits& limits, Evaluation& evaluation) {
    evaluation.result_json.clear();
    // Each ranked document takes about 60 bytes plus its ID.
    evaluation.result_json.reserve(4096 + outcome.ranked.size() * 72 + doc.text.size());
    JsonEmitter emitter(evaluation.result_json);
    emit_ranking_result(doc, outcome, conventions.at(outcome.conventions_variant), emitter);
    emitter.finish();
    finish_evaluation(evaluation, limits.output_bytes);
}

}  // namespace evalcore
