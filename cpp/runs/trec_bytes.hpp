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

// On x86-64 Linux with GCC or Clang, a second parser for processors with AVX2, POPCNT and BMI1/2
// (Haswell and Zen on), chosen when the parse starts (wide_bytes_usable): the wheels target
// the x86-64 baseline, and its 16-byte classification and word-arithmetic bit count were
// about a fifth of the line loop's samples (perf). Its functions carry target attributes;
// the parser is inlined whole into one function of that target (line_parser.hpp's
// parse_lines_wide), so that no code of that target is ever shared with the baseline's.
// (Linux only, where CI runs both codes and checks which one a wheel takes; the choice asks
// CPUID and XGETBV itself, trec_bytes.cpp.)
#if defined(EVALCORE_SSE2_BYTES) && defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define EVALCORE_WIDE_BYTES 1
#define EVALCORE_WIDE_TARGET __attribute__((target("avx2,popcnt,bmi,bmi2")))
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

// The baseline's ways of classifying 64 bytes and counting bits (parse_lines' `Bytes`).
struct BaselineBytes {
    static ByteMasks classify(const char* p) { return classify_bytes(p); }
    static unsigned count(uint64_t mask) { return bit_count(mask); }
};

#ifdef EVALCORE_WIDE_BYTES
// The same masks from two 32-byte comparisons, and POPCNT: for code of EVALCORE_WIDE_TARGET only.
struct WideBytes {
    EVALCORE_WIDE_TARGET static ByteMasks classify(const char* p) {
        const __m256i newline = _mm256_set1_epi8('\n'), space = _mm256_set1_epi8(' ');
        const __m256i tab = _mm256_set1_epi8('\t'), four = _mm256_set1_epi8(4);
        ByteMasks out;
        for (int k = 0; k < 2; ++k) {
            const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32 * k));
            const __m256i is_newline = _mm256_cmpeq_epi8(bytes, newline);
            // '\t'..'\r' (9..13): the byte minus 9, unsigned, is at most 4; '\n' is taken out.
            const __m256i from_tab = _mm256_sub_epi8(bytes, tab);
            const __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(from_tab, four), from_tab);
            const __m256i is_space =
                _mm256_or_si256(_mm256_cmpeq_epi8(bytes, space), _mm256_andnot_si256(is_newline, control));
            out.spaces |= static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(is_space))) << (32 * k);
            out.newlines |= static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(is_newline))) << (32 * k);
        }
        return out;
    }
    EVALCORE_WIDE_TARGET static unsigned count(uint64_t mask) {
        return static_cast<unsigned>(__builtin_popcountll(mask));
    }
};

// Whether this processor runs WideBytes' code (the OS saving the AVX registers included:
// XGETBV tells), and the parse is not told to keep to the baseline
// (tests compare the two parsers: use_baseline_bytes).
bool wide_bytes_usable();
#endif

// Makes the TREC parsers keep to the baseline's code (true) or take the wide one where the
// processor has it (false, the default). For tests: both parsers must read alike.
void use_baseline_bytes(bool baseline);
// The code the TREC parsers take now: "avx2" (the wide one), "sse2" (the x86-64 baseline's)
// or "portable" (word arithmetic: no SSE2, or a build with EVALCORE_PORTABLE_BYTES).
const char* trec_bytes_code();

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

#ifdef EVALCORE_WIDE_BYTES
// count_newlines, 32 bytes a step: the newlines' bit mask, counted by POPCNT.
EVALCORE_WIDE_TARGET inline size_t count_newlines_wide(std::string_view text) {
    const char* p = text.data();
    const char* const end = p + text.size();
    const __m256i newline = _mm256_set1_epi8('\n');
    size_t count = 0;
    for (; end - p >= 32; p += 32) {
        const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        const auto found = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, newline)));
        count += static_cast<size_t>(__builtin_popcount(found));
    }
    for (; p != end; ++p) count += *p == '\n' ? 1 : 0;
    return count;
}
#endif

// count_newlines with the widest code the processor runs (wide_bytes_usable).
inline size_t count_newlines_best(std::string_view text) {
#ifdef EVALCORE_WIDE_BYTES
    if (wide_bytes_usable()) return count_newlines_wide(text);
#endif
    return count_newlines(text);
}

}  // namespace evalcore
