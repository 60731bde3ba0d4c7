#include "json/reader.hpp"

#include <cmath>

#include "common/errors.hpp"
#include "common/limits.hpp"
#include "json/writer.hpp"

namespace evalcore {

void append_pointer_token(std::string& pointer, std::string_view segment) {
    pointer.push_back('/');
    for (char c : segment) {
        if (c == '~') {
            pointer += "~0";
        } else if (c == '/') {
            pointer += "~1";
        } else {
            pointer.push_back(c);
        }
    }
}

RequestReader::RequestReader(Document& doc, const Limits& limits, bool count_bytes, int64_t nodes_before,
                             const char* whole)
    : doc_(doc), builder_(doc), limits_(limits), count_bytes_(count_bytes), nodes_(nodes_before), whole_(whole) {}

std::string RequestReader::pointer_of(size_t depth) const {
    std::string out;
    for (size_t i = 0; i < depth; ++i) {
        const Frame& frame = frames_[i];
        if (frame.is_object) {
            append_pointer_token(out, doc_.string(frame.key_node));
        } else {
            out.push_back('/');
            out += std::to_string(frame.count - 1);
        }
    }
    return out;
}

void RequestReader::fail_here(ErrorCode code, std::string message) const {
    throw RequestError(code, pointer(), std::move(message));
}

void RequestReader::fail_whole(ErrorCode code, std::string message) const {
    throw RequestError(code, std::string(), std::move(message));
}

void RequestReader::grow(uint64_t bytes) {
    if (!count_bytes_) return;
    bytes_ += bytes;
    if (bytes_ > static_cast<uint64_t>(limits_.input_bytes)) {
        fail_whole(ErrorCode::input_limit,
             std::string(whole_) + "'s canonical JSON is longer than inputBytes = " + std::to_string(limits_.input_bytes) +
                 " bytes" + raise_hint("inputBytes"));
    }
}

void RequestReader::begin_value() {
    if (!frames_.empty() && !frames_.back().is_object) {
        Frame& frame = frames_.back();
        if (frame.count > 0) grow(1);
        ++frame.count;
    }
    if (++nodes_ > limits_.json_nodes) {
        fail_whole(ErrorCode::input_limit,
             std::string(whole_) + " has more than jsonNodes = " + std::to_string(limits_.json_nodes) + " JSON values" +
                 raise_hint("jsonNodes"));
    }
}

void RequestReader::null_value() {
    begin_value();
    grow(4);
    builder_.null_value();
}

void RequestReader::boolean(bool value) {
    begin_value();
    grow(value ? 4 : 5);
    builder_.boolean(value);
}

void RequestReader::number(double value) {
    begin_value();
    if (!std::isfinite(value)) {
        fail_here(ErrorCode::invalid_number,
             std::string(std::isnan(value) ? "NaN" : "an infinite value") + " is not a JSON number; use a finite number");
    }
    if (count_bytes_) {
        char buffer[32];
        grow(format_ecma_number(value, buffer));
    }
    builder_.number(value);
}

void RequestReader::overflowing_number() {
    begin_value();
    fail_here(ErrorCode::numeric_overflow, "the number is too large for a binary64 number");
}

void RequestReader::not_json(std::string_view type_name) {
    begin_value();
    fail_here(ErrorCode::schema_violation,
         "a " + std::string(type_name) + " has no JSON form; use dict, list, str, int, float, bool or None");
}

void RequestReader::string_appended(uint32_t offset, const StringInfo& info, uint64_t json_size) {
    begin_value();
    grow(json_size);
    builder_.string_appended(offset, info);
}

void RequestReader::key_appended(uint32_t offset, const StringInfo& info, uint64_t json_size) {
    Frame& frame = frames_.back();
    uint32_t key_node = static_cast<uint32_t>(doc_.nodes.size());
    builder_.string_appended(offset, info);  // keys are nodes too, so that slots pair up
    frame.key_node = key_node;
    ++frame.count;
    std::string_view key = doc_.string(key_node);
    if (key == "__proto__" || key == "constructor" || key == "prototype") {
        fail_here(ErrorCode::unsafe_key,
             "the key \"" + std::string(key) + "\" is not allowed anywhere in a request");
    }
    grow(json_size + 1 + (frame.count > 1 ? 1 : 0));
}

void RequestReader::non_string_key(std::string_view type_name) {
    throw RequestError(ErrorCode::schema_violation, pointer_of(frames_.size() - 1),
         "object keys must be strings, got a " + std::string(type_name));
}

void RequestReader::not_pairs(std::string_view type_name) {
    throw RequestError(ErrorCode::schema_violation, pointer_of(frames_.size() - 1),
         "the items() of a " + std::string(type_name) + " must give (key, value) tuples");
}

void RequestReader::repeated_key() const {
    fail_here(ErrorCode::duplicate_field, "this key appears more than once in its object");
}

void RequestReader::contains_itself() {
    begin_value();
    fail_here(ErrorCode::input_limit, "this value contains itself (a reference cycle), so it has no JSON form");
}

void RequestReader::begin_container(bool is_object) {
    begin_value();
    if (static_cast<int64_t>(frames_.size()) + 1 > limits_.json_depth) {
        fail_here(ErrorCode::input_limit,
                  "containers are nested deeper than jsonDepth = " + std::to_string(limits_.json_depth) +
                      raise_hint("jsonDepth"));
    }
    grow(2);
    if (is_object) {
        builder_.begin_object();
    } else {
        builder_.begin_array();
    }
    frames_.push_back(Frame{is_object, 0, 0});
}

void RequestReader::begin_object() { begin_container(true); }
void RequestReader::begin_array() { begin_container(false); }

void RequestReader::end() {
    frames_.pop_back();
    builder_.end();
}

}  // namespace evalcore
