#include "json/writer.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace evalcore {

size_t format_ecma_number(double value, char* buffer) {
    if (value == 0) {  // both zeros
        buffer[0] = '0';
        return 1;
    }
    char* out = buffer;
    if (value < 0) {
        *out++ = '-';
        value = -value;
    }
    if (value < 1e15 && std::trunc(value) == value) {
        // An integer (grades, counts): exactly its decimal digits, which is what
        // Number::toString gives for any integer below 1e21.
        out = std::to_chars(out, out + 20, static_cast<int64_t>(value)).ptr;
        return static_cast<size_t>(out - buffer);
    }
    // The shortest digits that round-trip, as d.ddde±x; then laid out by ECMA-262's rules.
    char sci[32];
    auto result = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific);
    const char* end = result.ptr;
    char digits[20];
    int k = 0;
    const char* p = sci;
    for (; p < end && *p != 'e'; ++p) {
        if (*p != '.') digits[k++] = *p;
    }
    int exponent = 0;
    std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exponent);
    while (k > 1 && digits[k - 1] == '0') --k;  // to_chars never pads, but be exact anyway
    int n = exponent + 1;  // the decimal point sits after n digits
    if (k <= n && n <= 21) {
        std::memcpy(out, digits, k);
        out += k;
        for (int i = k; i < n; ++i) *out++ = '0';
    } else if (0 < n && n <= 21) {
        std::memcpy(out, digits, n);
        out += n;
        *out++ = '.';
        std::memcpy(out, digits + n, k - n);
        out += k - n;
    } else if (-6 < n && n <= 0) {
        *out++ = '0';
        *out++ = '.';
        for (int i = 0; i < -n; ++i) *out++ = '0';
        std::memcpy(out, digits, k);
        out += k;
    } else {
        *out++ = digits[0];
        if (k > 1) {
            *out++ = '.';
            std::memcpy(out, digits + 1, k - 1);
            out += k - 1;
        }
        *out++ = 'e';
        int e = n - 1;
        *out++ = e < 0 ? '-' : '+';
        out = std::to_chars(out, out + 8, e < 0 ? -e : e).ptr;
    }
    return static_cast<size_t>(out - buffer);
}

void append_ecma_number(std::string& out, double value) {
    char buffer[32];
    out.append(buffer, format_ecma_number(value, buffer));
}

void append_json_string(std::string& out, std::string_view utf8) {
    JsonText text(out);
    text.string(utf8);
    text.finish();
}

void JsonText::grow(size_t needed) {
    size_t size = out_.size() < 256 ? 256 : out_.size();
    while (size < needed) size *= 2;
    out_.resize(size);
}

void JsonText::number_slow(double value) { used_ += format_ecma_number(value, room(32)); }

void JsonText::escaped_string(std::string_view utf8) {
    static const char hex[] = "0123456789abcdef";
    auto u_escape = [this](unsigned code) {
        char* p = room(6);
        p[0] = '\\';
        p[1] = 'u';
        p[2] = hex[(code >> 12) & 15];
        p[3] = hex[(code >> 8) & 15];
        p[4] = hex[(code >> 4) & 15];
        p[5] = hex[code & 15];
        used_ += 6;
    };
    const char* data = utf8.data();
    const size_t n = utf8.size();
    ch('"');
    size_t run = 0;  // start of the pending run of bytes copied as they are
    for (size_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(data[i]);
        if (!needs_care(c)) continue;
        const bool surrogate = c == 0xED && i + 2 < n && static_cast<unsigned char>(data[i + 1]) >= 0xA0;
        if (c == 0xED && !surrogate) continue;  // an ordinary 3-byte character
        raw(std::string_view(data + run, i - run));
        switch (c) {
            case '"': raw("\\\""); break;
            case '\\': raw("\\\\"); break;
            case '\b': raw("\\b"); break;
            case '\f': raw("\\f"); break;
            case '\n': raw("\\n"); break;
            case '\r': raw("\\r"); break;
            case '\t': raw("\\t"); break;
            default:
                if (c < 0x20) {
                    u_escape(c);
                } else {  // WTF-8 surrogate ED A0..BF xx
                    u_escape(0xD000u | ((static_cast<unsigned char>(data[i + 1]) & 0x3Fu) << 6) |
                             (static_cast<unsigned char>(data[i + 2]) & 0x3Fu));
                    i += 2;
                }
                break;
        }
        run = i + 1;
    }
    raw(std::string_view(data + run, n - run));
    ch('"');
}

namespace {
void append_scalar(JsonText& out, const Document& doc, const Node& node) {
    switch (node.kind) {
        case Kind::null_value: out.raw("null"); break;
        case Kind::boolean: out.raw(node.flag ? "true" : "false"); break;
        case Kind::number: out.number(node.number); break;
        case Kind::string: out.string(doc.string(node)); break;
        default: break;
    }
}
}  // namespace

void append_compact_json(std::string& text, const Document& doc, uint32_t index) {
    JsonText out(text);
    // Iterative, so that no nesting depth can exhaust the C stack.
    struct Frame {
        const Node* node;
        uint32_t next;  // slot to write next
    };
    std::vector<Frame> stack;
    auto open = [&](uint32_t i) {
        const Node& node = doc[i];
        if (node.kind == Kind::array || node.kind == Kind::object) {
            out.ch(node.kind == Kind::array ? '[' : '{');
            stack.push_back(Frame{&node, 0});
        } else {
            append_scalar(out, doc, node);
        }
    };
    open(index);
    while (!stack.empty()) {
        Frame& frame = stack.back();
        const Node& node = *frame.node;
        const uint32_t slots = node.kind == Kind::object ? 2 * node.size : node.size;
        if (frame.next == slots) {
            out.ch(node.kind == Kind::array ? ']' : '}');
            stack.pop_back();
            continue;
        }
        const uint32_t slot = frame.next++;
        if (slot > 0) out.ch(node.kind == Kind::object && slot % 2 == 1 ? ':' : ',');
        open(doc.slots[node.offset + slot]);  // may push: `frame` is not used after this
    }
    out.finish();
}

}  // namespace evalcore
