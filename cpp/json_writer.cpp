#include "json_writer.hpp"

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

namespace {
const char hex_digits[] = "0123456789abcdef";

void append_u_escape(std::string& out, unsigned code) {
    char e[6] = {'\\', 'u', hex_digits[(code >> 12) & 15], hex_digits[(code >> 8) & 15], hex_digits[(code >> 4) & 15],
                 hex_digits[code & 15]};
    out.append(e, 6);
}
}  // namespace

namespace {
// True for the bytes JSON.stringify does not copy as they are: controls, '"', '\\', and the
// lead byte 0xED that may start a (WTF-8) surrogate.
constexpr bool needs_care(unsigned char c) { return c < 0x20 || c == '"' || c == '\\' || c == 0xED; }
}  // namespace

void append_json_string(std::string& out, std::string_view utf8) {
    const char* data = utf8.data();
    size_t n = utf8.size();
    size_t plain = 0;
    while (plain < n && !needs_care(static_cast<unsigned char>(data[plain]))) ++plain;
    if (plain == n) {  // the common case: copy it whole
        const size_t at = out.size();
        out.resize(at + n + 2);
        char* p = &out[at];
        p[0] = '"';
        std::memcpy(p + 1, data, n);
        p[n + 1] = '"';
        return;
    }
    out.push_back('"');
    size_t run = 0;  // start of the pending run of bytes copied as they are
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = static_cast<unsigned char>(data[i]);
        const char* escape = nullptr;
        switch (c) {
            case '"': escape = "\\\""; break;
            case '\\': escape = "\\\\"; break;
            case '\b': escape = "\\b"; break;
            case '\f': escape = "\\f"; break;
            case '\n': escape = "\\n"; break;
            case '\r': escape = "\\r"; break;
            case '\t': escape = "\\t"; break;
            default: break;
        }
        if (escape == nullptr && c >= 0x20 && c != 0xED) continue;
        if (c == 0xED && !(i + 2 < n && static_cast<unsigned char>(data[i + 1]) >= 0xA0)) continue;  // not a surrogate
        out.append(data + run, i - run);
        if (escape != nullptr) {
            out.append(escape, 2);
            run = i + 1;
        } else if (c < 0x20) {
            append_u_escape(out, c);
            run = i + 1;
        } else {  // WTF-8 surrogate ED A0..BF xx
            unsigned cp = 0xD000u | ((static_cast<unsigned char>(data[i + 1]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(data[i + 2]) & 0x3Fu);
            append_u_escape(out, cp);
            i += 2;
            run = i + 1;
        }
    }
    out.append(data + run, n - run);
    out.push_back('"');
}

namespace {
void append_scalar(std::string& out, const Document& doc, const Node& node) {
    switch (node.kind) {
        case Kind::null_value: out += "null"; break;
        case Kind::boolean: out += node.flag ? "true" : "false"; break;
        case Kind::number: append_ecma_number(out, node.number); break;
        case Kind::string: append_json_string(out, doc.string(node)); break;
        default: break;
    }
}
}  // namespace

void append_compact_json(std::string& out, const Document& doc, uint32_t index) {
    // Iterative, so that no nesting depth can exhaust the C stack.
    struct Frame {
        const Node* node;
        uint32_t next;  // slot to write next
    };
    std::vector<Frame> stack;
    auto open = [&](uint32_t i) {
        const Node& node = doc[i];
        if (node.kind == Kind::array || node.kind == Kind::object) {
            out.push_back(node.kind == Kind::array ? '[' : '{');
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
            out.push_back(node.kind == Kind::array ? ']' : '}');
            stack.pop_back();
            continue;
        }
        const uint32_t slot = frame.next++;
        if (slot > 0) out.push_back(node.kind == Kind::object && slot % 2 == 1 ? ':' : ',');
        open(doc.slots[node.offset + slot]);  // may push: `frame` is not used after this
    }
}

}  // namespace evalcore
