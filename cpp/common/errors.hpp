// Rejections of a request: the contract's error codes (docs/contract.md §1.3) as a C++ exception.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace evalcore {

enum class ErrorCode : uint8_t {
    invalid_json,
    input_limit,
    output_limit,
    schema_violation,
    duplicate_field,
    unsafe_key,
    invalid_number,
    numeric_overflow,
    invalid_unicode,
    duplicate_id,
    unjudged_document,
    invalid_span,
    duplicate_span,
    matching_limit,
};

// The contract's spelling, e.g. "DUPLICATE_ID".
const char* code_name(ErrorCode code) noexcept;
// The HTTP status the code maps to.
int code_status(ErrorCode code) noexcept;

// Thrown for every rejected request; the bindings turn it into evalcore.EvaluationError.
class RequestError : public std::runtime_error {
public:
    RequestError(ErrorCode code, std::string pointer, std::string message)
        : std::runtime_error(message), code_(code), pointer_(std::move(pointer)) {}
    ErrorCode code() const noexcept { return code_; }
    const std::string& pointer() const noexcept { return pointer_; }

private:
    ErrorCode code_;
    std::string pointer_;
};

// A value as it appears in messages: at most 80 characters, never cutting a UTF-8 sequence.
std::string shorten_for_message(const std::string& text);

}  // namespace evalcore
