// The exact sum of binary64 values, rounded once to the nearest binary64 (ties to even): a
// fixed-point superaccumulator wide enough for every finite double, so the result does not
// depend on the order of the values, and two partial sums merge exactly (threads, blocks,
// partitions of a distributed run).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace evalcore {

class ExactSum {
public:
    // A finite value (the caller skips NaN: undefined values are not summed).
    void add(double value);
    void merge(const ExactSum& other);
    // The exact sum rounded to nearest, ties to even (±inf past the largest double).
    double rounded() const;

    // The compact serialized form, identical on every platform and in the reference: the
    // byte 0x01 (the form's version), then the exact sum as an integer N in units of
    // 2^-1074, in two's complement, little-endian, in the fewest bytes that hold it (at
    // least one). Partial sums made anywhere merge exactly through it.
    std::string serialize() const;
    // The sum a serialized form holds; std::invalid_argument for anything not made by
    // serialize() (another version, no bytes, more than an accumulator holds).
    static ExactSum deserialize(std::string_view bytes);
    static constexpr size_t max_serialized_bytes = 1 + (68 - 1) * 4 + 8;

private:
    // Digit i weighs 2^(32 i - 1074): 66 digits hold every finite double's bits, two more
    // its carries. Digits are kept as signed 64-bit sums of 32-bit parts and normalized
    // (carried) before they could overflow.
    static constexpr int digit_bits = 32;
    static constexpr int digits = 68;
    static constexpr int64_t adds_before_carry = int64_t{1} << 30;

    void carry();

    std::array<int64_t, digits> digit_{};
    int64_t pending_ = 0;  // additions since the last carry
};

}  // namespace evalcore
