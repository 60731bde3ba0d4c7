#include "common/exact_sum.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace evalcore {

void ExactSum::add(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const bool negative = (bits >> 63) != 0;
    const int biased = static_cast<int>((bits >> 52) & 0x7FF);
    uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
    if (biased == 0x7FF) return;  // not finite: not ours to sum (callers pass finite values)
    if (biased != 0) mantissa |= uint64_t{1} << 52;
    if (mantissa == 0) return;
    // value = mantissa * 2^(e - 1074) with e = max(biased, 1) - 1: its lowest bit sits at
    // position e of the accumulator.
    const int position = (biased == 0 ? 1 : biased) - 1;
    const int first = position / digit_bits, shift = position % digit_bits;
    // Up to 85 bits (53 + a shift of 31) over three digits.
    const uint64_t low = mantissa << shift;  // the low 64 bits (some may fall off the top)
    const uint64_t high = shift == 0 ? 0 : mantissa >> (64 - shift);
    const int64_t parts[3] = {static_cast<int64_t>(low & 0xFFFFFFFFu), static_cast<int64_t>(low >> 32),
                              static_cast<int64_t>(high)};
    for (int i = 0; i < 3 && first + i < digits; ++i) digit_[first + i] += negative ? -parts[i] : parts[i];
    if (++pending_ >= adds_before_carry) carry();
}

void ExactSum::merge(const ExactSum& other) {
    ExactSum copy = other;
    copy.carry();
    carry();
    for (int i = 0; i < digits; ++i) digit_[i] += copy.digit_[i];
    carry();
}

// Every digit but the top one into [0, 2^32); the top one keeps the sign.
void ExactSum::carry() {
    for (int i = 0; i + 1 < digits; ++i) {
        const int64_t over = digit_[i] >> digit_bits;  // floor division by 2^32
        digit_[i] -= over * (int64_t{1} << digit_bits);
        digit_[i + 1] += over;
    }
    pending_ = 0;
}

double ExactSum::rounded() const {
    ExactSum s = *this;
    s.carry();
    const bool negative = s.digit_[digits - 1] < 0;
    if (negative) {  // the magnitude: negate the whole number, then carry again
        for (int64_t& d : s.digit_) d = -d;
        s.carry();
    }
    int top = digits - 1;
    while (top >= 0 && s.digit_[top] == 0) --top;
    if (top < 0) return 0.0;
    // The position of the highest set bit, counting from the accumulator's bit 0.
    const uint64_t top_digit = static_cast<uint64_t>(s.digit_[top]);
    int highest = 63;
    while (((top_digit >> highest) & 1) == 0) --highest;
    highest += top * digit_bits;
    const auto bit = [&s](int position) -> uint64_t {
        if (position < 0) return 0;
        return (static_cast<uint64_t>(s.digit_[position / digit_bits]) >> (position % digit_bits)) & 1;
    };
    double magnitude;
    if (highest <= 52) {  // below 2^-1021: an exact multiple of 2^-1074 that a double holds
        uint64_t value = 0;
        for (int p = highest; p >= 0; --p) value = (value << 1) | bit(p);
        magnitude = std::ldexp(static_cast<double>(value), -1074);
    } else {
        uint64_t mantissa = 0;  // the 53 bits from the highest down
        for (int p = highest; p > highest - 53; --p) mantissa = (mantissa << 1) | bit(p);
        const int lowest_kept = highest - 52;
        const uint64_t guard = bit(lowest_kept - 1);
        bool sticky = false;
        for (int p = lowest_kept - 2; p >= 0 && !sticky; --p) {
            if (p % digit_bits == digit_bits - 1 && s.digit_[p / digit_bits] == 0) {
                p -= digit_bits - 1;  // a whole zero digit at once
                continue;
            }
            sticky = bit(p) != 0;
        }
        if (guard != 0 && (sticky || (mantissa & 1) != 0)) ++mantissa;  // to nearest, ties to even
        magnitude = std::ldexp(static_cast<double>(mantissa), lowest_kept - 1074);  // 2^53 is exact; past the range: inf
    }
    return negative ? -magnitude : magnitude;
}

}  // namespace evalcore
