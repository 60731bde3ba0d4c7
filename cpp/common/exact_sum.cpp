#include "common/exact_sum.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

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

const char* const ExactSum::range_message =
    "ExactSum: the total would leave [-2**1133, 2**1133), the range an exact sum holds (its 277-byte "
    "serialized form, over 10**32 times the largest float): scale the values down or keep separate sums";

// Both totals carried first: then the sum of two top digits (each within a little of
// [-2^31, 2^31)) and a carry cannot overflow 64 bits, and the range check sees the exact total.
void ExactSum::merge(const ExactSum& other) {
    ExactSum total = *this, copy = other;
    total.carry();
    copy.carry();
    for (int i = 0; i < digits; ++i) total.digit_[i] += copy.digit_[i];
    total.carry();
    if (!total.in_range()) throw std::overflow_error(range_message);
    *this = total;
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

bool ExactSum::in_range() const {
    const int64_t half = int64_t{1} << (digit_bits - 1);
    return -half <= digit_[digits - 1] && digit_[digits - 1] < half;
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

std::string ExactSum::serialize() const {
    ExactSum s = *this;
    s.carry();
    if (!s.in_range()) throw std::overflow_error(range_message);
    // Every digit in 4 bytes: 0..67 are in [0, 2^32), the top one is the sign's, in [-2^31, 2^31).
    std::string bytes(max_serialized_bytes, '\0');
    bytes[0] = '\x01';
    size_t at = 1;
    for (int i = 0; i < digits; ++i) {
        const uint64_t d = static_cast<uint64_t>(s.digit_[i]);
        for (int b = 0; b < 4; ++b) bytes[at++] = static_cast<char>((d >> (8 * b)) & 0xFF);
    }
    // The fewest bytes: drop a top byte that only repeats the sign of the one below it.
    const auto byte = [&bytes](size_t i) { return static_cast<unsigned char>(bytes[i]); };
    size_t end = bytes.size();
    while (end > 2 && ((byte(end - 1) == 0x00 && (byte(end - 2) & 0x80) == 0) ||
                       (byte(end - 1) == 0xFF && (byte(end - 2) & 0x80) != 0))) {
        --end;
    }
    bytes.resize(end);
    return bytes;
}

ExactSum ExactSum::deserialize(std::string_view bytes) {
    if (bytes.size() < 2 || bytes.size() > max_serialized_bytes || bytes[0] != '\x01') {
        throw std::invalid_argument("not a serialized exact sum (version 1, 2 to " + std::to_string(max_serialized_bytes) +
                                    " bytes)");
    }
    const std::string_view number = bytes.substr(1);
    const bool negative = (static_cast<unsigned char>(number.back()) & 0x80) != 0;
    const auto byte = [&](size_t i) -> uint64_t {
        return i < number.size() ? static_cast<unsigned char>(number[i]) : (negative ? 0xFF : 0x00);
    };
    ExactSum s;
    size_t at = 0;
    for (int i = 0; i < digits; ++i, at += 4) {
        uint64_t d = 0;
        for (int b = 0; b < 4; ++b) d |= byte(at + static_cast<size_t>(b)) << (8 * b);
        s.digit_[i] = static_cast<int64_t>(d);
    }
    // The top digit's 32 bits are two's complement: its sign is the total's.
    if (s.digit_[digits - 1] >= (int64_t{1} << (digit_bits - 1))) s.digit_[digits - 1] -= int64_t{1} << digit_bits;
    return s;
}

}  // namespace evalcore
