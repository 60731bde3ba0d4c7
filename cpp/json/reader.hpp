// Phase 1 of docs/validation-order.md: the parse-level checks (node count, depth, canonical
// byte count, unsafe keys, numbers), applied while a request is read into a Document. Both
// producers use it: the Python-object walker and the raw-JSON parser.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "json/document.hpp"
#include "common/limits.hpp"

namespace evalcore {

class RequestReader {
public:
    // count_bytes: add up the canonical JSON length as values arrive (Python objects);
    // the raw-JSON path checks the body's length before parsing instead.
    // nodes_before: values counted already, by earlier documents of a corpus (whose
    // jsonNodes is a total); `whole` names what the limits apply to in messages.
    RequestReader(Document& doc, const Limits& limits, bool count_bytes, int64_t nodes_before = 0,
                  const char* whole = "the request");

    int64_t nodes() const { return nodes_; }  // counted so far, nodes_before included

    void null_value();
    void boolean(bool value);
    void number(double value);  // INVALID_NUMBER when not finite
    void overflowing_number();  // NUMERIC_OVERFLOW at the value being read
    // A value JSON cannot hold (a Python set, bytes, …): SCHEMA_VIOLATION at it.
    [[noreturn]] void not_json(std::string_view type_name);

    // Strings: append the UTF-8 bytes to text() first, starting at `offset`.
    std::string& text() { return doc_.text; }
    const Document& document() const { return doc_; }
    void string_appended(uint32_t offset, const StringInfo& info, uint64_t json_size);
    // An object member's key, appended the same way; checks UNSAFE_KEY.
    void key_appended(uint32_t offset, const StringInfo& info, uint64_t json_size);
    // An object key that is not a string (Python only): SCHEMA_VIOLATION at the object.
    [[noreturn]] void non_string_key(std::string_view type_name);
    // A mapping whose items() gave something other than (key, value) tuples (Python only):
    // SCHEMA_VIOLATION at the object.
    [[noreturn]] void not_pairs(std::string_view type_name);
    // The current member's key given twice by a mapping's items() (Python only): DUPLICATE_FIELD.
    [[noreturn]] void repeated_key() const;
    std::string_view current_key() const { return doc_.string(frames_.back().key_node); }
    // A container that holds itself (Python only): counted as a value, then INPUT_LIMIT at it.
    [[noreturn]] void contains_itself();

    void begin_object();
    void begin_array();
    void end();

    // RFC 6901 pointer of the value being read.
    std::string pointer() const { return pointer_of(frames_.size()); }

private:
    void begin_value();
    void begin_container(bool is_object);
    void grow(uint64_t bytes);
    std::string pointer_of(size_t depth) const;  // the path through the first `depth` frames
    [[noreturn]] void fail_here(ErrorCode code, std::string message) const;   // at pointer()
    [[noreturn]] void fail_whole(ErrorCode code, std::string message) const;  // at ""

    struct Frame {
        bool is_object;
        uint32_t count;     // members or items begun so far
        uint32_t key_node;  // objects: the current member's key
    };
    Document& doc_;
    TreeBuilder builder_;
    const Limits& limits_;
    bool count_bytes_;
    int64_t nodes_;
    const char* whole_;
    uint64_t bytes_ = 0;
    std::vector<Frame> frames_;
};

// Appends `segment` to a JSON Pointer, escaping '~' and '/'.
void append_pointer_token(std::string& pointer, std::string_view segment);

}  // namespace evalcore
