#include "front_door/front_door.hpp"

#include <stdexcept>

#include "common/errors.hpp"
#include "common/limits.hpp"
#include "json/emitter.hpp"
#include "json/parser.hpp"
#include "ranking/ranking.hpp"
#include "json/schema.hpp"
#include "score/score.hpp"
#include "spans/spans.hpp"

namespace evalcore {

std::string evaluate_json_request(std::string_view operation, std::string_view body, const Limits& limits,
                                  const ConventionsTable& conventions, std::string_view version, unsigned threads,
                                  Document& doc, Evaluation& evaluation) {
    if (operation != "ranking-evaluate" && operation != "span-evaluate" && operation != "score") {
        throw std::invalid_argument("unknown operation " + std::string(operation));
    }
    doc.clear();
    parse_json_request(body, limits, doc);
    if (operation == "ranking-evaluate") {
        const RankingRequest request = ranking_read(doc, limits);
        RankingOutcome outcome = ranking_layout(doc, request);
        ranking_compute(doc, request, outcome);
        ranking_serialize(doc, outcome, conventions, limits, evaluation);
        evaluation.input_sha256 = ranking_input_sha256(doc, request);
        return envelope_json(operation, version, evaluation);
    }
    if (operation == "span-evaluate") {
        const Path root;
        const SpanRequest request = span_read(doc, 0, root, limits, true);
        const SpanOutcome outcome = span_compute(request, root, limits.matching_steps);
        span_serialize(request, outcome, conventions, limits, evaluation);
        evaluation.input_sha256 = span_input_sha256(request);
        return envelope_json(operation, version, evaluation);
    }
    const ScoreRequest request = score_read(doc);
    const ScoreOutcome outcome = score_compute(request, threads);
    std::string out;
    JsonEmitter emitter(out);
    emit_score_response(request, outcome, emitter);
    emitter.finish();
    if (static_cast<int64_t>(out.size()) > limits.output_bytes) {
        throw RequestError(ErrorCode::output_limit, "",
                           "the response would be " + std::to_string(out.size()) + " bytes, over outputBytes = " +
                               std::to_string(limits.output_bytes) + "; send fewer items" + raise_hint("outputBytes"));
    }
    return out;
}

}  // namespace evalcore
