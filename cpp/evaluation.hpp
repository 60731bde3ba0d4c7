// What every operation returns: the result tree, its compact JSON, and both provenance hashes.
#pragma once

#include <string>
#include <vector>

#include "json_document.hpp"

namespace evalcore {

struct Evaluation {
    Document result;            // emission order; node 0 is `result`
    std::string result_json;    // compact JSON of `result` (what outputSha256 covers)
    std::string input_sha256;   // of the canonical request, defaults applied
    std::string output_sha256;
};

// The `conventions` sentences of one operation, one list per policy variant.
using ConventionsTable = std::vector<std::vector<std::string>>;

// Serializes `evaluation.result`, enforces outputBytes and fills both hashes.
void finish_evaluation(Evaluation& evaluation, const std::string& canonical_input, int64_t output_bytes);

}  // namespace evalcore
