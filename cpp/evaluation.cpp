#include "evaluation.hpp"

#include "errors.hpp"
#include "sha256.hpp"

namespace evalcore {

void finish_evaluation(Evaluation& evaluation, int64_t output_bytes) {
    if (static_cast<int64_t>(evaluation.result_json.size()) > output_bytes) {
        throw RequestError(ErrorCode::output_limit, "",
                           "the result would be " + std::to_string(evaluation.result_json.size()) +
                               " bytes, over outputBytes = " + std::to_string(output_bytes) +
                               "; send fewer items or raise the limit");
    }
    evaluation.output_sha256 = sha256_hex(evaluation.result_json);
}

}  // namespace evalcore
