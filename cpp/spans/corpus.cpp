#include "spans/corpus.hpp"

#include <algorithm>
#include <atomic>

#include "common/errors.hpp"
#include "common/exact_sum.hpp"
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
size_t decimal_digits(size_t n) {
    size_t digits = 1;
    for (; n >= 10; n /= 10) ++digits;
    return digits;
}

// A list's first span decides whether it gives IDs; a span that departs from it is a fault at
// that span (the earlier one in document order when both lists have one). Span::object is 0
// on the fast path: the fault is then found again, exactly, by the slow way.
void check_id_presence(const SpanRequest& request, const Path& path) {
    struct Mixed {
        uint32_t object = UINT32_MAX;
        bool predictions = false;
        size_t index = 0;
        bool missing = false;  // this span has no ID where the first has one
        bool set = false;
    } mixed;
    for (bool predictions : {false, true}) {
        const std::vector<Span>& spans = predictions ? request.predictions : request.references;
        for (size_t i = 1; i < spans.size(); ++i) {
            if (spans[i].id.empty() == spans[0].id.empty()) continue;
            if (!mixed.set || spans[i].object < mixed.object) {
                mixed = Mixed{spans[i].object, predictions, i, spans[i].id.empty(), true};
            }
            break;
        }
    }
    if (!mixed.set) return;
    const std::string side = mixed.predictions ? "predictions" : "references";
    const std::string here = side + "/" + std::to_string(mixed.index);
    throw RequestError(ErrorCode::schema_violation, path.pointer() + "/" + here,
                       here + (mixed.missing ? " has no id but " : " has an id but ") + side + "/0 " +
                           (mixed.missing ? "has one" : "has none") + "; give every span of a document's " + side +
                           " an id, or none (then each is numbered by its position: \"0\", \"1\", ...)");
}

// Spans without IDs get their position in their list as a decimal string: one buffer, reserved
// whole first, so the views stay valid.
void number_spans(CorpusDocument& document) {
    SpanRequest& request = document.request;
    size_t length = 0;
    for (const std::vector<Span>* spans : {&request.references, &request.predictions}) {
        if (spans->empty() || !spans->front().id.empty()) continue;
        for (size_t i = 0; i < spans->size(); ++i) length += decimal_digits(i);
    }
    std::string& buffer = document.numbered_ids;
    buffer.clear();
    if (length == 0) return;
    buffer.reserve(length);
    char digits[24];
    for (std::vector<Span>* spans : {&request.references, &request.predictions}) {
        if (spans->empty() || !spans->front().id.empty()) continue;
        for (size_t i = 0; i < spans->size(); ++i) {
            size_t n = i, count = 0;
            do {
                digits[count++] = static_cast<char>('0' + n % 10);
                n /= 10;
            } while (n != 0);
            const size_t at = buffer.size();
            while (count > 0) buffer.push_back(digits[--count]);
            (*spans)[i].id = std::string_view(buffer.data() + at, buffer.size() - at);
        }
    }
}

// Macro and weighted averages over the labels (in label order), from their integer counts:
// each sum is exact (ExactSum), rounded once, then divided once, so no order of documents,
// threads or labels changes a bit.
void average_labels(SpanCorpusOutcome& corpus) {
    ExactSum macro[3], weighted[3];
    int64_t support = 0;
    for (const SpanTotals& t : corpus.labels) {
        const double p = span_ratio(t.matched, t.predictions), r = span_ratio(t.matched, t.references);
        const double f = span_f1(p, r), s = static_cast<double>(t.references);
        macro[0].add(p);
        macro[1].add(r);
        macro[2].add(f);
        weighted[0].add(p * s);
        weighted[1].add(r * s);
        weighted[2].add(f * s);
        support += t.references;
    }
    const auto mean = [](const ExactSum& sum, int64_t count) {
        return count > 0 ? sum.rounded() / static_cast<double>(count) : 0.0;  // no labels or no support: 0
    };
    const int64_t labels = static_cast<int64_t>(corpus.labels.size());
    corpus.macro = SpanAverages{mean(macro[0], labels), mean(macro[1], labels), mean(macro[2], labels)};
    corpus.weighted = SpanAverages{mean(weighted[0], support), mean(weighted[1], support), mean(weighted[2], support)};
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
    check_id_presence(document.request, path);
    number_spans(document);
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
        labels.push_back(SpanTotals{label, 0, 0, 0, ExactSum{}});
        return labels.back();
    };
    for (size_t i = 0; i < count; ++i) {
        const SpanRequest& request = documents[i].request;
        const SpanOutcome& outcome = corpus.outcomes[i];
        if (!request.text.present) ++corpus.without_text;
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
            corpus.overall.iou_sum.add(m.iou);
            totals_of(request.predictions[m.prediction].label).iou_sum.add(m.iou);
        }
    }
    std::sort(labels.begin(), labels.end(), [](const SpanTotals& a, const SpanTotals& b) { return a.label < b.label; });
    corpus.labels = std::move(labels);
    average_labels(corpus);
    return corpus;
}

}  // namespace evalcore
