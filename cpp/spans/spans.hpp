// span-evaluate (docs/contract.md §3): schema, semantic checks, Kuhn matching with a step bound, result.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/evaluation.hpp"
#include "json/document.hpp"
#include "json/emitter.hpp"
#include "common/limits.hpp"
#include "json/output_keys.hpp"
#include "json/schema.hpp"

namespace evalcore {

// A request or corpus document after the schema checks. Strings are views (UTF-8) into
// storage that outlives the evaluation: a request Document, or the caller's Python str
// objects on the corpus fast path. Node indices place semantic faults in document order;
// the fast path leaves them 0 and re-reads a faulty document the slow way.
struct Span {
    std::string_view id, label;
    int64_t start = 0, end = 0;
    uint32_t object = 0, id_node = 0, label_node = 0;
    bool id_lone = false, label_lone = false;  // holds a lone surrogate
};

struct SpanText {
    std::string_view utf8;  // empty on the corpus fast path (not needed there)
    int64_t units = 0;      // UTF-16 code units
    bool lone_surrogate = false;
    std::vector<uint32_t> inside_pairs;  // offsets between the halves of a surrogate pair, ascending
    uint32_t node = 0;
    // Issue 24 item 5 (span corpus): a corpus document may leave its text out; then `units` is
    // 2^53 - 1, so no offset is past its end, and nothing is checked against a text.
    bool present = false;
};

struct SpanRequest {
    SpanText text;
    std::vector<Span> references, predictions;
    bool overlap = false;
    double minimum_iou = 0.5;
};

struct SpanMatch {
    uint32_t prediction, reference;  // indices into SpanRequest's vectors
    double iou;
    bool exact;
};

struct SpanLabel {
    std::string_view label;
    int64_t references = 0, predictions = 0, matched = 0;
};

struct SpanOutcome {
    std::vector<uint32_t> predictions_by_id, references_by_id;  // indices, in ID order
    std::vector<uint8_t> prediction_matched, reference_matched;  // by index
    std::vector<SpanMatch> matches;                             // in prediction ID order
    std::vector<SpanLabel> labels;                              // in label order
    double iou_sum = 0.0;                                       // over matches, in order
    int64_t steps = 0;                                          // Kuhn steps taken
};

// Phase 2 for the request (or corpus document) at node `root`; `path` names it in pointers.
// Documents of a corpus have no `match`/`minimumIou` fields (with_options = false); their
// `text` and their spans' `id` may be left out (an empty Span::id: spans/corpus.cpp numbers them).
SpanRequest span_read(const Document& doc, uint32_t root, const Path& path, const Limits& limits, bool with_options);
// Phase 3 (semantic checks, first fault in document order) and the matching, which
// throws MATCHING_LIMIT past `step_limit` steps. Thread-safe; needs no Python.
SpanOutcome span_compute(const SpanRequest& request, const Path& path, int64_t step_limit);
// SHA-256 of the canonical request (defaults applied): provenance.inputSha256.
std::string span_input_sha256(const SpanRequest& request);
// The facts of a UTF-8 (WTF-8) text that span checks need: length, astral positions.
void scan_span_text(std::string_view utf8, SpanText& text);

// matched / total, 0 when undefined (docs/contract.md §3: one division).
inline double span_ratio(int64_t part, int64_t whole) {
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
// 2PR/(P+R), 0 when P+R is 0; the one formula for documents, labels and corpus totals.
inline double span_f1(double p, double r) { return p + r != 0 ? 2 * p * r / (p + r) : 0.0; }

// Writes `result` (docs/contract.md §3 key order) through any emitter (json/emitter.hpp).
template <class Out>
void emit_span_result(const SpanRequest& request, const SpanOutcome& outcome, const std::vector<std::string>& conventions,
                      Out& out) {
    const int64_t matched = static_cast<int64_t>(outcome.matches.size());
    const int64_t predictions = static_cast<int64_t>(request.predictions.size());
    const int64_t references = static_cast<int64_t>(request.references.size());
    const double precision = span_ratio(matched, predictions), recall = span_ratio(matched, references);
    out.begin_object(17);
    out.key(Key::profile);
    out.literal("annotation-span-evaluation-v1");
    out.key(Key::offsetUnit);
    out.literal("utf16-code-unit");
    out.key(Key::referenceCount);
    out.integer(references);
    out.key(Key::predictionCount);
    out.integer(predictions);
    out.key(Key::matchedCount);
    out.integer(matched);
    out.key(Key::precision);
    out.number(precision);
    out.key(Key::recall);
    out.number(recall);
    out.key(Key::f1);
    out.number(span_f1(precision, recall));
    out.key(Key::precisionDefined);
    out.boolean(predictions > 0);
    out.key(Key::recallDefined);
    out.boolean(references > 0);
    out.key(Key::meanMatchedIou);
    if (matched > 0) {
        out.number(outcome.iou_sum / static_cast<double>(matched));
    } else {
        out.null_value();
    }
    out.key(Key::matches);
    out.begin_array(outcome.matches.size());
    for (const SpanMatch& m : outcome.matches) {
        out.begin_object(5);
        out.key(Key::predictionId);
        out.string(request.predictions[m.prediction].id);
        out.key(Key::referenceId);
        out.string(request.references[m.reference].id);
        out.key(Key::label);
        out.string(request.predictions[m.prediction].label);
        out.key(Key::iou);
        out.number(m.iou);
        out.key(Key::exactBoundaries);
        out.boolean(m.exact);
        out.end();
    }
    out.end();
    out.key(Key::unmatchedPredictionIds);
    out.begin_array(static_cast<size_t>(predictions - matched));
    for (uint32_t p : outcome.predictions_by_id) {
        if (!outcome.prediction_matched[p]) out.string(request.predictions[p].id);
    }
    out.end();
    out.key(Key::unmatchedReferenceIds);
    out.begin_array(static_cast<size_t>(references - matched));
    for (uint32_t r : outcome.references_by_id) {
        if (!outcome.reference_matched[r]) out.string(request.references[r].id);
    }
    out.end();
    out.key(Key::perLabel);
    out.begin_array(outcome.labels.size());
    for (const SpanLabel& l : outcome.labels) {
        const double lp = span_ratio(l.matched, l.predictions), lr = span_ratio(l.matched, l.references);
        out.begin_object(7);
        out.key(Key::label);
        out.string(l.label);
        out.key(Key::referenceCount);
        out.integer(l.references);
        out.key(Key::predictionCount);
        out.integer(l.predictions);
        out.key(Key::matchedCount);
        out.integer(l.matched);
        out.key(Key::precision);
        out.number(lp);
        out.key(Key::recall);
        out.number(lr);
        out.key(Key::f1);
        out.number(span_f1(lp, lr));
        out.end();
    }
    out.end();
    emit_conventions(conventions, out);
    out.end();
}

// Writes the compact JSON of `result` into `evaluation`, checks OUTPUT_LIMIT, hashes it.
void span_serialize(const SpanRequest& request, const SpanOutcome& outcome, const ConventionsTable& conventions,
                    const Limits& limits, Evaluation& evaluation);

}  // namespace evalcore
