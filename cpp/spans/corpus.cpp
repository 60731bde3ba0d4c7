#include "spans/corpus.hpp"

#include <algorithm>
#include <atomic>

#include "common/errors.hpp"
#include "common/id_table.hpp"
#include "common/parallel.hpp"

namespace evalcore {

namespace {
Limits corpus_limits() {
    constexpr int64_t unlimited = 9007199254740991;
    Limits limits;
    limits.text_utf16_units = limits.references = limits.predictions = unlimited;
    return limits;
}
}  // namespace

void rethrow_for_document(size_t index, const std::exception_ptr& fault) {
    try {
        std::rethrow_exception(fault);
    } catch (const RequestError& e) {
        throw RequestError(e.code(), "/" + std::to_string(index) + e.pointer(),
                           "document " + std::to_string(index) + ": " + e.what());
    }
}

void span_corpus_document(CorpusDocument& document, bool overlap, double minimum_iou, int64_t step_limit,
                          SpanOutcome& outcome) {
    const Path path;  // pointers relative to the document; rethrow_for_document prefixes them
    if (document.document) {
        static const Limits limits = corpus_limits();
        document.request = span_read(*document.document, 0, path, limits, false);
    }
    document.request.overlap = overlap;
    document.request.minimum_iou = minimum_iou;
    outcome = span_compute(document.request, path, step_limit);
}

SpanCorpusOutcome span_corpus_evaluate(std::vector<CorpusDocument>& documents, bool overlap, double minimum_iou,
                                       int64_t step_limit, unsigned threads, Progress* progress) {
    const size_t count = documents.size();
    SpanCorpusOutcome corpus;
    corpus.overlap = overlap;
    corpus.minimum_iou = minimum_iou;
    corpus.outcomes.resize(count);
    std::vector<std::exception_ptr> faults(count);

    std::atomic<size_t> next{0};
    auto work = [&] {
        constexpr size_t chunk = 16;  // documents claimed at a time
        for (size_t begin; (begin = next.fetch_add(chunk)) < count;) {
            const size_t end = std::min(count, begin + chunk);
            for (size_t i = begin; i < end; ++i) {
                try {
                    span_corpus_document(documents[i], overlap, minimum_iou, step_limit, corpus.outcomes[i]);
                } catch (...) {
                    faults[i] = std::current_exception();
                }
            }
            if (progress == nullptr) continue;
            progress->advance(end - begin);
            if (progress->stopped()) break;  // thrown below, once every thread is done
        }
    };
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((count + 63) / 64)));
    on_threads(threads, [&](unsigned) { work(); });  // the documents are claimed, whichever thread runs
    if (progress != nullptr && progress->stopped()) throw ProgressCancelled();
    for (size_t i = 0; i < count; ++i) {
        if (faults[i]) {
            corpus.first_fault = i;
            corpus.fault = faults[i];
            return corpus;
        }
    }

    // Totals in document order, then match order: the same sums for any thread count.
    IdTable label_index;
    std::vector<SpanTotals> labels;
    auto totals_of = [&](std::string_view label) -> SpanTotals& {
        const uint32_t fresh = static_cast<uint32_t>(labels.size());
        const uint32_t* known = label_index.insert(label, fresh);
        if (known != nullptr) return labels[*known];
        labels.push_back(SpanTotals{label, 0, 0, 0, 0.0});
        return labels.back();
    };
    for (size_t i = 0; i < count; ++i) {
        const SpanRequest& request = documents[i].request;
        const SpanOutcome& outcome = corpus.outcomes[i];
        corpus.overall.matched += static_cast<int64_t>(outcome.matches.size());
        corpus.overall.predictions += static_cast<int64_t>(request.predictions.size());
        corpus.overall.references += static_cast<int64_t>(request.references.size());
        for (const SpanLabel& l : outcome.labels) {
            SpanTotals& t = totals_of(l.label);
            t.matched += l.matched;
            t.predictions += l.predictions;
            t.references += l.references;
        }
        for (const SpanMatch& m : outcome.matches) {
            corpus.overall.iou_sum += m.iou;
            totals_of(request.predictions[m.prediction].label).iou_sum += m.iou;
        }
    }
    std::sort(labels.begin(), labels.end(), [](const SpanTotals& a, const SpanTotals& b) { return a.label < b.label; });
    corpus.labels = std::move(labels);
    return corpus;
}

}  // namespace evalcore
