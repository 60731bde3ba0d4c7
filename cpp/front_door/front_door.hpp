// The raw-JSON front door as plain C++: request body in, response body out (the envelope,
// or Mixpeek's response for score). Used by the bindings' evaluate_json and by the fuzzer.
#pragma once

#include <string>
#include <string_view>

#include "common/evaluation.hpp"
#include "json/document.hpp"
#include "common/limits.hpp"

namespace evalcore {

// `operation` is "ranking-evaluate", "span-evaluate" or "score"; `conventions` the table of
// that operation; `doc` and `evaluation` are scratch space (reused between calls).
// Throws RequestError for a rejected request, std::invalid_argument for an unknown operation.
std::string evaluate_json_request(std::string_view operation, std::string_view body, const Limits& limits,
                                  const ConventionsTable& conventions, std::string_view version, unsigned threads,
                                  Document& doc, Evaluation& evaluation);

}  // namespace evalcore
