// JSON text as evalcore emits and hashes it: numbers in ECMAScript Number::toString form,
// strings escaped as JSON.stringify does, no whitespace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "json_document.hpp"

namespace evalcore {

// Writes Number::toString(value) of ECMA-262 (value finite) into `buffer` (at least 32
// bytes); returns the length. -0 is written "0".
size_t format_ecma_number(double value, char* buffer);

void append_ecma_number(std::string& out, double value);

// JSON.stringify of a UTF-8 string (WTF-8 surrogates come out as \udxxx escapes).
void append_json_string(std::string& out, std::string_view utf8);

// Compact JSON of the value at `index`, object members in their stored (emission) order.
void append_compact_json(std::string& out, const Document& doc, uint32_t index = 0);

}  // namespace evalcore
