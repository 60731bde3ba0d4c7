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
    // A finite value (the caller skips NaN: undefined values are not summed). Not range-checked
    // here: from zero, leaving the range takes about 2^109 additions of the largest double;
    // from a total near the top of the range (deserialized), serialize() and merge() check it.
    void add(double value);
    // std::overflow_error (range_message) when the total would leave the range; *this unchanged.
    void merge(const ExactSum& other);
    // The exact sum rounded to nearest, ties to even (±inf when it rounds past the largest
    // double, as IEEE rounding of the exact value gives), also for a total add() took past the range.
    double rounded() const;

    // The compact serialized form, identical on every platform and in the reference: the
    // byte 0x01 (the form's version), then the exact sum as an integer N in units of
    // 2^-1074, in two's complement, little-endian, in the fewest bytes that hold it (at
    // least one). Partial sums made anywhere merge exactly through it. std::overflow_error
    // (range_message) for a total out of range, which no form holds.
    std::string serialize() const;
    // The sum a serialized form holds; std::invalid_argument for anything not made by
    // serialize() (another version, no bytes, more than max_serialized_bytes).
    static ExactSum deserialize(std::string_view bytes);

    // The range, -2^2207 <= N < 2^2207 units (totals in [-2^1133, 2^1133), 2^109 times past
    // the largest double): exactly what max_serialized_bytes of two's complement hold, so
    // every total in range has a form and every form is a total in range.
    static constexpr int digit_bits = 32;
    static constexpr int digits = 69;
    static constexpr size_t max_serialized_bytes = 1 + digits * (digit_bits / 8);
    static const char* const range_message;

private:
    // Digit i weighs 2^(32 i - 1074): digits 0..65 hold every finite double's bits, 66..68
    // the range's headroom for carries. Digits are kept as signed 64-bit sums of 32-bit
    // parts and normalized (carried) before they could overflow; after a carry digits
    // 0..67 are in [0, 2^32) and the top one holds the sign, in [-2^31, 2^31) in range.
    static constexpr int64_t adds_before_carry = int64_t{1} << 30;

    void carry();
    // After a carry: is the total in the range?
    bool in_range() const;

    std::array<int64_t, digits> digit_{};
    int64_t pending_ = 0;  // additions since the last carry
};

}  // namespace evalcore
