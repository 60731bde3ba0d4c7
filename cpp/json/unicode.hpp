// Code points to UTF-8, with the facts evalcore needs about each string: UTF-16 length,
// lone surrogates and the length of its JSON.stringify form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "json/document.hpp"

namespace evalcore {

inline bool is_surrogate(uint32_t cp) { return cp >= 0xD800 && cp <= 0xDFFF; }

// Appends one code point as UTF-8; a surrogate code point becomes its 3-byte WTF-8 form.
inline void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// Bytes one code point takes inside JSON.stringify's output.
inline uint32_t json_escaped_size(uint32_t cp) {
    switch (cp) {
        case '"': case '\\': case '\b': case '\f': case '\n': case '\r': case '\t': return 2;
        default: break;
    }
    if (cp < 0x20 || is_surrogate(cp)) return 6;
    if (cp < 0x80) return 1;
    if (cp < 0x800) return 2;
    if (cp < 0x10000) return 3;
    return 4;
}

// Encodes a sequence of code points (each surrogate taken as lone, as in a Python str),
// appending UTF-8 to `out`; fills `info` and returns the JSON.stringify length with quotes.
template <class CodePoint>
uint64_t encode_code_points(const CodePoint* data, size_t count, std::string& out, StringInfo& info) {
    uint64_t json_size = 2;
    uint64_t units = 0;
    bool ascii = true;
    bool lone = false;
    for (size_t i = 0; i < count; ++i) {
        uint32_t cp = static_cast<uint32_t>(data[i]);
        json_size += json_escaped_size(cp);
        units += cp >= 0x10000 ? 2 : 1;
        ascii = ascii && cp < 0x80;
        lone = lone || is_surrogate(cp);
        append_utf8(out, cp);
    }
    info.utf16_units = units > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(units);
    info.ascii = ascii;
    info.lone_surrogate = lone;
    return json_size;
}

// The fast path for pure ASCII bytes.
inline uint64_t encode_ascii(const char* data, size_t count, std::string& out, StringInfo& info) {
    uint64_t json_size = 2;
    for (size_t i = 0; i < count; ++i) json_size += json_escaped_size(static_cast<unsigned char>(data[i]));
    out.append(data, count);
    info.utf16_units = count > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(count);
    info.ascii = true;
    info.lone_surrogate = false;
    return json_size;
}

}  // namespace evalcore
