// TREC text classified 64 bytes at a time: which bytes separate fields and which end lines,
// as bit masks, so that a line's fields come out of a few bit operations instead of a loop
// over its bytes (the parser's time was mostly that loop and a memchr call per line).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__) && !defined(EVALCORE_PORTABLE_BYTES)
#include <emmintrin.h>
#define EVALCORE_SSE2_BYTES 1
#endif

namespace evalcore {

// Bit i of each mask stands for byte p[i].
struct ByteMasks {
    uint64_t spaces = 0;    // a field separator: ' ', '\t', '\v', '\f' or '\r' (C isspace but '\n')
    uint64_t newlines = 0;  // '\n'
};

namespace trec_bytes_detail {

constexpr uint64_t ones = 0x0101010101010101ull;
constexpr uint64_t highs = 0x8080808080808080ull;

// The high bit of each byte of `word` that equals `c`, exactly (no borrow crosses bytes:
// the low seven bits are added apart from the high one).
inline uint64_t equal_bytes(uint64_t word, unsigned char c) {
    const uint64_t x = word ^ (ones * c);
    return ~(((x & ~highs) + ~highs) | x) & highs;
}

// Byte k's high bit (bit 8k + 7) moved to bit k: each lands alone in the top byte of the
// product (the shifts 56 - 7k never make two terms meet or carry).
inline uint64_t gather_highs(uint64_t flagged) { return ((flagged >> 7) * 0x0102040810204080ull) >> 56; }

}  // namespace trec_bytes_detail

// The index of the lowest set bit of a nonzero mask, and how many bits are set.
inline unsigned lowest_bit(uint64_t mask) {
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<unsigned>(__builtin_ctzll(mask));
#else
    unsigned i = 0;
    while ((mask & 1) == 0) mask >>= 1, ++i;
    return i;
#endif
}
// (Word arithmetic, not __builtin_popcountll: without -mpopcnt, which the x86-64 baseline
// lacks, that is a call into libgcc.)
inline unsigned bit_count(uint64_t mask) {
    mask -= (mask >> 1) & 0x5555555555555555ull;
    mask = (mask & 0x3333333333333333ull) + ((mask >> 2) & 0x3333333333333333ull);
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<unsigned>((mask * 0x0101010101010101ull) >> 56);
}

// The masks of the 64 bytes at `p`, which must all be readable.
inline ByteMasks classify_bytes(const char* p) {
    ByteMasks out;
#ifdef EVALCORE_SSE2_BYTES
    const __m128i newline = _mm_set1_epi8('\n'), space = _mm_set1_epi8(' ');
    const __m128i tab = _mm_set1_epi8('\t'), four = _mm_set1_epi8(4);
    for (int k = 0; k < 4; ++k) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i is_newline = _mm_cmpeq_epi8(bytes, newline);
        // '\t'..'\r' (9..13): the byte minus 9, unsigned, is at most 4; '\n' is taken out.
        const __m128i from_tab = _mm_sub_epi8(bytes, tab);
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(from_tab, four), from_tab);
        const __m128i is_space = _mm_or_si128(_mm_cmpeq_epi8(bytes, space), _mm_andnot_si128(is_newline, control));
        out.spaces |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(is_space))) << (16 * k);
        out.newlines |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(is_newline))) << (16 * k);
    }
#else
    using namespace trec_bytes_detail;
    for (int k = 0; k < 8; ++k) {
        uint64_t word;
        std::memcpy(&word, p + 8 * k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);  // byte p[0] in the low lane, as on little-endian machines
#endif
        const uint64_t space = equal_bytes(word, ' ') | equal_bytes(word, '\t') | equal_bytes(word, '\v') |
                               equal_bytes(word, '\f') | equal_bytes(word, '\r');
        out.spaces |= gather_highs(space) << (8 * k);
        out.newlines |= gather_highs(equal_bytes(word, '\n')) << (8 * k);
    }
#endif
    return out;
}

// The newlines in `text` (a reader sizes its columns by them: at most a record a line). With
// SSE2, 16 bytes a step into byte counters summed every 255 steps; std::count, which compilers
// widen to 64-bit counters byte by byte, took about 4 % of reading a run file (perf).
inline size_t count_newlines(std::string_view text) {
    const char* p = text.data();
    size_t left = text.size(), count = 0;
#ifdef EVALCORE_SSE2_BYTES
    const __m128i newline = _mm_set1_epi8('\n');
    while (left >= 16) {
        __m128i counters = _mm_setzero_si128();  // each byte lane counts up to 255
        for (int step = 0; step < 255 && left >= 16; ++step, p += 16, left -= 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            counters = _mm_sub_epi8(counters, _mm_cmpeq_epi8(bytes, newline));  // a match is -1
        }
        const __m128i sums = _mm_sad_epu8(counters, _mm_setzero_si128());  // two 64-bit lane sums
        count += static_cast<size_t>(_mm_cvtsi128_si32(sums)) + static_cast<size_t>(_mm_extract_epi16(sums, 4));
    }
#endif
    for (; left > 0; ++p, --left) count += *p == '\n' ? 1 : 0;
    return count;
}

}  // namespace evalcore
