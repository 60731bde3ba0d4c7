// What every operation hands back besides its typed outcome: the compact JSON of `result`
// and both provenance hashes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace evalcore {

struct Evaluation {
    std::string result_json;  // compact JSON of `result` (what outputSha256 covers)
    std::string input_sha256;
    std::string output_sha256;
};

// The `conventions` sentences of one operation, one list per policy variant.
using ConventionsTable = std::vector<std::vector<std::string>>;

// Enforces outputBytes on `evaluation.result_json` and hashes it.
void finish_evaluation(Evaluation& evaluation, int64_t output_bytes);

// The response body of docs/contract.md §1.5: {"operation","version","result","provenance"}, compact.
std::string envelope_json(std::string_view operation, std::string_view version, const Evaluation& evaluation);

}  // namespace evalcore
