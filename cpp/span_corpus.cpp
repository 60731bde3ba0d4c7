#include "span_corpus.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "errors.hpp"
#include "id_table.hpp"

namespace evalcore {

namespace {
constexpr int64_t unlimited = 9007199254740991;

Limits corpus_limits() {
    Limits limits;
    limits.text_utf16_units = limits.references = limits.predictions = unlimited;
    return limits;
}
}  // namespace

SpanCorpusOutcome span_corpus_evaluate(const Document& doc, bool overlap, double minimum_iou, int64_t step_limit,
                                       unsigned threads) {
    const Node& root = doc[0];
    const size_t count = root.size;
    SpanCorpusOutcome corpus;
    corpus.overlap = overlap;
    corpus.minimum_iou = minimum_iou;
    corpus.requests.resize(count);
    corpus.outcomes.resize(count);
    std::vector<std::exception_ptr> errors(count);
    const Limits limits = corpus_limits();

    std::atomic<size_t> next{0};
    auto work = [&] {
        constexpr size_t chunk = 16;  // documents claimed at a time
        for (size_t begin; (begin = next.fetch_add(chunk)) < count;) {
            for (size_t i = begin; i < std::min(count, begin + chunk); ++i) {
                try {
                    const Path path;  // pointers relative to the document; prefixed below
                    SpanRequest& request = corpus.requests[i];
                    request = span_read(doc, doc.item(root, static_cast<uint32_t>(i)), path, limits, false);
                    request.overlap = overlap;
                    request.minimum_iou = minimum_iou;
                    corpus.outcomes[i] = span_compute(doc, request, path, step_limit);
                } catch (...) {
                    errors[i] = std::current_exception();
                }
            }
        }
    };
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((count + 63) / 64)));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();

    for (size_t i = 0; i < count; ++i) {
        if (!errors[i]) continue;
        try {
            std::rethrow_exception(errors[i]);
        } catch (const RequestError& e) {
            throw RequestError(e.code(), "/" + std::to_string(i) + e.pointer(),
                               "document " + std::to_string(i) + ": " + e.what());
        }
    }

    // Totals in document order, then match order: the same sums for any thread count.
    IdTable label_index;
    label_index.reset(64);
    std::vector<SpanTotals> labels;
    auto totals_of = [&](uint32_t label_node) -> SpanTotals& {
        const uint32_t fresh = static_cast<uint32_t>(labels.size());
        const uint32_t* known = label_index.insert(doc.string(label_node), fresh);
        if (known != nullptr) return labels[*known];
        labels.push_back(SpanTotals{label_node, 0, 0, 0, 0.0});
        return labels.back();
    };
    for (size_t i = 0; i < count; ++i) {
        const SpanRequest& request = corpus.requests[i];
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
    std::sort(labels.begin(), labels.end(),
              [&](const SpanTotals& a, const SpanTotals& b) { return doc.string(a.label) < doc.string(b.label); });
    corpus.labels = std::move(labels);
    return corpus;
}

}  // namespace evalcore
