// JSON text as evalcore emits and hashes it: numbers in ECMAScript Number::toString form,
// strings escaped as JSON.stringify does, no whitespace.
#pragma once

#include <cstddef>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "json/document.hpp"

namespace evalcore {

// Appends JSON text to a std::string with few capacity checks: room is made in large
// steps and small pieces are copied by pointer. Call finish() before reading the string.
class JsonText {
public:
    explicit JsonText(std::string& out) : out_(out), used_(out.size()) {}
    JsonText(const JsonText&) = delete;
    JsonText& operator=(const JsonText&) = delete;

    void raw(std::string_view text) {
        std::memcpy(room(text.size()), text.data(), text.size());
        used_ += text.size();
    }
    void ch(char c) {
        *room(1) = c;
        ++used_;
    }
    // ECMAScript form; value must be finite. Small integers (grades, counts) inline.
    void number(double value) {
        if (value >= 0 && value < 1e15 && static_cast<double>(static_cast<int64_t>(value)) == value) {
            integer(static_cast<int64_t>(value));  // -0 passes `>= 0` and prints "0", as it must
        } else {
            number_slow(value);
        }
    }
    void integer(int64_t value) {
        char* p = room(24);
        used_ += static_cast<size_t>(std::to_chars(p, p + 24, value).ptr - p);
    }
    void string(std::string_view utf8) {
        // The common case (nothing to escape) is one copy; the rest goes the long way.
        const char* data = utf8.data();
        const size_t n = utf8.size();
        size_t plain = 0;
        while (plain < n && !needs_care(static_cast<unsigned char>(data[plain]))) ++plain;
        if (plain < n) return escaped_string(utf8);
        char* p = room(n + 2);
        p[0] = '"';
        std::memcpy(p + 1, data, n);
        p[n + 1] = '"';
        used_ += n + 2;
    }
    size_t size() const { return used_; }
    // Trims the string to what was written.
    void finish() { out_.resize(used_); }

private:
    // Bytes JSON.stringify does not copy as they are: controls, '"', '\\', and 0xED, the lead
    // byte of a (WTF-8) surrogate.
    static bool needs_care(unsigned char c) { return c < 0x20 || c == '"' || c == '\\' || c == 0xED; }
    void escaped_string(std::string_view utf8);
    void number_slow(double value);
    char* room(size_t n) {
        if (used_ + n > out_.size()) grow(used_ + n);
        return &out_[used_];
    }
    void grow(size_t needed);

    std::string& out_;
    size_t used_;
};

// Writes Number::toString(value) of ECMA-262 (value finite) into `buffer` (at least 32
// bytes); returns the length. -0 is written "0".
size_t format_ecma_number(double value, char* buffer);

void append_ecma_number(std::string& out, double value);

// JSON.stringify of a UTF-8 string (WTF-8 surrogates come out as \udxxx escapes).
void append_json_string(std::string& out, std::string_view utf8);

// Compact JSON of the value at `index`, object members in their stored (emission) order.
void append_compact_json(std::string& out, const Document& doc, uint32_t index = 0);

}  // namespace evalcore
