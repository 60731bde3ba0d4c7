// Per-request limits (docs/contract.md §1.4); the same fields, order and defaults as evalcore.Limits.
#pragma once

#include <cstdint>
#include <string>

namespace evalcore {

struct Limits {
    int64_t input_bytes = 100000;
    int64_t output_bytes = 400000;
    int64_t json_depth = 20;
    int64_t json_nodes = 12000;
    int64_t queries = 50;
    int64_t retrieved_per_query = 100;
    int64_t judgments_per_query = 100;
    int64_t max_k = 100;
    int64_t text_utf16_units = 50000;
    int64_t references = 100;
    int64_t predictions = 100;
    int64_t matching_steps = 2000000;
};

// What a limit's error message ends with: how to raise it. `name` is the contract's name
// (jsonDepth); the Python keyword is its snake_case (json_depth), as evalcore.Limits has it.
inline std::string raise_hint(const char* name) {
    std::string field;
    for (const char* c = name; *c != '\0'; ++c) {
        if (*c >= 'A' && *c <= 'Z') {
            field.push_back('_');
            field.push_back(static_cast<char>(*c - 'A' + 'a'));
        } else {
            field.push_back(*c);
        }
    }
    return "; raise it with limits={\"" + field + "\": N}";
}

}  // namespace evalcore
