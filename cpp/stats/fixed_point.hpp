// Exact sums for the resampling loops: the values of a group (measure values, binary64) all
// become integers at one common binary point, held in two's complement in Limbs 64-bit
// words. Sums and differences are then exact integer arithmetic, independent of order, and
// fast: real measure values span about 60 bits, so two words hold any sum of them
// (Fixed<2>); Fixed<34> holds any sum of any finite doubles, for the rare group that needs
// it. ExactSum (common/exact_sum.hpp) does the same for one sum but costs too much per
// addition for 10^8 additions per comparison.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace evalcore {

// Where the binary point goes: each value is integer × 2^-scale, and the largest |integer|
// has magnitude_bits bits.
struct FixedLayout {
    int scale = 0;
    int magnitude_bits = 0;
};

// The layout of finite values (std::invalid_argument for NaN or infinity).
FixedLayout fixed_layout(const double* values, size_t count);

// Bits (sign included) that every intermediate of the tests needs for sums of up to
// `terms` values: the sums, twice a difference of two, and the differences of those
// (|x| < 5·terms·2^magnitude_bits).
int fixed_bits_needed(const FixedLayout& layout, uint64_t terms);

// The integer in `limbs` (two's complement, least significant word first) × 2^-scale,
// rounded once to the nearest double, ties to even (subnormal results included); ±inf past
// the largest double.
double fixed_to_double(const uint64_t* limbs, int count, int scale);

template <int Limbs>
struct Fixed {
    std::array<uint64_t, Limbs> limb{};

    // `value` (finite, of a layout with this scale) as an integer.
    static Fixed of(double value, int scale) {
        Fixed out;
        uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        const int biased = static_cast<int>((bits >> 52) & 0x7FF);
        uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
        if (biased != 0) mantissa |= uint64_t{1} << 52;
        if (mantissa == 0) return out;
        // value = mantissa × 2^(exponent); as an integer at the binary point: shifted by
        // exponent + scale, which the layout makes >= -(trailing zeros of the mantissa).
        int shift = (biased == 0 ? 1 : biased) - 1075 + scale;
        if (shift < 0) {
            mantissa >>= -shift;
            shift = 0;
        }
        const int word = shift / 64, offset = shift % 64;
        if (word >= Limbs) throw std::logic_error("Fixed::of: a value past the layout's width");
        out.limb[word] = mantissa << offset;
        if (offset != 0 && word + 1 < Limbs) out.limb[word + 1] = mantissa >> (64 - offset);
        return (bits >> 63) != 0 ? out.negated() : out;
    }

    void add(const Fixed& other) {
        uint64_t carry = 0;
        for (int i = 0; i < Limbs; ++i) {
            const uint64_t sum = limb[i] + other.limb[i];
            const uint64_t with_carry = sum + carry;
            carry = static_cast<uint64_t>(sum < limb[i]) | static_cast<uint64_t>(with_carry < sum);
            limb[i] = with_carry;
        }
    }

    void subtract(const Fixed& other) {
        uint64_t borrow = 0;
        for (int i = 0; i < Limbs; ++i) {
            const uint64_t difference = limb[i] - other.limb[i];
            const uint64_t with_borrow = difference - borrow;
            borrow = static_cast<uint64_t>(limb[i] < other.limb[i]) | static_cast<uint64_t>(difference < borrow);
            limb[i] = with_borrow;
        }
    }

    bool negative() const { return (limb[Limbs - 1] >> 63) != 0; }

    Fixed negated() const {
        Fixed out;
        uint64_t carry = 1;
        for (int i = 0; i < Limbs; ++i) {
            out.limb[i] = ~limb[i] + carry;
            carry = static_cast<uint64_t>(carry != 0 && out.limb[i] == 0);
        }
        return out;
    }

    Fixed magnitude() const { return negative() ? negated() : *this; }

    double rounded(int scale) const { return fixed_to_double(limb.data(), Limbs, scale); }
};

// |a| >= |b|, given b's magnitude (non-negative).
template <int Limbs>
bool magnitude_at_least(const Fixed<Limbs>& a, const Fixed<Limbs>& b_magnitude) {
    const Fixed<Limbs> m = a.magnitude();
    for (int i = Limbs - 1; i >= 0; --i) {
        if (m.limb[i] != b_magnitude.limb[i]) return m.limb[i] > b_magnitude.limb[i];
    }
    return true;
}

}  // namespace evalcore
