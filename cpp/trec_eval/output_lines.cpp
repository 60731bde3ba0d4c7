#include "trec_eval/output_lines.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace evalcore {

namespace {

__extension__ typedef unsigned __int128 uint128;  // GCC and Clang's (-Wpedantic knows it is an extension)

// printf's "%6.4f" of a finite value whose magnitude is below 2^50 (every value but huge
// counts), exactly as printf rounds: the value's binary digits m·2^e times 10^4, rounded
// to the nearest integer, halves to even, in 128-bit integer arithmetic (snprintf took
// half the time of printing a million lines). False for what it does not cover.
bool append_fixed4_fast(double value, std::string& out) {
    int exponent;
    const double fraction = std::frexp(std::fabs(value), &exponent);  // |value| = fraction * 2^exponent
    if (exponent > 50) return false;  // |value| * 10^4 < 2^64 below 2^50
    // |value| = mantissa / 2^shift: mantissa < 2^53, shift = 53 - exponent >= 3.
    const uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
    const int shift = 53 - exponent;
    uint64_t scaled;  // round(|value| * 10^4)
    if (shift >= 120) {
        scaled = 0;  // below 2^-67: far below half of 10^-4
    } else {
        const uint128 product = static_cast<uint128>(mantissa) * 10000u;  // < 2^67
        const uint128 whole = product >> shift;
        const uint128 rest = product - (whole << shift);
        const uint128 half = static_cast<uint128>(1) << (shift - 1);
        scaled = static_cast<uint64_t>(whole);
        if (rest > half || (rest == half && (scaled & 1u) != 0)) ++scaled;
    }
    char text[40];
    char* end = text + sizeof text;
    char* p = end;
    uint64_t integer = scaled / 10000;
    uint64_t decimals = scaled % 10000;
    for (int i = 0; i < 4; ++i) {
        *--p = static_cast<char>('0' + decimals % 10);
        decimals /= 10;
    }
    *--p = '.';
    do {
        *--p = static_cast<char>('0' + integer % 10);
        integer /= 10;
    } while (integer != 0);
    if (std::signbit(value)) *--p = '-';  // -0.0 and negatives rounding to 0 keep their sign, as printf
    out.append(p, static_cast<size_t>(end - p));  // at least "0.0000": never narrower than 6
    return true;
}

}  // namespace

void append_fixed4(double value, std::string& out) {
    if (std::isnan(value)) {
        out += "  -nan";
        return;
    }
    if (std::isfinite(value) && append_fixed4_fast(value, out)) return;
    // The largest double prints 309 digits before the point: room for it, the point, 4
    // decimals, a sign and the terminator.
    char text[330];
    const int length = std::snprintf(text, sizeof text, "%6.4f", value);
    if (length > 0) out.append(text, static_cast<size_t>(length));
}

namespace {

void append_integer(double value, std::string& out) {
    if (!(std::fabs(value) < 9.2e18)) {  // never a count; printed in full as Python's int() would be
        char text[330];
        const int length = std::snprintf(text, sizeof text, "%.0f", value);
        if (length > 0) out.append(text, static_cast<size_t>(length));
        return;
    }
    char text[32];
    const int length = std::snprintf(text, sizeof text, "%" PRId64, static_cast<int64_t>(value));
    if (length > 0) out.append(text, static_cast<size_t>(length));
}

}  // namespace

void append_topic_lines(const std::vector<OutputColumn>& columns, const std::vector<std::string_view>& topics,
                        const double* values, std::string& out) {
    // The names padded once, each followed by its tab.
    std::vector<std::string> heads;
    heads.reserve(columns.size());
    for (const OutputColumn& column : columns) {
        std::string head(column.name);
        if (head.size() < 22) head.append(22 - head.size(), ' ');
        head += '\t';
        heads.push_back(std::move(head));
    }
    const size_t width = columns.size();
    for (size_t t = 0; t < topics.size(); ++t) {
        const double* row = values + t * width;
        for (size_t c = 0; c < width; ++c) {
            out += heads[c];
            out += topics[t];
            out += '\t';
            if (columns[c].texts != nullptr) {
                out += (*columns[c].texts)[t];
            } else if (columns[c].integer) {
                append_integer(row[c], out);
            } else {
                append_fixed4(row[c], out);
            }
            out += '\n';
        }
    }
}

}  // namespace evalcore
