// Strict RFC 8259 JSON over UTF-8, read into a request Document through RequestReader so
// that the parse-level checks (depth, nodes, unsafe keys, numbers) are the same as for
// Python objects. Adds what only raw text can hold: malformed JSON or UTF-8 (INVALID_JSON),
// repeated keys (DUPLICATE_FIELD), NaN/Infinity (INVALID_NUMBER), literals past binary64
// (NUMERIC_OVERFLOW). Iterative: no nesting depth can exhaust the C stack.
#pragma once

#include <string_view>

#include "json/document.hpp"
#include "common/limits.hpp"

namespace evalcore {

// Checks the body's length against limits.input_bytes first, then parses. Throws RequestError.
void parse_json_request(std::string_view body, const Limits& limits, Document& doc);

}  // namespace evalcore
