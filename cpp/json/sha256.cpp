#include "json/sha256.hpp"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define EVALCORE_SHA_X86 1
#endif

namespace evalcore {
namespace {

constexpr uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress_portable(uint32_t state[8], const uint8_t* data, size_t blocks) {
    for (; blocks > 0; --blocks, data += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; ++i) {
            w[i] = (uint32_t(data[4 * i]) << 24) | (uint32_t(data[4 * i + 1]) << 16) | (uint32_t(data[4 * i + 2]) << 8) |
                   uint32_t(data[4 * i + 3]);
        }
        for (int i = 16; i < 64; ++i) {
            uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 64; ++i) {
            uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + round_constants[i] + w[i];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#ifdef EVALCORE_SHA_X86
// Four rounds: add the round constants to the schedule words and run two rnds2 steps.
#define EVALCORE_SHA_ROUNDS(words, i)                                                                        \
    do {                                                                                                     \
        __m128i m = _mm_add_epi32(words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(round_constants + 4 * (i)))); \
        state1 = _mm_sha256rnds2_epu32(state1, state0, m);                                                   \
        state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(m, 0x0E));                         \
    } while (0)

__attribute__((target("sha,sse4.1,ssse3"))) void compress_sha_ni(uint32_t state[8], const uint8_t* data, size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions want the state as ABEF and CDGH.
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)), 0xB1);
    __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4)), 0x1B);
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);
    for (; blocks > 0; --blocks, data += 64) {
        const __m128i save0 = state0, save1 = state1;
        __m128i w[4];
        for (int i = 0; i < 4; ++i) {
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), byte_swap);
            EVALCORE_SHA_ROUNDS(w[i], i);
        }
        for (int i = 4; i < 16; ++i) {
            // W[t..t+3] from the previous sixteen words (the four groups, oldest first).
            __m128i next = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
            next = _mm_add_epi32(next, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
            next = _mm_sha256msg2_epu32(next, w[(i + 3) & 3]);
            w[i & 3] = next;
            EVALCORE_SHA_ROUNDS(next, i);
        }
        state0 = _mm_add_epi32(state0, save0);
        state1 = _mm_add_epi32(state1, save1);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);
    state1 = _mm_shuffle_epi32(state1, 0xB1);
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);
    state1 = _mm_alignr_epi8(state1, tmp, 8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), state0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), state1);
}
#undef EVALCORE_SHA_ROUNDS

bool cpu_has_sha_ni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    bool ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    bool sha = (b >> 29) & 1;
    return ssse3 && sse41 && sha;
}
#endif

using CompressFn = void (*)(uint32_t*, const uint8_t*, size_t);

CompressFn pick_compress() {
#ifdef EVALCORE_SHA_X86
    if (cpu_has_sha_ni()) return compress_sha_ni;
#endif
    return compress_portable;
}

// Chosen once; a function-local static is initialised thread-safely.
CompressFn compress_fn() {
    static const CompressFn fn = pick_compress();
    return fn;
}

}  // namespace

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::update(const void* data, size_t size) {
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    total_bytes_ += size;
    CompressFn compress = compress_fn();
    if (block_used_ > 0) {
        size_t take = 64 - block_used_ < size ? 64 - block_used_ : size;
        std::memcpy(block_ + block_used_, bytes, take);
        block_used_ += take;
        bytes += take;
        size -= take;
        if (block_used_ < 64) return;
        compress(state_, block_, 1);
        block_used_ = 0;
    }
    if (size >= 64) {
        compress(state_, bytes, size / 64);
        bytes += size / 64 * 64;
        size %= 64;
    }
    if (size > 0) {
        std::memcpy(block_, bytes, size);
        block_used_ = size;
    }
}

void Sha256::finish(uint8_t digest[32]) {
    uint64_t bits = total_bytes_ * 8;
    uint8_t pad[72] = {0x80};
    size_t pad_len = (block_used_ < 56 ? 56 : 120) - block_used_;
    for (int i = 0; i < 8; ++i) pad[pad_len + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    uint64_t saved_total = total_bytes_;
    update(pad, pad_len + 8);
    total_bytes_ = saved_total;
    for (int i = 0; i < 8; ++i) {
        digest[4 * i] = static_cast<uint8_t>(state_[i] >> 24);
        digest[4 * i + 1] = static_cast<uint8_t>(state_[i] >> 16);
        digest[4 * i + 2] = static_cast<uint8_t>(state_[i] >> 8);
        digest[4 * i + 3] = static_cast<uint8_t>(state_[i]);
    }
}

std::string Sha256::hex_digest() {
    uint8_t digest[32];
    finish(digest);
    static const char hex[] = "0123456789abcdef";
    std::string out(64, '0');
    for (int i = 0; i < 32; ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    return out;
}

std::string sha256_hex(std::string_view data) {
    Sha256 hash;
    hash.update(data);
    return hash.hex_digest();
}

bool sha256_uses_cpu_extensions() {
#ifdef EVALCORE_SHA_X86
    return compress_fn() == compress_sha_ni;
#else
    return false;
#endif
}

}  // namespace evalcore
