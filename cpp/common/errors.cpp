#include "common/errors.hpp"

namespace evalcore {

const char* code_name(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::invalid_json: return "INVALID_JSON";
        case ErrorCode::input_limit: return "INPUT_LIMIT";
        case ErrorCode::output_limit: return "OUTPUT_LIMIT";
        case ErrorCode::schema_violation: return "SCHEMA_VIOLATION";
        case ErrorCode::duplicate_field: return "DUPLICATE_FIELD";
        case ErrorCode::unsafe_key: return "UNSAFE_KEY";
        case ErrorCode::invalid_number: return "INVALID_NUMBER";
        case ErrorCode::numeric_overflow: return "NUMERIC_OVERFLOW";
        case ErrorCode::invalid_unicode: return "INVALID_UNICODE";
        case ErrorCode::duplicate_id: return "DUPLICATE_ID";
        case ErrorCode::unjudged_document: return "UNJUDGED_DOCUMENT";
        case ErrorCode::invalid_span: return "INVALID_SPAN";
        case ErrorCode::duplicate_span: return "DUPLICATE_SPAN";
        case ErrorCode::matching_limit: return "MATCHING_LIMIT";
    }
    return "SCHEMA_VIOLATION";
}

int code_status(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::invalid_json: return 400;
        case ErrorCode::input_limit:
        case ErrorCode::output_limit: return 413;
        default: return 422;
    }
}

std::string shorten_for_message(const std::string& text) {
    // Count characters (UTF-8 lead bytes) so that the cut lands between two of them.
    size_t chars = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
        if (++chars == 80) {
            return text.substr(0, i) + "\xE2\x80\xA6";  // U+2026 HORIZONTAL ELLIPSIS
        }
    }
    return text;
}

}  // namespace evalcore
