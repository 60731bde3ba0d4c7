#include "spans/spans.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "common/limits.hpp"
#include "common/id_table.hpp"
#include "json/emitter.hpp"
#include "json/writer.hpp"
#include "json/sha256.hpp"

namespace evalcore {
namespace {

constexpr double max_offset = 9007199254740991.0;

// ---- phase 2: schema -----------------------------------------------------------------------

// `id_required`: false for a corpus document's spans, which may leave it out (issue 24 item 5).
Span read_span(const SchemaChecker& schema, const Document& doc, uint32_t index, const Path& path, bool id_required) {
    const Node& node = id_required ? schema.object(index, path, "a span", {"id", "label", "start", "end"})
                                   : schema.object(index, path, "a span", {"label", "start", "end"});
    Span span;
    span.object = index;
    for (uint32_t m = 0; m < node.size; ++m) {
        const size_t field = schema.member(node, m, path, "a span", {"id", "label", "start", "end"});
        const uint32_t value = doc.member_value(node, m);
        switch (field) {
            case 0:
                span.id_lone = schema.string(value, path.child("id"), "a span id", 1, 80).flag;
                span.id = doc.string(value);
                span.id_node = value;
                break;
            case 1:
                span.label_lone = schema.string(value, path.child("label"), "a span label", 1, 80).flag;
                span.label = doc.string(value);
                span.label_node = value;
                break;
            case 2: span.start = static_cast<int64_t>(schema.number(value, path.child("start"), "start", 0, max_offset, false, true)); break;
            default: span.end = static_cast<int64_t>(schema.number(value, path.child("end"), "end", 0, max_offset, false, true)); break;
        }
    }
    return span;
}

// ---- phase 3: semantic checks ------------------------------------------------------------------

enum class Field : uint8_t { text, span, id, label };

struct SpanFault {
    uint32_t node = UINT32_MAX;  // document order: the earliest node wins
    int rank = 0;                // at one node: the lowest rank wins (docs/validation-order.md)
    ErrorCode code = ErrorCode::schema_violation;
    Field field = Field::text;
    bool predictions = false;
    size_t index = 0;
    std::string message;

    void consider(uint32_t at, int at_rank, ErrorCode at_code, Field at_field, bool at_predictions, size_t at_index,
                  std::string at_message) {
        if (at < node || (at == node && at_rank < rank)) {
            *this = SpanFault{at, at_rank, at_code, at_field, at_predictions, at_index, std::move(at_message)};
        }
    }
};

std::string quoted(std::string_view text) {
    std::string out;
    append_json_string(out, text);
    return shorten_for_message(out);
}

void check_semantics(const SpanRequest& request, const Path& path) {
    SpanFault fault;
    if (request.text.lone_surrogate) {
        fault.consider(request.text.node, 0, ErrorCode::invalid_unicode, Field::text, false, 0,
                       "the text contains a lone surrogate; send well-formed Unicode");
    }
    const int64_t length = request.text.units;
    const std::vector<uint32_t>& inside = request.text.inside_pairs;
    const auto splits_pair = [&](int64_t offset) { return std::binary_search(inside.begin(), inside.end(), offset); };
    IdTable ids, shapes;
    for (bool predictions : {false, true}) {
        const std::vector<Span>& spans = predictions ? request.predictions : request.references;
        const char* side = predictions ? "predictions" : "references";
        ids.reset(spans.size());
        shapes.reset(spans.size());
        std::vector<std::string> shape_keys(spans.size());  // owned keys for the shape table
        for (size_t i = 0; i < spans.size(); ++i) {
            const Span& span = spans[i];
            if (!(span.start < span.end && span.end <= length) || splits_pair(span.start) || splits_pair(span.end)) {
                const std::string where = "[" + std::to_string(span.start) + ", " + std::to_string(span.end) + ")";
                std::string message =
                    span.start >= span.end ? "a span needs start < end, got " + where
                    : span.end > length    ? "the span " + where + " ends past the text's " + std::to_string(length) + " UTF-16 code units"
                                           : "the span " + where + " splits a surrogate pair; offsets count UTF-16 code units";
                fault.consider(span.object, 3, ErrorCode::invalid_span, Field::span, predictions, i, std::move(message));
            }
            // label, start and end as one key: the label bytes, then both offsets.
            std::string& key = shape_keys[i];
            key.assign(span.label);
            key.append(reinterpret_cast<const char*>(&span.start), sizeof span.start);
            key.append(reinterpret_cast<const char*>(&span.end), sizeof span.end);
            if (shapes.insert(key, static_cast<uint32_t>(i)) != nullptr) {
                fault.consider(span.object, 4, ErrorCode::duplicate_span, Field::span, predictions, i,
                               "a span with label " + quoted(span.label) + " and offsets [" + std::to_string(span.start) +
                                   ", " + std::to_string(span.end) + ") is already in " + side);
            }
            if (span.id_lone) {
                fault.consider(span.id_node, 0, ErrorCode::invalid_unicode, Field::id, predictions, i,
                               quoted(span.id) + " contains a lone surrogate; send well-formed Unicode");
            }
            if (ids.insert(span.id, static_cast<uint32_t>(i)) != nullptr) {
                fault.consider(span.id_node, 1, ErrorCode::duplicate_id, Field::id, predictions, i,
                               "the id " + quoted(span.id) + " is used twice in " + side);
            }
            if (span.label_lone) {
                fault.consider(span.label_node, 0, ErrorCode::invalid_unicode, Field::label, predictions, i,
                               quoted(span.label) + " contains a lone surrogate; send well-formed Unicode");
            }
        }
    }
    if (fault.node == UINT32_MAX) return;
    std::string pointer = path.pointer();
    if (fault.field == Field::text) {
        pointer += "/text";
    } else {
        pointer += fault.predictions ? "/predictions/" : "/references/";
        pointer += std::to_string(fault.index);
        if (fault.field == Field::id) pointer += "/id";
        if (fault.field == Field::label) pointer += "/label";
    }
    throw RequestError(fault.code, pointer, fault.message);
}

// ---- phase 4: matching ------------------------------------------------------------------------

struct Candidate {
    double iou;
    uint32_t reference;  // index into request.references
    uint32_t rank;       // the reference's position in ID order (ties break on it)
};

// Kuhn's augmenting paths without recursion; one step per candidate looked at, as docs/contract.md §3 counts.
void kuhn(const std::vector<std::vector<Candidate>>& candidates, size_t reference_count, int64_t step_limit,
          std::vector<int64_t>& owner, int64_t& steps) {
    owner.assign(reference_count, -1);
    std::vector<uint8_t> visited(reference_count);
    struct Frame {
        uint32_t prediction;
        uint32_t next;
        int64_t waiting;  // reference whose owner is being re-placed by the frame above, or -1
    };
    std::vector<Frame> stack;
    for (uint32_t first = 0; first < candidates.size(); ++first) {
        std::fill(visited.begin(), visited.end(), 0);
        stack.assign(1, Frame{first, 0, -1});
        bool returned = false;
        while (!stack.empty()) {
            Frame& frame = stack.back();
            if (frame.waiting >= 0) {
                const int64_t r = frame.waiting;
                frame.waiting = -1;
                if (returned) {
                    owner[r] = frame.prediction;
                    stack.pop_back();
                    continue;
                }
            }
            const std::vector<Candidate>& list = candidates[frame.prediction];
            if (frame.next == list.size()) {
                stack.pop_back();
                returned = false;
                continue;
            }
            const uint32_t r = list[frame.next++].rank;
            if (++steps > step_limit) {
                throw RequestError(ErrorCode::matching_limit, "",
                                   "matching needed more than matchingSteps = " + std::to_string(step_limit) +
                                       " steps; send fewer overlapping spans" + raise_hint("matchingSteps"));
            }
            if (visited[r]) continue;
            visited[r] = 1;
            if (owner[r] < 0) {
                owner[r] = frame.prediction;
                stack.pop_back();
                returned = true;
                continue;
            }
            frame.waiting = r;
            stack.push_back(Frame{static_cast<uint32_t>(owner[r]), 0, -1});  // `frame` is not used after this
        }
    }
}

std::vector<uint32_t> order_by_id(const std::vector<Span>& spans) {
    std::vector<uint32_t> order(spans.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return spans[a].id < spans[b].id; });
    return order;
}

}  // namespace

SpanRequest span_read(const Document& doc, uint32_t root, const Path& path, const Limits& limits, bool with_options) {
    SchemaChecker schema(doc);
    const char* what = with_options ? "the request" : "a document";
    // A corpus document may leave its text out (issue 24 item 5): then no offset is past its end.
    const Node& node = with_options ? schema.object(root, path, what, {"text", "references", "predictions"})
                                    : schema.object(root, path, what, {"references", "predictions"});
    SpanRequest request;
    if (!with_options) request.text.units = static_cast<int64_t>(max_offset);
    for (uint32_t m = 0; m < node.size; ++m) {
        const size_t field =
            with_options ? schema.member(node, m, path, what, {"text", "references", "predictions", "match", "minimumIou"})
                         : schema.member(node, m, path, what, {"text", "references", "predictions"});
        const uint32_t value = doc.member_value(node, m);
        switch (field) {
            case 0: {
                const Node& text = schema.string(value, path.child("text"), "text", 0, limits.text_utf16_units, "textUtf16Units");
                request.text.node = value;
                request.text.lone_surrogate = text.flag;
                request.text.present = true;
                scan_span_text(doc.string(text), request.text);
                break;
            }
            case 1:
            case 2: {
                const bool predictions = field == 2;
                const char* name = predictions ? "predictions" : "references";
                const Path at = path.child(name);
                const Node& list =
                    schema.array(value, at, name, 0, predictions ? limits.predictions : limits.references, name);
                std::vector<Span>& spans = predictions ? request.predictions : request.references;
                spans.reserve(list.size);
                for (uint32_t i = 0; i < list.size; ++i) spans.push_back(read_span(schema, doc, doc.item(list, i), at.child(i), with_options));
                break;
            }
            case 3: request.overlap = schema.enumeration(value, path.child("match"), "match", {"exact", "overlap"}) == 1; break;
            default: request.minimum_iou = schema.number(value, path.child("minimumIou"), "minimumIou", 0, 1, true); break;
        }
    }
    return request;
}

void scan_span_text(std::string_view utf8, SpanText& text) {
    text.utf8 = utf8;
    text.inside_pairs.clear();
    uint32_t units = 0;
    for (unsigned char c : utf8) {
        if ((c & 0xC0) == 0x80) continue;  // continuation byte
        if (c >= 0xF0) {                   // 4-byte sequence: an astral character, two UTF-16 units
            text.inside_pairs.push_back(units + 1);
            units += 2;
        } else {
            units += 1;
        }
    }
    text.units = units;
}

SpanOutcome span_compute(const SpanRequest& request, const Path& path, int64_t step_limit) {
    check_semantics(request, path);
    SpanOutcome outcome;
    outcome.predictions_by_id = order_by_id(request.predictions);
    outcome.references_by_id = order_by_id(request.references);

    // Labels as small integers, in order of first occurrence.
    IdTable label_ids;
    label_ids.reset(request.predictions.size() + request.references.size());
    std::vector<std::string_view> label_names;
    auto label_of = [&](const Span& span) {
        const uint32_t fresh = static_cast<uint32_t>(label_names.size());
        const uint32_t* known = label_ids.insert(span.label, fresh);
        if (known != nullptr) return *known;
        label_names.push_back(span.label);
        return fresh;
    };
    std::vector<uint32_t> reference_label(request.references.size()), prediction_label(request.predictions.size());
    for (size_t i = 0; i < request.references.size(); ++i) reference_label[i] = label_of(request.references[i]);
    for (size_t i = 0; i < request.predictions.size(); ++i) prediction_label[i] = label_of(request.predictions[i]);

    // Candidates of each prediction (in prediction ID order), by IoU descending then reference ID.
    std::vector<std::vector<Candidate>> candidates(request.predictions.size());
    for (size_t pi = 0; pi < outcome.predictions_by_id.size(); ++pi) {
        const uint32_t p = outcome.predictions_by_id[pi];
        const Span& pred = request.predictions[p];
        std::vector<Candidate>& list = candidates[pi];
        for (uint32_t ri = 0; ri < outcome.references_by_id.size(); ++ri) {
            const uint32_t r = outcome.references_by_id[ri];
            if (reference_label[r] != prediction_label[p]) continue;
            const Span& ref = request.references[r];
            if (!request.overlap) {
                if (ref.start == pred.start && ref.end == pred.end) list.push_back(Candidate{1.0, r, ri});
                continue;
            }
            const int64_t inter = std::max<int64_t>(0, std::min(pred.end, ref.end) - std::max(pred.start, ref.start));
            const int64_t uni = (pred.end - pred.start) + (ref.end - ref.start) - inter;
            const double iou = static_cast<double>(inter) / static_cast<double>(uni);
            if (iou >= request.minimum_iou) list.push_back(Candidate{iou, r, ri});
        }
        std::stable_sort(list.begin(), list.end(), [](const Candidate& a, const Candidate& b) { return a.iou > b.iou; });
    }
    std::vector<int64_t> owner;  // by reference rank: the prediction rank that holds it
    kuhn(candidates, request.references.size(), step_limit, owner, outcome.steps);

    std::vector<int64_t> held_by(request.predictions.size(), -1);  // prediction rank -> reference rank
    for (size_t ri = 0; ri < owner.size(); ++ri) {
        if (owner[ri] >= 0) held_by[static_cast<size_t>(owner[ri])] = static_cast<int64_t>(ri);
    }
    outcome.prediction_matched.assign(request.predictions.size(), 0);
    outcome.reference_matched.assign(request.references.size(), 0);
    std::vector<SpanLabel> by_label(label_names.size());
    for (size_t l = 0; l < label_names.size(); ++l) by_label[l].label = label_names[l];
    for (size_t r = 0; r < request.references.size(); ++r) ++by_label[reference_label[r]].references;
    for (size_t p = 0; p < request.predictions.size(); ++p) ++by_label[prediction_label[p]].predictions;
    for (size_t pi = 0; pi < held_by.size(); ++pi) {
        if (held_by[pi] < 0) continue;
        const uint32_t p = outcome.predictions_by_id[pi];
        const uint32_t r = outcome.references_by_id[static_cast<size_t>(held_by[pi])];
        double iou = 0.0;
        for (const Candidate& c : candidates[pi]) {
            if (c.reference == r) {
                iou = c.iou;
                break;
            }
        }
        const Span& pred = request.predictions[p];
        const Span& ref = request.references[r];
        outcome.matches.push_back(SpanMatch{p, r, iou, pred.start == ref.start && pred.end == ref.end});
        outcome.iou_sum += iou;
        outcome.prediction_matched[p] = outcome.reference_matched[r] = 1;
        ++by_label[prediction_label[p]].matched;
    }
    std::sort(by_label.begin(), by_label.end(), [](const SpanLabel& a, const SpanLabel& b) { return a.label < b.label; });
    outcome.labels = std::move(by_label);
    return outcome;
}

std::string span_input_sha256(const SpanRequest& request) {
    std::string text;
    text.reserve(request.text.utf8.size() + 96 * (request.references.size() + request.predictions.size()) + 64);
    JsonText out(text);
    out.raw(request.overlap ? "{\"match\":\"overlap\",\"minimumIou\":" : "{\"match\":\"exact\",\"minimumIou\":");
    out.number(request.minimum_iou);
    auto spans = [&](const std::vector<Span>& list) {
        out.ch('[');
        for (size_t i = 0; i < list.size(); ++i) {
            if (i) out.ch(',');
            out.raw("{\"end\":");
            out.integer(list[i].end);
            out.raw(",\"id\":");
            out.string(list[i].id);
            out.raw(",\"label\":");
            out.string(list[i].label);
            out.raw(",\"start\":");
            out.integer(list[i].start);
            out.ch('}');
        }
        out.ch(']');
    };
    out.raw(",\"predictions\":");
    spans(request.predictions);
    out.raw(",\"references\":");
    spans(request.references);
    out.raw(",\"text\":");
    out.string(request.text.utf8);
    out.ch('}');
    out.finish();
    return sha256_hex(text);
}

void span_serialize(const SpanRequest& request, const SpanOutcome& outcome, const ConventionsTable& conventions,
                    const Limits& limits, Evaluation& evaluation) {
    evaluation.result_json.clear();
    JsonEmitter emitter(evaluation.result_json);
    emit_span_result(request, outcome, conventions.at(request.overlap ? 1 : 0), emitter);
    emitter.finish();
    finish_evaluation(evaluation, limits.output_bytes);
}

}  // namespace evalcore
