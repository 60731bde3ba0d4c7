// The counter-based generator of the resampling tests, defined in docs/compare.md and
// written again in Python in python/evalcore/reference/comparisons/compare_runs.py. Every word is a pure
// function of (seed, domain, resample, position): SplitMix64's output function applied to a
// Weyl sequence, so a thread computes the words of its own resamples directly and no
// schedule, thread count or chunking can change a result.
#pragma once

#include <cstdint>

namespace evalcore {

constexpr uint64_t golden_gamma = 0x9E3779B97F4A7C15ull;
constexpr uint64_t sign_flip_domain = 0x7369676E666C6970ull;  // "signflip" in ASCII
constexpr uint64_t bootstrap_domain = 0x626F6F7473747270ull;  // "bootstrp"
constexpr uint64_t tukey_domain = 0x74756B6579687364ull;      // "tukeyhsd" (issue 26)

// SplitMix64's output function (Steele, Lea and Flood 2014; Stafford's mix 13).
constexpr uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The k-th output (k = 0, 1, ...) of SplitMix64 seeded with `key` (unsigned arithmetic
// wraps modulo 2^64, as the definition wants).
constexpr uint64_t splitmix64(uint64_t key, uint64_t k) { return mix64(key + (k + 1) * golden_gamma); }

// The key of resample r's stream in a domain: the r-th output of SplitMix64 seeded with
// seed XOR domain. The randomization test and the bootstrap use different domains, so
// their streams are unrelated even for the same seed.
constexpr uint64_t resample_key(uint64_t seed, uint64_t domain, uint64_t r) { return splitmix64(seed ^ domain, r); }

// Sign bit of paired position i in a sign-flip resample: bit (i mod 64) of word i / 64.
inline uint64_t sign_word(uint64_t key, uint64_t word) { return splitmix64(key, word); }

// Uniform indices in [0, n) from one bootstrap resample's stream: its words split into
// 32-bit halves, low half first, each turned into an index by Lemire's multiply-shift with
// rejection (a draw is rejected when the low half of u·n is below 2^32 mod n), which makes
// every index exactly equally likely.
class IndexDraws {
public:
    IndexDraws(uint64_t key, uint32_t n) : key_(key), n_(n), threshold_(static_cast<uint32_t>(0u - n) % n) {}

    uint32_t next() {
        for (;;) {
            const uint64_t product = uint64_t{half()} * n_;
            if (static_cast<uint32_t>(product) >= threshold_) return static_cast<uint32_t>(product >> 32);
        }
    }

    // An index in [0, bound) (1 <= bound) from the same stream, by the same rule with its own
    // bound: the randomized Tukey HSD's Fisher–Yates shuffles draw from one stream per resample
    // with a bound that changes draw by draw.
    uint32_t below(uint32_t bound) {
        const uint32_t threshold = static_cast<uint32_t>(0u - bound) % bound;
        for (;;) {
            const uint64_t product = uint64_t{half()} * bound;
            if (static_cast<uint32_t>(product) >= threshold) return static_cast<uint32_t>(product >> 32);
        }
    }

private:
    uint32_t half() {
        if (have_high_) {
            have_high_ = false;
            return high_;
        }
        const uint64_t word = splitmix64(key_, word_++);
        high_ = static_cast<uint32_t>(word >> 32);
        have_high_ = true;
        return static_cast<uint32_t>(word);
    }

    uint64_t key_;
    uint32_t n_;
    uint32_t threshold_;
    uint64_t word_ = 0;
    uint32_t high_ = 0;
    bool have_high_ = false;
};

}  // namespace evalcore
