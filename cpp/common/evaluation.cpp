#include "common/evaluation.hpp"

#include "common/errors.hpp"
#include "common/limits.hpp"
#include "json/writer.hpp"
#include "json/sha256.hpp"

namespace evalcore {

void finish_evaluation(Evaluation& evaluation, int64_t output_bytes) {
    if (static_cast<int64_t>(evaluation.result_json.size()) > output_bytes) {
        throw RequestError(ErrorCode::output_limit, "",
                           "the result would be " + std::to_string(evaluation.result_json.size()) +
                               " bytes, over outputBytes = " + std::to_string(output_bytes) +
                               "; send fewer items" + raise_hint("outputBytes"));
    }
    evaluation.output_sha256 = sha256_hex(evaluation.result_json);
}

std::string envelope_json(std::string_view operation, std::string_view version, const Evaluation& evaluation) {
    std::string out;
    out.reserve(evaluation.result_json.size() + 256);
    JsonText text(out);
    text.raw("{\"operation\":");
    text.string(operation);
    text.raw(",\"version\":");
    text.string(version);
    text.raw(",\"result\":");
    text.raw(evaluation.result_json);
    text.raw(",\"provenance\":{\"inputSha256\":\"");
    text.raw(evaluation.input_sha256);
    text.raw("\",\"outputSha256\":\"");
    text.raw(evaluation.output_sha256);
    text.raw("\",\"deterministic\":true,\"externalRequests\":0}}");
    text.finish();
    return out;
}

}  // namespace evalcore
