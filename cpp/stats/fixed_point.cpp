#include "stats/fixed_point.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace evalcore {
namespace {

int highest_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }

constexpr int max_limbs = 40;  // fixed_to_double's working copy; Fixed<34> is the widest in use

}  // namespace

FixedLayout fixed_layout(const double* values, size_t count) {
    int lowest = 0, highest = 0;
    bool any = false;
    for (size_t i = 0; i < count; ++i) {
        if (!std::isfinite(values[i])) throw std::invalid_argument("resampling takes finite values");
        uint64_t bits;
        std::memcpy(&bits, &values[i], sizeof bits);
        const int biased = static_cast<int>((bits >> 52) & 0x7FF);
        uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
        if (biased != 0) mantissa |= uint64_t{1} << 52;
        if (mantissa == 0) continue;
        const int exponent = (biased == 0 ? 1 : biased) - 1075;  // of the mantissa's bit 0
        const int low = exponent + lowest_bit(mantissa), high = exponent + highest_bit(mantissa);
        lowest = any ? std::min(lowest, low) : low;
        highest = any ? std::max(highest, high) : high;
        any = true;
    }
    if (!any) return FixedLayout{};
    return FixedLayout{-lowest, highest - lowest + 1};
}

int fixed_bits_needed(const FixedLayout& layout, uint64_t terms) {
    int term_bits = 0;  // ceil(log2(terms))
    while (term_bits < 64 && (uint64_t{1} << term_bits) < terms) ++term_bits;
    return layout.magnitude_bits + term_bits + 3 + 1;  // 5·terms·2^bits < 2^(bits + term_bits + 3); a sign bit
}

double fixed_to_double(const uint64_t* limbs, int count, int scale) {
    if (count > max_limbs) throw std::invalid_argument("fixed_to_double: too many limbs");
    uint64_t m[max_limbs];
    std::copy(limbs, limbs + count, m);
    const bool negative = (m[count - 1] >> 63) != 0;
    if (negative) {  // the magnitude, in place
        uint64_t carry = 1;
        for (int i = 0; i < count; ++i) {
            m[i] = ~m[i] + carry;
            carry = static_cast<uint64_t>(carry != 0 && m[i] == 0);
        }
    }
    int top = count - 1;
    while (top >= 0 && m[top] == 0) --top;
    if (top < 0) return 0.0;  // +0.0, never -0.0
    const int highest = top * 64 + highest_bit(m[top]);
    // 64 bits from bit `low` (>= 0) up.
    const auto window = [&m, count](int low) -> uint64_t {
        const int word = low / 64, offset = low % 64;
        uint64_t value = m[word] >> offset;
        if (offset != 0 && word + 1 < count) value |= m[word + 1] << (64 - offset);
        return value;
    };
    const auto low_bits = [](int width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; };
    // The lowest bit the result can keep: 53 significant bits, and nothing below 2^-1074
    // (bit i weighs 2^(i - scale)); a subnormal result is rounded once, at its own ulp.
    const int cut = std::max(highest - 52, scale - 1074);
    const double sign = negative ? -1.0 : 1.0;
    if (cut <= 0) return sign * std::ldexp(static_cast<double>(window(0) & low_bits(highest + 1)), -scale);
    uint64_t kept = window(cut) & low_bits(highest - cut + 1);
    const int guard_position = cut - 1;
    const uint64_t guard = (m[guard_position / 64] >> (guard_position % 64)) & 1;
    bool sticky = (m[guard_position / 64] & low_bits(guard_position % 64)) != 0;
    for (int w = 0; w < guard_position / 64 && !sticky; ++w) sticky = m[w] != 0;
    if (guard != 0 && (sticky || (kept & 1) != 0)) ++kept;  // to nearest, ties to even; 2^53 is still exact
    // kept × 2^(cut - scale) is a double exactly (or overflows to inf).
    return sign * std::ldexp(static_cast<double>(kept), cut - scale);
}

}  // namespace evalcore
