#include "json/parser.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/limits.hpp"
#include "common/id_table.hpp"
#include "json/writer.hpp"
#include "json/reader.hpp"
#include "json/unicode.hpp"

namespace evalcore {
namespace {

class Parser {
public:
    Parser(std::string_view body, RequestReader& reader, Document& doc) : p_(body.data()), end_(body.data() + body.size()), begin_(body.data()), reader_(reader), doc_(doc) {}

    void run();

private:
    enum class Expect : uint8_t { value, key_or_close, key, colon, comma_or_close };
    struct Frame {
        bool is_object;
        bool empty;
    };

    [[noreturn]] void invalid(const std::string& what) const {
        throw RequestError(ErrorCode::invalid_json, "",
                           "the body is not well-formed JSON: " + what + " at byte " + std::to_string(p_ - begin_));
    }
    void skip_space() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    bool literal(const char* word) {
        const size_t n = std::strlen(word);
        if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
        p_ += n;
        return true;
    }
    void value();
    void number();
    // Decodes the string at p_ (its opening quote) into doc.text; returns where it starts.
    uint32_t string(StringInfo& info);
    uint32_t hex4();
    void key();

    const char* p_;
    const char* end_;
    const char* begin_;
    RequestReader& reader_;
    Document& doc_;
    std::vector<Frame> frames_;
    std::vector<IdTable> keys_;  // keys seen, one table per open object (reused by depth)
};

uint32_t Parser::hex4() {
    if (end_ - p_ < 4) invalid("a truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        const char c = *p_++;
        v <<= 4;
        if (c >= '0' && c <= '9') {
            v |= static_cast<uint32_t>(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            v |= static_cast<uint32_t>(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
            v |= static_cast<uint32_t>(c - 'A' + 10);
        } else {
            --p_;
            invalid("a bad \\u escape");
        }
    }
    return v;
}

uint32_t Parser::string(StringInfo& info) {
    ++p_;  // the opening quote
    std::string& out = doc_.text;
    const uint32_t offset = static_cast<uint32_t>(out.size());
    uint64_t units = 0;
    bool ascii = true, lone = false;
    for (;;) {
        // Copy a run of plain ASCII at once.
        const char* run = p_;
        while (p_ < end_ && static_cast<unsigned char>(*p_) >= 0x20 && *p_ != '"' && *p_ != '\\' &&
               static_cast<unsigned char>(*p_) < 0x80) {
            ++p_;
        }
        out.append(run, static_cast<size_t>(p_ - run));
        units += static_cast<uint64_t>(p_ - run);
        if (p_ >= end_) invalid("an unterminated string");
        const unsigned char c = static_cast<unsigned char>(*p_);
        if (c == '"') {
            ++p_;
            break;
        }
        if (c < 0x20) invalid("a control character inside a string");
        if (c == '\\') {
            ++p_;
            if (p_ >= end_) invalid("an unterminated string");
            const char e = *p_++;
            uint32_t cp = 0;
            switch (e) {
                case '"': cp = '"'; break;
                case '\\': cp = '\\'; break;
                case '/': cp = '/'; break;
                case 'b': cp = '\b'; break;
                case 'f': cp = '\f'; break;
                case 'n': cp = '\n'; break;
                case 'r': cp = '\r'; break;
                case 't': cp = '\t'; break;
                case 'u': {
                    cp = hex4();
                    if (cp >= 0xD800 && cp <= 0xDBFF && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
                        const char* save = p_;
                        p_ += 2;
                        const uint32_t low = hex4();
                        if (low >= 0xDC00 && low <= 0xDFFF) {
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        } else {
                            p_ = save;  // a lone high surrogate; the next escape stands alone
                        }
                    }
                    break;
                }
                default: --p_; invalid("a bad escape");
            }
            if (is_surrogate(cp)) lone = true;
            ascii = ascii && cp < 0x80;
            units += cp >= 0x10000 ? 2 : 1;
            append_utf8(out, cp);
            continue;
        }
        // A multi-byte UTF-8 sequence: validate it strictly (no overlongs, no surrogates, <= U+10FFFF).
        int length;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            cp = c & 0x07;
        } else {
            invalid("invalid UTF-8");
        }
        if (end_ - p_ < length) invalid("truncated UTF-8");
        for (int i = 1; i < length; ++i) {
            const unsigned char cc = static_cast<unsigned char>(p_[i]);
            if ((cc & 0xC0) != 0x80) invalid("invalid UTF-8");
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((length == 3 && (cp < 0x800 || is_surrogate(cp))) || (length == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
            invalid("invalid UTF-8");
        }
        out.append(p_, static_cast<size_t>(length));
        p_ += length;
        ascii = false;
        units += cp >= 0x10000 ? 2 : 1;
    }
    info.utf16_units = units > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(units);
    info.ascii = ascii;
    info.lone_surrogate = lone;
    return offset;
}

void Parser::number() {
    const char* start = p_;
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ < end_ && *p_ == 'I') {  // -Infinity
        if (!literal("Infinity")) invalid("an unexpected character");
        reader_.number(-INFINITY);  // INVALID_NUMBER at this value
    }
    if (p_ >= end_ || !(*p_ >= '0' && *p_ <= '9')) invalid("a malformed number");
    const char* int_begin = p_;
    if (*p_ == '0') {
        ++p_;
    } else {
        while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    const char* int_end = p_;
    const char* frac_begin = p_;
    const char* frac_end = p_;
    if (p_ < end_ && *p_ == '.') {
        ++p_;
        frac_begin = p_;
        if (p_ >= end_ || !(*p_ >= '0' && *p_ <= '9')) invalid("a malformed number");
        while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        frac_end = p_;
    }
    long long exponent = 0;
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
        ++p_;
        bool negative = false;
        if (p_ < end_ && (*p_ == '+' || *p_ == '-')) negative = *p_++ == '-';
        if (p_ >= end_ || !(*p_ >= '0' && *p_ <= '9')) invalid("a malformed number");
        while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
            if (exponent < 100000000) exponent = exponent * 10 + (*p_ - '0');
            ++p_;
        }
        if (negative) exponent = -exponent;
    }
    double value = 0;
    const auto result = std::from_chars(start, p_, value);
    if (result.ec == std::errc::result_out_of_range) {
        // Too large (NUMERIC_OVERFLOW) or too small (rounds to zero, as float() does)?
        long long magnitude = exponent;  // decimal exponent of the first significant digit
        const char* d = int_begin;
        while (d < int_end && *d == '0') ++d;
        if (d < int_end) {
            magnitude += int_end - d - 1;
        } else {
            const char* f = frac_begin;
            while (f < frac_end && *f == '0') ++f;
            if (f == frac_end) magnitude = -1;  // all zeros (cannot be out of range)
            magnitude -= f - frac_begin + 1;
        }
        if (magnitude >= 0) {
            reader_.overflowing_number();
        }
        value = *start == '-' ? -0.0 : 0.0;
    } else if (result.ec != std::errc() || result.ptr != p_) {
        invalid("a malformed number");
    }
    reader_.number(value);
}

void Parser::value() {
    skip_space();
    if (p_ >= end_) invalid("a missing value");
    switch (*p_) {
        case '{':
            ++p_;
            reader_.begin_object();
            frames_.push_back(Frame{true, true});
            if (keys_.size() < frames_.size()) keys_.resize(frames_.size());
            keys_[frames_.size() - 1].reset(8);
            return;
        case '[':
            ++p_;
            reader_.begin_array();
            frames_.push_back(Frame{false, true});
            return;
        case '"': {
            StringInfo info;
            const uint32_t offset = string(info);
            reader_.string_appended(offset, info, 0);
            return;
        }
        case 't':
            if (!literal("true")) invalid("an unexpected character");
            reader_.boolean(true);
            return;
        case 'f':
            if (!literal("false")) invalid("an unexpected character");
            reader_.boolean(false);
            return;
        case 'n':
            if (!literal("null")) invalid("an unexpected character");
            reader_.null_value();
            return;
        case 'N':
            if (!literal("NaN")) invalid("an unexpected character");
            reader_.number(NAN);  // INVALID_NUMBER at this value
            return;
        case 'I':
            if (!literal("Infinity")) invalid("an unexpected character");
            reader_.number(INFINITY);
            return;
        default:
            if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number();
            invalid("an unexpected character");
    }
}

void Parser::key() {
    skip_space();
    if (p_ >= end_ || *p_ != '"') invalid("a missing object key");
    StringInfo info;
    const uint32_t offset = string(info);
    const std::string_view name(doc_.text.data() + offset, doc_.text.size() - offset);
    reader_.key_appended(offset, info, 0);  // UNSAFE_KEY; the key is now in the path
    // Views into doc.text stay valid: parse_json_request reserved room for the whole body.
    if (keys_[frames_.size() - 1].insert(name, 0) != nullptr) {
        std::string shown;
        append_json_string(shown, name);
        throw RequestError(ErrorCode::duplicate_field, reader_.pointer(),
                           "the key " + shorten_for_message(shown) + " appears twice in one object; send each key once");
    }
    skip_space();
    if (p_ >= end_ || *p_ != ':') invalid("a missing ':'");
    ++p_;
}

void Parser::run() {
    value();
    while (!frames_.empty()) {
        skip_space();
        if (p_ >= end_) invalid("an unterminated container");
        Frame& frame = frames_.back();
        const char close = frame.is_object ? '}' : ']';
        if (*p_ == close) {
            ++p_;
            frames_.pop_back();
            reader_.end();
            continue;
        }
        if (!frame.empty) {
            if (*p_ != ',') invalid(frame.is_object ? "a missing ',' or '}'" : "a missing ',' or ']'");
            ++p_;
        }
        frame.empty = false;
        if (frame.is_object) key();
        value();  // may push a frame: `frame` is not used after this
    }
    skip_space();
    if (p_ != end_) invalid("text after the JSON value");
}

}  // namespace

void parse_json_request(std::string_view body, const Limits& limits, Document& doc) {
    if (static_cast<int64_t>(body.size()) > limits.input_bytes) {
        throw RequestError(ErrorCode::input_limit, "",
                           "the body is " + std::to_string(body.size()) + " bytes, over inputBytes = " +
                               std::to_string(limits.input_bytes) + raise_hint("inputBytes"));
    }
    // Decoded strings are never longer than their JSON text, so this much room means doc.text
    // never moves while parsing (the duplicate-key tables keep views into it).
    doc.text.reserve(doc.text.size() + body.size());
    RequestReader reader(doc, limits, /*count_bytes=*/false);
    Parser(body, reader, doc).run();
}

}  // namespace evalcore
