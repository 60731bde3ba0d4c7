// Corpus-scale span evaluation: many documents matched in parallel, micro-averaged totals
// summed in document order (so the thread count never changes a bit of the result), and
// macro and weighted averages over labels from the exact integer counts.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/exact_sum.hpp"
#include "common/limits.hpp"
#include "common/progress.hpp"
#include "json/document.hpp"
#include "json/output_keys.hpp"
#include "spans/spans.hpp"

namespace evalcore {

// One document of a corpus, read either the fast way (its request filled straight from the
// caller's objects) or the slow way (`document` holds it as a tree; span_read fills the request).
struct CorpusDocument {
    SpanRequest request;
    std::unique_ptr<Document> document;  // null on the fast path
    // The IDs given to spans without one ("0", "1", ... by position in their list), one buffer
    // a document (not one string a span); the spans' views point into it, so a document is
    // never moved once numbered.
    std::string numbered_ids;
};

struct SpanTotals {
    std::string_view label;  // per-label totals only
    int64_t matched = 0, predictions = 0, references = 0;
    // Over every match, exactly (rounded once when the mean is made): the same mean for any
    // order of the documents and any thread count (docs/contract.md §5).
    ExactSum iou_sum;
};

// Macro or weighted (by reference support) precision, recall and F1 over the labels, as
// scikit-learn and seqeval define them; made at the end from the labels' integer counts.
struct SpanAverages {
    double precision = 0.0, recall = 0.0, f1 = 0.0;
};

struct SpanCorpusOutcome {
    std::vector<SpanOutcome> outcomes;
    SpanTotals overall;
    std::vector<SpanTotals> labels;  // in label order
    SpanAverages macro, weighted;
    int64_t without_text = 0;  // documents scored by their offsets alone
    bool overlap = false;
    double minimum_iou = 0.5;
    // The first document (in order) whose checks or matching failed, and why; when set,
    // nothing else in the outcome is meaningful.
    size_t first_fault = SIZE_MAX;
    std::exception_ptr fault;
};

// Checks (slow-path documents), matches and totals every document, spread over `threads`
// threads. Only `step_limit` bounds a document; no per-request size limit applies.
// `progress` (if any) advances by the documents done; asked to stop, it stops claiming
// documents and this throws ProgressCancelled.
SpanCorpusOutcome span_corpus_evaluate(std::vector<CorpusDocument>& documents, bool overlap, double minimum_iou,
                                       int64_t step_limit, unsigned threads, Progress* progress = nullptr);

// Rethrows a document's RequestError with "/<index>" before its pointer and
// "document <index>: " before its message.
[[noreturn]] void rethrow_for_document(size_t index, const std::exception_ptr& fault);

// The schema checks (slow-path documents), the numbering of spans without IDs and the
// matching of one document (throws its fault).
void span_corpus_document(CorpusDocument& document, bool overlap, double minimum_iou, int64_t step_limit,
                          SpanOutcome& outcome);

// Writes the corpus result through any emitter; per-document results when asked.
template <class Out>
void emit_span_corpus(const std::vector<CorpusDocument>& documents, const SpanCorpusOutcome& corpus, bool per_document,
                      const std::vector<std::string>& conventions, Out& out) {
    const auto totals = [&](const SpanTotals& t, bool labelled) {
        const double p = span_ratio(t.matched, t.predictions), r = span_ratio(t.matched, t.references);
        out.begin_object(labelled ? 8 : 7);
        if (labelled) {
            out.key(Key::label);
            out.string(t.label);
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
        out.number(span_f1(p, r));
        out.key(Key::meanMatchedIou);
        if (t.matched > 0) {
            out.number(t.iou_sum.rounded() / static_cast<double>(t.matched));
        } else {
            out.null_value();
        }
        out.end();
    };
    const auto averages = [&](const SpanAverages& a) {
        const std::pair<Key, double> fields[] = {{Key::precision, a.precision}, {Key::recall, a.recall}, {Key::f1, a.f1}};
        out.begin_object(3);
        for (const auto& [key, value] : fields) {
            out.key(key);
            out.number(value);
        }
        out.end();
    };
    out.begin_object(per_document ? 10 : 8);
    out.key(Key::documentCount);
    out.integer(static_cast<int64_t>(documents.size()));
    out.key(Key::documentsWithoutText);
    out.integer(corpus.without_text);
    out.key(Key::match);
    out.literal(corpus.overlap ? "overlap" : "exact");
    out.key(Key::minimumIou);
    out.number(corpus.minimum_iou);
    out.key(Key::overall);
    totals(corpus.overall, false);
    out.key(Key::macro);
    averages(corpus.macro);
    out.key(Key::weighted);
    averages(corpus.weighted);
    out.key(Key::perLabel);
    out.begin_array(corpus.labels.size());
    for (const SpanTotals& t : corpus.labels) totals(t, true);
    out.end();
    if (per_document) {
        out.key(Key::perDocumentTextChecked);  // false: scored without text, offsets unchecked against one
        out.begin_array(documents.size());
        for (const CorpusDocument& d : documents) out.boolean(d.request.text.present);
        out.end();
        out.key(Key::perDocument);
        out.begin_array(documents.size());
        for (size_t i = 0; i < documents.size(); ++i) {
            emit_span_result(documents[i].request, corpus.outcomes[i], conventions, out);
        }
        out.end();
    }
    out.end();
}

}  // namespace evalcore
