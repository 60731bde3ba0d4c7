#include "ranking.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "errors.hpp"
#include "id_table.hpp"
#include "json_writer.hpp"
#include "schema.hpp"

namespace evalcore {
namespace {

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

RankingRequest read_request(const Document& doc, const Limits& limits) {
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
                request.k_number = schema.number(value, root.child("k"), "k", 1, static_cast<double>(limits.max_k), false, true);
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

// ---- phase 3: semantic checks ------------------------------------------------------------

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

void check_semantics(const Document& doc, const RankingRequest& request, IdTable& query_ids, IdTable& judged,
                     IdTable& retrieved_ids) {
    SemanticFault fault;
    // Each ID: lone surrogate (rank 0), repeated (rank 1), unjudged within k (rank 2).
    auto check_id = [&](uint32_t node, IdTable& seen, uint32_t value, Site site, size_t query, size_t index) {
        if (doc[node].flag) fault.consider({node, 0, ErrorCode::invalid_unicode, site, query, index});
        if (seen.insert(doc.string(node), value) != nullptr) {
            fault.consider({node, 1, ErrorCode::duplicate_id, site, query, index});
        }
    };
    query_ids.reset(request.queries.size());
    for (size_t qi = 0; qi < request.queries.size(); ++qi) {
        const Query& query = request.queries[qi];
        check_id(query.id, query_ids, static_cast<uint32_t>(qi), Site::query_id, qi, 0);
        judged.reset(query.judgments_end - query.judgments_begin);
        for (size_t j = query.judgments_begin; j < query.judgments_end; ++j) {
            check_id(request.judgments[j].id, judged, static_cast<uint32_t>(j), Site::judgment_id, qi,
                     j - query.judgments_begin);
        }
        const Node& list = doc[query.retrieved];
        retrieved_ids.reset(list.size);
        for (uint32_t r = 0; r < list.size; ++r) {
            uint32_t id = doc.item(list, r);
            check_id(id, retrieved_ids, r, Site::retrieved, qi, r);
            if (request.unjudged_error && r < request.k && judged.find(doc.string(id)) == nullptr) {
                fault.consider({id, 2, ErrorCode::unjudged_document, Site::retrieved, qi, r});
            }
        }
    }
    if (fault.node != UINT32_MAX) raise(doc, request, fault);
}

// ---- phase 4: metrics and evidence --------------------------------------------------------

double gain_of(double grade, bool exponential) { return exponential ? std::pow(2.0, grade) - 1.0 : grade; }

struct MacroSums {
    double sum[5] = {0, 0, 0, 0, 0};
    int64_t defined[5] = {0, 0, 0, 0, 0};
    void add(int metric, bool is_defined, double value) {
        if (!is_defined) return;
        sum[metric] += value;
        ++defined[metric];
    }
};

constexpr Key metric_keys[5] = {Key::precisionAtK, Key::recallAtK, Key::reciprocalRankAtK, Key::averagePrecisionAtK,
                                Key::ndcgAtK};

void emit_metric(TreeBuilder& out, Key key, bool defined, double value) {
    out.key(key);
    if (defined) {
        out.number(value);
    } else {
        out.null_value();
    }
}

struct RankedDoc {
    uint32_t id;
    double grade;
    bool judged;
    bool relevant;
};

void evaluate_query(const Document& doc, const RankingRequest& request, const Query& query, IdTable& judged,
                    std::vector<RankedDoc>& top, std::vector<double>& ideal, TreeBuilder& out, MacroSums& macro) {
    const size_t jb = query.judgments_begin, je = query.judgments_end;
    judged.reset(je - jb);
    int64_t relevant_count = 0;
    for (size_t j = jb; j < je; ++j) {
        judged.insert(doc.string(request.judgments[j].id), static_cast<uint32_t>(j));
        if (request.judgments[j].grade >= request.relevant_at_least) ++relevant_count;
    }
    const Node& list = doc[query.retrieved];
    const uint32_t top_count = static_cast<uint32_t>(std::min<int64_t>(request.k, list.size));
    top.clear();
    int64_t hits = 0, unjudged = 0;
    uint32_t first_relevant_rank = 0;
    double precision_sum = 0.0, dcg = 0.0;
    for (uint32_t r = 0; r < top_count; ++r) {
        uint32_t id = doc.item(list, r);
        const uint32_t* j = judged.find(doc.string(id));
        RankedDoc ranked{id, j ? request.judgments[*j].grade : 0.0, j != nullptr, false};
        ranked.relevant = ranked.judged && ranked.grade >= request.relevant_at_least;
        const uint32_t rank = r + 1;
        if (ranked.relevant) {
            ++hits;
            precision_sum += static_cast<double>(hits) / static_cast<double>(rank);
            if (first_relevant_rank == 0) first_relevant_rank = rank;
        }
        if (!ranked.judged) {
            ++unjudged;
        } else {
            dcg += gain_of(ranked.grade, request.exponential) / std::log2(static_cast<double>(rank + 1));
        }
        top.push_back(ranked);
    }
    ideal.clear();
    for (size_t j = jb; j < je; ++j) ideal.push_back(request.judgments[j].grade);
    std::sort(ideal.begin(), ideal.end(), std::greater<double>());
    double ideal_dcg = 0.0;
    const size_t ideal_count = std::min<size_t>(ideal.size(), static_cast<size_t>(request.k));
    for (size_t i = 0; i < ideal_count; ++i) {
        ideal_dcg += gain_of(ideal[i], request.exponential) / std::log2(static_cast<double>(i + 2));
    }

    const bool has_relevant = relevant_count > 0;
    const double values[5] = {
        static_cast<double>(hits) / static_cast<double>(request.k),
        has_relevant ? static_cast<double>(hits) / static_cast<double>(relevant_count) : 0.0,
        first_relevant_rank ? 1.0 / static_cast<double>(first_relevant_rank) : 0.0,
        has_relevant ? precision_sum / static_cast<double>(relevant_count) : 0.0,
        ideal_dcg != 0 ? dcg / ideal_dcg : 0.0,
    };
    const bool defined[5] = {true, has_relevant, has_relevant, has_relevant, ideal_dcg != 0};

    out.begin_object();
    for (int m = 0; m < 5; ++m) {
        emit_metric(out, metric_keys[m], defined[m], values[m]);
        macro.add(m, defined[m], values[m]);
    }
    out.key(Key::id);
    out.string_from(doc, query.id);
    out.key(Key::relevantJudgmentCount);
    out.integer(relevant_count);
    out.key(Key::retrievedAtKCount);
    out.integer(top_count);
    out.key(Key::hitsAtK);
    out.integer(hits);
    out.key(Key::unjudgedAtKCount);
    out.integer(unjudged);
    out.key(Key::dcgAtK);
    out.number(dcg);
    out.key(Key::idealDcgAtK);
    out.number(ideal_dcg);
    out.key(Key::missedRelevantIds);
    out.begin_array();
    // A relevant judgment is missed when its document is not in the top k.
    judged.reset(top_count);
    for (uint32_t r = 0; r < top_count; ++r) judged.insert(doc.string(top[r].id), r);
    for (size_t j = jb; j < je; ++j) {
        const Judgment& judgment = request.judgments[j];
        if (judgment.grade >= request.relevant_at_least && judged.find(doc.string(judgment.id)) == nullptr) {
            out.string_from(doc, judgment.id);
        }
    }
    out.end();
    out.key(Key::ranking);
    out.begin_array();
    for (uint32_t r = 0; r < top_count; ++r) {
        const RankedDoc& ranked = top[r];
        out.begin_object();
        out.key(Key::rank);
        out.integer(r + 1);
        out.key(Key::id);
        out.string_from(doc, ranked.id);
        out.key(Key::grade);
        if (ranked.judged) {
            out.number(ranked.grade);
        } else {
            out.null_value();
        }
        out.key(Key::relevant);
        out.boolean(ranked.relevant);
        out.key(Key::judged);
        out.boolean(ranked.judged);
        out.end();
    }
    out.end();
    out.end();
}

// ---- canonical request (RFC 8785 key order, defaults applied) ------------------------------

std::string canonical_request(const Document& doc, const RankingRequest& request) {
    std::string out;
    out.reserve(doc.text.size() + 64 * request.judgments.size() + 1024);
    out += request.exponential ? "{\"gain\":\"exponential\",\"k\":" : "{\"gain\":\"linear\",\"k\":";
    append_ecma_number(out, request.k_number);
    out += ",\"queries\":[";
    for (size_t qi = 0; qi < request.queries.size(); ++qi) {
        const Query& query = request.queries[qi];
        if (qi) out.push_back(',');
        out += "{\"id\":";
        append_json_string(out, doc.string(query.id));
        out += ",\"judgments\":[";
        for (size_t j = query.judgments_begin; j < query.judgments_end; ++j) {
            if (j != query.judgments_begin) out.push_back(',');
            out += "{\"grade\":";
            append_ecma_number(out, request.judgments[j].grade);
            out += ",\"id\":";
            append_json_string(out, doc.string(request.judgments[j].id));
            out.push_back('}');
        }
        out += "],\"retrieved\":[";
        const Node& list = doc[query.retrieved];
        for (uint32_t r = 0; r < list.size; ++r) {
            if (r) out.push_back(',');
            append_json_string(out, doc.string(doc.item(list, r)));
        }
        out += "]}";
    }
    out += "],\"relevantAtLeast\":";
    append_ecma_number(out, request.relevant_at_least);
    out += request.unjudged_error ? ",\"unjudged\":\"error\"}" : ",\"unjudged\":\"nonrelevant\"}";
    return out;
}

}  // namespace

Evaluation ranking_evaluate(const Document& doc, const Limits& limits, const ConventionsTable& conventions) {
    RankingRequest request = read_request(doc, limits);
    IdTable query_ids, judged, scratch;
    check_semantics(doc, request, query_ids, judged, scratch);

    Evaluation evaluation;
    Document& result = evaluation.result;
    result.nodes.reserve(64 + request.queries.size() * 32 + doc.nodes.size() * 7);
    result.text.reserve(doc.text.size() + 4096);
    TreeBuilder out(result);
    out.begin_object();
    out.key(Key::profile);
    out.string("supplied-ranking-evaluation-v1", StringInfo{30, false, true});
    out.key(Key::k);
    out.integer(request.k);
    out.key(Key::queryCount);
    out.integer(static_cast<int64_t>(request.queries.size()));
    out.key(Key::queries);
    out.begin_array();
    MacroSums macro;
    std::vector<RankedDoc> top;
    std::vector<double> ideal;
    for (const Query& query : request.queries) evaluate_query(doc, request, query, judged, top, ideal, out, macro);
    out.end();
    out.key(Key::macro);
    out.begin_object();
    for (int m = 0; m < 5; ++m) {
        emit_metric(out, metric_keys[m], macro.defined[m] > 0,
                    macro.defined[m] > 0 ? macro.sum[m] / static_cast<double>(macro.defined[m]) : 0.0);
    }
    out.end();
    out.key(Key::definedQueryCounts);
    out.begin_object();
    for (int m = 0; m < 5; ++m) {
        out.key(metric_keys[m]);
        out.integer(macro.defined[m]);
    }
    out.end();
    out.key(Key::conventions);
    out.begin_array();
    const size_t variant = (request.exponential ? 2 : 0) + (request.unjudged_error ? 0 : 1);
    for (const std::string& sentence : conventions.at(variant)) {
        bool ascii = std::all_of(sentence.begin(), sentence.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
        out.string(sentence, StringInfo{static_cast<uint32_t>(sentence.size()), false, ascii});
    }
    out.end();
    out.end();

    finish_evaluation(evaluation, canonical_request(doc, request), limits.output_bytes);
    return evaluation;
}

}  // namespace evalcore
