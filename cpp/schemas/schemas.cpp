// The matching of nervaluate's schemas (docs/schemas.md, "The matching"); every loop below is
// the loop of python/evalcore/reference/schemas/matching.py, in the same order, so that both
// count the same steps and refuse the same documents.
#include "schemas/schemas.hpp"

#include <algorithm>
#include <tuple>

#include "common/parallel.hpp"

namespace evalcore {
namespace {

struct TooManySteps {};

struct Steps {
    int64_t limit = 0, taken = 0;
    void take() {
        if (++taken > limit) throw TooManySteps{};
    }
};

struct Edge {
    uint32_t pred, truth;
    bool same_bounds, same_label;
};

// Reused by every document a thread takes: no allocation per entity once they have grown.
struct Workspace {
    std::vector<SchemaEntity> preds, truths, scope_preds, scope_truths;
    std::vector<uint32_t> active_p, active_t, parent, order, roots, local_p, local_t, seen_p, seen_t;
    std::vector<Edge> edges, component;
    std::vector<int32_t> match_p, match_t, via_t;
    std::vector<int64_t> gain_p, gain_t;
    std::vector<uint8_t> reached_p, reached_t, correct;
    std::vector<int64_t> weights;
};

bool by_position(const SchemaEntity& a, const SchemaEntity& b) {
    return std::tie(a.start, a.end, a.position) < std::tie(b.start, b.end, b.position);
}

bool by_label(const SchemaEntity& a, const SchemaEntity& b) {
    return std::tie(a.label, a.start, a.end, a.position) < std::tie(b.label, b.start, b.end, b.position);
}

// nervaluate's _has_sufficient_overlap with min_overlap_percentage=1, in its floating point.
bool overlaps(const SchemaEntity& p, const SchemaEntity& t) {
    const int64_t common = std::min(p.end, t.end) - std::max(p.start, t.start) + 1;
    return (static_cast<double>(common) / static_cast<double>(t.end - t.start + 1)) * 100.0 >= 1.0;
}

Edge edge_of(uint32_t p, uint32_t t, const SchemaEntity& pe, const SchemaEntity& te) {
    return Edge{p, t, pe.start == te.start && pe.end == te.end, pe.label == te.label};
}

// Keeps the active entities (indices into `of`) that end at or after `start`, in order.
void prune(std::vector<uint32_t>& active, const std::vector<SchemaEntity>& of, int64_t start) {
    size_t kept = 0;
    for (uint32_t index : active) {
        if (of[index].end >= start) active[kept++] = index;
    }
    active.resize(kept);
}

// Every overlapping pair, by pred then true rank (both lists sorted by_position).
void overlapping_pairs(const std::vector<SchemaEntity>& preds, const std::vector<SchemaEntity>& truths,
                       Workspace& w, Steps& steps) {
    w.edges.clear();
    w.active_p.clear();
    w.active_t.clear();
    uint32_t i = 0, j = 0;
    const uint32_t np = static_cast<uint32_t>(preds.size()), nt = static_cast<uint32_t>(truths.size());
    while (i < np || j < nt) {
        if (j == nt || (i < np && preds[i].start <= truths[j].start)) {
            prune(w.active_t, truths, preds[i].start);
            for (uint32_t t : w.active_t) {
                steps.take();
                if (overlaps(preds[i], truths[t])) w.edges.push_back(edge_of(i, t, preds[i], truths[t]));
            }
            w.active_p.push_back(i++);
        } else {
            prune(w.active_p, preds, truths[j].start);
            for (uint32_t p : w.active_p) {
                steps.take();
                if (overlaps(preds[p], truths[j])) w.edges.push_back(edge_of(p, j, preds[p], truths[j]));
            }
            w.active_t.push_back(j++);
        }
    }
    std::sort(w.edges.begin(), w.edges.end(),
              [](const Edge& a, const Edge& b) { return std::tie(a.pred, a.truth) < std::tie(b.pred, b.truth); });
}

// Local indices 0.. of the distinct values, ascending; `map` sized for the largest.
uint32_t localize(std::vector<uint32_t>& values, std::vector<uint32_t>& map) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    map.assign(values.empty() ? 0 : values.back() + 1, 0);
    for (uint32_t k = 0; k < values.size(); ++k) map[values[k]] = k;
    return static_cast<uint32_t>(values.size());
}

// A maximum-weight matching of one component (a correct pair outweighs all other pairs
// together): longest augmenting paths by Bellman-Ford rounds over the pairs in order.
SchemaPairs best_matching(Workspace& w, Steps& steps) {
    const std::vector<Edge>& edges = w.component;
    w.seen_p.clear();
    w.seen_t.clear();
    for (const Edge& e : edges) {
        w.seen_p.push_back(e.pred);
        w.seen_t.push_back(e.truth);
    }
    const uint32_t np = localize(w.seen_p, w.local_p), nt = localize(w.seen_t, w.local_t);
    const int64_t heavy = static_cast<int64_t>(std::min(np, nt)) + 1;
    w.weights.clear();
    for (size_t k = 0; k < edges.size(); ++k) w.weights.push_back(w.correct[k] ? heavy : 1);
    w.match_p.assign(np, -1);
    w.match_t.assign(nt, -1);
    for (;;) {
        w.gain_p.assign(np, 0);
        w.reached_p.assign(np, 0);
        for (uint32_t p = 0; p < np; ++p) w.reached_p[p] = w.match_p[p] < 0;
        w.gain_t.assign(nt, 0);
        w.reached_t.assign(nt, 0);
        w.via_t.assign(nt, -1);
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t k = 0; k < edges.size(); ++k) {
                steps.take();
                const uint32_t p = w.local_p[edges[k].pred], t = w.local_t[edges[k].truth];
                const int64_t weight = w.weights[k];
                if (w.match_p[p] == static_cast<int32_t>(t)) {  // back along the matched pair
                    if (w.reached_t[t] && (!w.reached_p[p] || w.gain_t[t] - weight > w.gain_p[p])) {
                        w.gain_p[p] = w.gain_t[t] - weight;
                        w.reached_p[p] = 1;
                        changed = true;
                    }
                } else if (w.reached_p[p] && (!w.reached_t[t] || w.gain_p[p] + weight > w.gain_t[t])) {
                    w.gain_t[t] = w.gain_p[p] + weight;
                    w.reached_t[t] = 1;
                    w.via_t[t] = static_cast<int32_t>(p);
                    changed = true;
                }
            }
        }
        int32_t best = -1;
        int64_t gain = 0;
        for (uint32_t t = 0; t < nt; ++t) {
            if (w.match_t[t] < 0 && w.reached_t[t] && w.gain_t[t] > gain) {
                best = static_cast<int32_t>(t);
                gain = w.gain_t[t];
            }
        }
        if (best < 0) break;
        int32_t t = best;
        for (uint32_t hop = 0; hop < np + nt; ++hop) {  // a longest path visits each vertex once
            const int32_t p = w.via_t[static_cast<uint32_t>(t)];
            const int32_t previous = w.match_p[static_cast<uint32_t>(p)];
            w.match_p[static_cast<uint32_t>(p)] = t;
            w.match_t[static_cast<uint32_t>(t)] = p;
            if (previous < 0) break;
            t = previous;
        }
    }
    SchemaPairs out;
    for (size_t k = 0; k < edges.size(); ++k) {
        if (w.match_p[w.local_p[edges[k].pred]] == static_cast<int32_t>(w.local_t[edges[k].truth])) {
            (w.weights[k] == heavy ? out.correct : out.other) += 1;
        }
    }
    return out;
}

uint32_t find(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

// The three matchings of one scope's entities (sorted by_position here).
void match_scope(std::vector<SchemaEntity>& preds, std::vector<SchemaEntity>& truths, Workspace& w, Steps& steps,
                 SchemaTotals& out) {
    std::sort(preds.begin(), preds.end(), by_position);
    std::sort(truths.begin(), truths.end(), by_position);
    out.predicted += static_cast<int64_t>(preds.size());
    out.truth += static_cast<int64_t>(truths.size());
    overlapping_pairs(preds, truths, w, steps);
    const uint32_t np = static_cast<uint32_t>(preds.size());
    w.parent.resize(preds.size() + truths.size());
    for (uint32_t x = 0; x < w.parent.size(); ++x) w.parent[x] = x;
    for (const Edge& e : w.edges) {
        const uint32_t a = find(w.parent, e.pred), b = find(w.parent, np + e.truth);
        if (a != b) w.parent[std::max(a, b)] = std::min(a, b);
    }
    // Edges grouped by component (stable: each component's edges stay in pred, true order).
    const std::vector<Edge>& grouped = w.edges;
    std::vector<uint32_t>& roots = w.roots;
    roots.resize(grouped.size());
    for (size_t k = 0; k < grouped.size(); ++k) roots[k] = find(w.parent, grouped[k].pred);
    w.order.resize(grouped.size());
    for (uint32_t k = 0; k < w.order.size(); ++k) w.order[k] = k;
    std::sort(w.order.begin(), w.order.end(),
              [&](uint32_t a, uint32_t b) { return std::tie(roots[a], a) < std::tie(roots[b], b); });
    for (size_t begin = 0; begin < w.order.size();) {
        size_t end = begin;
        while (end < w.order.size() && roots[w.order[end]] == roots[w.order[begin]]) ++end;
        for (int kind = 0; kind < 3; ++kind) {
            w.component.clear();
            w.correct.clear();
            for (size_t k = begin; k < end; ++k) {
                const Edge& e = grouped[w.order[k]];
                w.component.push_back(e);
                w.correct.push_back(kind == 0 ? (e.same_bounds && e.same_label) : kind == 1 ? e.same_bounds : e.same_label);
            }
            if (end - begin == 1) {  // one pair: matched, nothing to choose
                steps.take();
                (w.correct[0] ? out.pairs[kind].correct : out.pairs[kind].other) += 1;
            } else {
                const SchemaPairs pairs = best_matching(w, steps);
                out.pairs[kind].correct += pairs.correct;
                out.pairs[kind].other += pairs.other;
            }
        }
        begin = end;
    }
}

void copy_kept(const std::vector<SchemaEntity>& from, size_t begin, size_t end, const std::vector<uint8_t>& kept,
               std::vector<SchemaEntity>& to) {
    to.clear();
    for (size_t k = begin; k < end; ++k) {
        if (kept[from[k].label]) to.push_back(from[k]);
    }
}

// One document: the overall scope, then each label's entities alone.
void evaluate_document(const SchemaCorpus& corpus, size_t d, Workspace& w, int64_t step_limit, SchemaTotals& overall,
                       std::vector<SchemaTotals>& labels) {
    Steps steps{step_limit, 0};
    copy_kept(corpus.predicted, corpus.predicted_begin[d], corpus.predicted_begin[d + 1], corpus.kept, w.preds);
    copy_kept(corpus.truth, corpus.truth_begin[d], corpus.truth_begin[d + 1], corpus.kept, w.truths);
    w.scope_preds = w.preds;
    w.scope_truths = w.truths;
    match_scope(w.scope_preds, w.scope_truths, w, steps, overall);
    std::sort(w.preds.begin(), w.preds.end(), by_label);
    std::sort(w.truths.begin(), w.truths.end(), by_label);
    size_t i = 0, j = 0;
    while (i < w.preds.size() || j < w.truths.size()) {
        const uint32_t label = j == w.truths.size() || (i < w.preds.size() && w.preds[i].label < w.truths[j].label)
                                   ? w.preds[i].label
                                   : w.truths[j].label;
        w.scope_preds.clear();
        w.scope_truths.clear();
        for (; i < w.preds.size() && w.preds[i].label == label; ++i) w.scope_preds.push_back(w.preds[i]);
        for (; j < w.truths.size() && w.truths[j].label == label; ++j) w.scope_truths.push_back(w.truths[j]);
        match_scope(w.scope_preds, w.scope_truths, w, steps, labels[label]);
    }
}

}  // namespace

SchemaOutcome schemas_evaluate(const SchemaCorpus& corpus, int64_t step_limit, unsigned threads) {
    const size_t count = corpus.documents();
    const size_t labels = corpus.kept.size();
    if (threads < 1) threads = 1;
    if (count < static_cast<size_t>(threads) * 64) threads = static_cast<unsigned>(std::max<size_t>(1, count / 64));
    struct Part {
        SchemaTotals overall;
        std::vector<SchemaTotals> labels;
        size_t first_fault = SIZE_MAX;
    };
    std::vector<Part> parts(threads);
    on_threads(threads, [&](unsigned index) {
        Part& part = parts[index];
        part.labels.assign(labels, SchemaTotals{});
        Workspace w;
        // Contiguous slices: part `index` takes documents [begin, end).
        const size_t begin = count * index / threads, end = count * (index + 1) / threads;
        for (size_t d = begin; d < end; ++d) {
            try {
                evaluate_document(corpus, d, w, step_limit, part.overall, part.labels);
            } catch (const TooManySteps&) {
                part.first_fault = d;
                return;  // the first fault of this slice; later slices' faults come later
            }
        }
    });
    SchemaOutcome out;
    out.labels.assign(labels, SchemaTotals{});
    for (const Part& part : parts) {
        if (part.first_fault != SIZE_MAX) {
            out.first_fault = part.first_fault;
            return out;
        }
        out.overall.add(part.overall);
        for (size_t l = 0; l < labels; ++l) out.labels[l].add(part.labels[l]);
    }
    return out;
}

}  // namespace evalcore
