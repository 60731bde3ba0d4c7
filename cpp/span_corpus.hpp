// Corpus-scale span evaluation: many documents matched in parallel, micro-averaged totals
// summed in document order (so the thread count never changes a bit of the result).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json_document.hpp"
#include "limits.hpp"
#include "output_keys.hpp"
#include "spans.hpp"

namespace evalcore {

struct SpanTotals {
    uint32_t label = 0;  // string node of the label's first occurrence (per-label totals only)
    int64_t matched = 0, predictions = 0, references = 0;
    double iou_sum = 0.0;  // over every match, in document order then prediction ID order
};

struct SpanCorpusOutcome {
    std::vector<SpanRequest> requests;
    std::vector<SpanOutcome> outcomes;
    SpanTotals overall;
    std::vector<SpanTotals> labels;  // in label order
    bool overlap = false;
    double minimum_iou = 0.5;
};

// `doc`'s root is the array of documents, each {text, references, predictions}. Only
// `limits.matching_steps` applies (per document). Spreads the documents over `threads`
// threads. The first faulty document's fault is thrown, its pointer prefixed with
// "/<index>" and its message with "document <index>: ".
SpanCorpusOutcome span_corpus_evaluate(const Document& doc, bool overlap, double minimum_iou, int64_t step_limit,
                                       unsigned threads);

// Writes the corpus result through any emitter; per-document results when asked.
template <class Out>
void emit_span_corpus(const Document& doc, const SpanCorpusOutcome& corpus, bool per_document,
                      const std::vector<std::string>& conventions, Out& out) {
    const auto ratio = [](int64_t a, int64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; };
    const auto totals = [&](const SpanTotals& t, bool labelled) {
        const double p = ratio(t.matched, t.predictions), r = ratio(t.matched, t.references);
        out.begin_object(labelled ? 8 : 7);
        if (labelled) {
            out.key(Key::label);
            out.input_string(doc, t.label);
        }
        out.key(Key::matched);
        out.integer(t.matched);
        out.key(Key::predictions);
        out.integer(t.predictions);
        out.key(Key::references);
        out.integer(t.references);
        out.key(Key::precision);
        out.number(p);
        out.key(Key::recall);
        out.number(r);
        out.key(Key::f1);
        out.number(p + r != 0 ? 2 * p * r / (p + r) : 0.0);
        out.key(Key::meanMatchedIou);
        if (t.matched > 0) {
            out.number(t.iou_sum / static_cast<double>(t.matched));
        } else {
            out.null_value();
        }
        out.end();
    };
    out.begin_object(per_document ? 6 : 5);
    out.key(Key::documentCount);
    out.integer(static_cast<int64_t>(corpus.requests.size()));
    out.key(Key::match);
    out.literal(corpus.overlap ? "overlap" : "exact");
    out.key(Key::minimumIou);
    out.number(corpus.minimum_iou);
    out.key(Key::overall);
    totals(corpus.overall, false);
    out.key(Key::perLabel);
    out.begin_array(corpus.labels.size());
    for (const SpanTotals& t : corpus.labels) totals(t, true);
    out.end();
    if (per_document) {
        out.key(Key::perDocument);
        out.begin_array(corpus.requests.size());
        for (size_t i = 0; i < corpus.requests.size(); ++i) {
            emit_span_result(doc, corpus.requests[i], corpus.outcomes[i], conventions, out);
        }
        out.end();
    }
    out.end();
}

}  // namespace evalcore
