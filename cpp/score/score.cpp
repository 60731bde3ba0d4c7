#include "score/score.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "common/errors.hpp"
#include "common/id_table.hpp"
#include "common/parallel.hpp"
#include "json/writer.hpp"
#include "json/schema.hpp"

namespace evalcore {
namespace {

constexpr double max_integer = 9007199254740991.0;

// An array of strings; a non-string item is a fault at it.
void read_id_list(const SchemaChecker& schema, const Document& doc, uint32_t index, const Path& path, const char* what) {
    const Node& list = schema.array(index, path, what, 0, INT64_MAX, what);
    for (uint32_t i = 0; i < list.size; ++i) {
        const uint32_t item = doc.item(list, i);
        if (doc[item].kind != Kind::string) {
            throw RequestError(ErrorCode::schema_violation, path.child(i).pointer(),
                               std::string(what) + " items must be strings, got " + schema.shown(item));
        }
    }
}

bool is_null(const Document& doc, uint32_t index) { return doc[index].kind == Kind::null_value; }

struct ScorePair {
    uint32_t predicted, ground_truth;  // array nodes of strings
};

// Phase 3: the first string (in document order) holding a lone surrogate.
void check_unicode(const Document& doc, const std::vector<ScorePair>& pairs, bool batch) {
    uint32_t first = UINT32_MAX;
    for (const ScorePair& pair : pairs) {
        for (uint32_t list_index : {pair.predicted, pair.ground_truth}) {
            const Node& list = doc[list_index];
            for (uint32_t i = 0; i < list.size; ++i) {
                const uint32_t item = doc.item(list, i);
                if (doc[item].flag) {
                    first = std::min(first, item);
                    break;
                }
            }
        }
    }
    if (first == UINT32_MAX) return;
    // Name it: find the list and position of that node.
    for (size_t p = 0; p < pairs.size(); ++p) {
        const ScorePair& pair = pairs[p];
        for (int side = 0; side < 2; ++side) {
            const Node& list = doc[side == 0 ? pair.predicted : pair.ground_truth];
            for (uint32_t i = 0; i < list.size; ++i) {
                if (doc.item(list, i) != first) continue;
                const std::string field = side == 0 ? "predicted" : "ground_truth";
                const std::string pointer =
                    (batch ? "/items/" + std::to_string(p) + "/" + field : "/" + field) + "/" + std::to_string(i);
                std::string shown;
                append_json_string(shown, doc.string(first));
                throw RequestError(ErrorCode::invalid_unicode, pointer,
                                   shorten_for_message(shown) + " contains a lone surrogate; send well-formed Unicode");
            }
        }
    }
}

}  // namespace

ScoreRequest score_read(const Document& doc) {
    SchemaChecker schema(doc);
    const Path root;
    const Node& node = schema.object(0, root, "the request", {});
    ScoreRequest request;
    std::vector<ScorePair> pairs;
    uint32_t predicted = UINT32_MAX, ground_truth = UINT32_MAX, items = UINT32_MAX;
    for (uint32_t m = 0; m < node.size; ++m) {
        const size_t field = schema.member(node, m, root, "the request", {"predicted", "ground_truth", "items", "metrics", "k"});
        const uint32_t value = doc.member_value(node, m);
        switch (field) {
            case 0:
            case 1: {
                const char* name = field == 0 ? "predicted" : "ground_truth";
                if (is_null(doc, value)) break;
                read_id_list(schema, doc, value, root.child(name), name);
                (field == 0 ? predicted : ground_truth) = value;
                break;
            }
            case 2: {
                if (is_null(doc, value)) break;
                const Path at = root.child("items");
                const Node& list = schema.array(value, at, "items", 1, INT64_MAX, "items");
                pairs.reserve(list.size);
                for (uint32_t i = 0; i < list.size; ++i) {
                    const Path item_path = at.child(i);
                    const uint32_t item_index = doc.item(list, i);
                    const Node& item = schema.object(item_index, item_path, "an item", {"predicted", "ground_truth"});
                    ScorePair pair{0, 0};
                    for (uint32_t im = 0; im < item.size; ++im) {
                        const size_t item_field = schema.member(item, im, item_path, "an item", {"predicted", "ground_truth"});
                        const char* name = item_field == 0 ? "predicted" : "ground_truth";
                        const uint32_t item_value = doc.member_value(item, im);
                        read_id_list(schema, doc, item_value, item_path.child(name), name);
                        (item_field == 0 ? pair.predicted : pair.ground_truth) = item_value;
                    }
                    pairs.push_back(pair);
                }
                items = value;
                break;
            }
            case 3: {
                const Path at = root.child("metrics");
                const Node& list = schema.array(value, at, "metrics", 1, score_metric_count, "metrics");
                for (uint32_t i = 0; i < list.size; ++i) {
                    const uint32_t item = doc.item(list, i);
                    const std::string_view name = doc[item].kind == Kind::string ? doc.string(item) : std::string_view();
                    static constexpr std::string_view names[score_metric_count] = {"precision", "recall", "f1", "f2"};
                    const auto found = std::find(std::begin(names), std::end(names), name);
                    if (doc[item].kind != Kind::string || found == std::end(names)) {
                        throw RequestError(ErrorCode::schema_violation, at.child(i).pointer(),
                                           "metrics items must be one of precision, recall, f1, f2, got " + schema.shown(item));
                    }
                    const int metric = static_cast<int>(found - std::begin(names));
                    if (std::find(request.metrics.begin(), request.metrics.end(), metric) != request.metrics.end()) {
                        throw RequestError(ErrorCode::schema_violation, at.child(i).pointer(),
                                           "the metric " + schema.shown(item) + " is listed twice");
                    }
                    request.metrics.push_back(metric);
                }
                break;
            }
            default:
                if (is_null(doc, value)) break;
                request.k = static_cast<int64_t>(schema.number(value, root.child("k"), "k", 1, max_integer, false, true));
                request.has_k = true;
                break;
        }
    }
    const bool single = predicted != UINT32_MAX || ground_truth != UINT32_MAX;
    const bool batch = items != UINT32_MAX;
    if (single && batch) {
        throw RequestError(ErrorCode::schema_violation, "", "send either predicted + ground_truth or items, not both");
    }
    if (!batch && (predicted == UINT32_MAX || ground_truth == UINT32_MAX)) {
        throw RequestError(ErrorCode::schema_violation, "", "send predicted together with ground_truth, or a non-empty items list");
    }
    if (!batch) pairs.push_back(ScorePair{predicted, ground_truth});
    if (request.metrics.empty()) request.metrics = {0, 1, 2, 3};  // the default: all four, in this order
    check_unicode(doc, pairs, batch);
    auto add = [&](uint32_t list_index) {
        const Node& list = doc[list_index];
        const uint32_t begin = static_cast<uint32_t>(request.ids.size());
        for (uint32_t i = 0; i < list.size; ++i) request.ids.push_back(doc.string(doc.item(list, i)));
        return IdRange{begin, static_cast<uint32_t>(request.ids.size())};
    };
    for (const ScorePair& pair : pairs) {
        request.predicted.push_back(add(pair.predicted));
        request.ground_truth.push_back(add(pair.ground_truth));
    }
    return request;
}

namespace {

// |P ∩ G|, |P| and |G| of one pair, P = the predicted IDs without repeats (the first of
// each kept), cut to the first k; G = the ground-truth IDs without repeats.
struct PairCounts {
    int64_t hits = 0, kept = 0, truth = 0;
};

// Most pairs are small: for them a linear scan over the hashes seen so far beats building
// two hash tables (equal hashes are confirmed by comparing the text, so the counts are the
// same as IdTable's).
constexpr uint32_t small_pair = 32;

class PairScorer {
public:
    explicit PairScorer(const ScoreRequest& request)
        : request_(request), hashed_(request.hashes.size() == request.ids.size()) {}

    PairCounts count(size_t i) {
        const IdRange predicted = request_.predicted[i], ground_truth = request_.ground_truth[i];
        if (predicted.end - predicted.begin <= small_pair && ground_truth.end - ground_truth.begin <= small_pair) {
            return count_small(predicted, ground_truth);
        }
        return count_large(predicted, ground_truth);
    }

private:
    uint64_t hash_of(uint32_t i) const { return hashed_ ? request_.hashes[i] : IdTable::hash(request_.ids[i]); }

    // A set of at most small_pair IDs: their hashes and their indices into request.ids.
    struct SmallSet {
        uint64_t hashes[small_pair];
        uint32_t ids[small_pair];
        uint32_t size;

        void clear() { size = 0; }
        bool contains(const ScoreRequest& request, uint64_t h, std::string_view id) const {
            for (uint32_t j = 0; j < size; ++j) {
                if (hashes[j] == h && request.ids[ids[j]] == id) return true;
            }
            return false;
        }
        void add(uint64_t h, uint32_t id) {
            hashes[size] = h;
            ids[size++] = id;
        }
    };

    PairCounts count_small(IdRange predicted, IdRange ground_truth) {
        PairCounts counts;
        truth_.clear();
        kept_.clear();
        for (uint32_t g = ground_truth.begin; g < ground_truth.end; ++g) {
            const uint64_t h = hash_of(g);
            if (!truth_.contains(request_, h, request_.ids[g])) truth_.add(h, g);
        }
        counts.truth = truth_.size;
        // Drop repeats (the first stays), then keep the first k.
        for (uint32_t p = predicted.begin; p < predicted.end && (!request_.has_k || counts.kept < request_.k); ++p) {
            const std::string_view id = request_.ids[p];
            const uint64_t h = hash_of(p);
            if (kept_.contains(request_, h, id)) continue;
            kept_.add(h, p);
            ++counts.kept;
            if (truth_.contains(request_, h, id)) ++counts.hits;
        }
        return counts;
    }

    PairCounts count_large(IdRange predicted, IdRange ground_truth) {
        PairCounts counts;
        truth_table_.reset(ground_truth.end - ground_truth.begin);
        for (uint32_t g = ground_truth.begin; g < ground_truth.end; ++g) {
            if (truth_table_.insert(request_.ids[g], hash_of(g), 0) == nullptr) ++counts.truth;
        }
        // Drop repeats (the first stays), then keep the first k.
        kept_table_.reset(predicted.end - predicted.begin);
        for (uint32_t p = predicted.begin; p < predicted.end && (!request_.has_k || counts.kept < request_.k); ++p) {
            const std::string_view id = request_.ids[p];
            const uint64_t h = hash_of(p);
            if (kept_table_.insert(id, h, 0) != nullptr) continue;
            ++counts.kept;
            if (truth_table_.find(id, h) != nullptr) ++counts.hits;
        }
        return counts;
    }

    const ScoreRequest& request_;
    const bool hashed_;
    SmallSet truth_, kept_;
    IdTable kept_table_, truth_table_;
};

std::array<double, score_metric_count> pair_metrics(const PairCounts& c) {
    std::array<double, score_metric_count> v;
    if (c.kept == 0 || c.truth == 0) {
        v.fill(c.kept == 0 && c.truth == 0 ? 1.0 : 0.0);
        return v;
    }
    const double precision = static_cast<double>(c.hits) / static_cast<double>(c.kept);
    const double recall = static_cast<double>(c.hits) / static_cast<double>(c.truth);
    const auto f_beta = [&](double b2) {
        return precision + recall != 0 ? (1.0 + b2) * precision * recall / (b2 * precision + recall) : 0.0;
    };
    v = {precision, recall, f_beta(1.0), f_beta(4.0)};
    return v;
}

}  // namespace

void score_pairs(const ScoreRequest& request, size_t begin, size_t end, std::array<double, score_metric_count>* out) {
    PairScorer scorer(request);
    for (size_t i = begin; i < end; ++i) out[i - begin] = pair_metrics(scorer.count(i));
}

void score_aggregate(ScoreOutcome& outcome) {
    for (int m = 0; m < score_metric_count; ++m) {
        double sum = 0.0;  // in item order
        for (const auto& v : outcome.per_item) sum += v[static_cast<size_t>(m)];
        outcome.aggregate[static_cast<size_t>(m)] = sum / static_cast<double>(outcome.per_item.size());
    }
}

ScoreOutcome score_compute(const ScoreRequest& request, unsigned threads) {
    const size_t count = request.predicted.size();
    ScoreOutcome outcome;
    outcome.per_item.resize(count);
    std::atomic<size_t> next{0};
    auto work = [&] {
        constexpr size_t chunk = 256;
        for (size_t begin; (begin = next.fetch_add(chunk)) < count;) {
            score_pairs(request, begin, std::min(count, begin + chunk), &outcome.per_item[begin]);
        }
    };
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((count + 4095) / 4096)));
    on_threads(threads, [&](unsigned) { work(); });  // the chunks are claimed, whichever thread runs
    score_aggregate(outcome);
    return outcome;
}

}  // namespace evalcore
