// A small open-addressing hash map from ID strings to a 32-bit value, reused across queries
// so that checking uniqueness and looking up judgments allocates nothing per element.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "common/inlining.hpp"

// The ID comparisons below are a few inlined loads when inlined, but compilers kept them out
// of line in the readers' loops: a call per line there (perf: 3 % of reading the diversity
// benchmark's files), so they are forced inline where compilers allow it.

namespace evalcore {

// a == b for IDs: most are short, and fixed-size loads the compiler inlines (a pair of
// overlapping ones covers any length in their range; three bytes cover up to three) cost
// less than a call to memcmp, which short query IDs ("1" to "200") made on every line a
// reader compares with the line before's (perf: 7.5 % of parsing a run file).
EVALCORE_ALWAYS_INLINE bool same_id(std::string_view a, std::string_view b) {
    const size_t n = a.size();
    if (n != b.size()) return false;
    const char* x = a.data();
    const char* y = b.data();
    const auto word = [](const char* p) { uint64_t w; std::memcpy(&w, p, 8); return w; };
    const auto half = [](const char* p) { uint32_t w; std::memcpy(&w, p, 4); return w; };
    if (n >= 8 && n <= 16) return word(x) == word(y) && word(x + n - 8) == word(y + n - 8);
    if (n >= 4 && n < 8) return half(x) == half(y) && half(x + n - 4) == half(y + n - 4);
    if (n < 4) return n == 0 || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
    return std::memcmp(x, y, n) == 0;
}

// The sizeof(Word) bytes at `p` as a big-endian integer: two such loads compare as the bytes do
// (unsigned, the first differing byte deciding).
template <typename Word>
inline Word big_endian_word(const char* p) {
    Word w;
    std::memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return w;
#elif defined(__GNUC__) || defined(__clang__)
    if constexpr (sizeof w == 8) return __builtin_bswap64(w);
    else return __builtin_bswap32(w);
#else
    Word swapped = 0;
    for (size_t i = 0; i < sizeof w; ++i) swapped = (swapped << 8) | static_cast<unsigned char>(p[i]);
    return swapped;
#endif
}

// a < b for IDs, as std::string_view compares them (bytes unsigned, then length), with
// word loads the compiler inlines: 8 bytes at a time while they agree, then the common
// length's last 8 (or 4) bytes as one word, overlapping bytes already found equal, so the
// first differing byte decides as it would byte by byte. Rankings' ties compare their
// document IDs, mostly short ones differing in a byte or two: a byte loop there was most of
// the diversity measures' check that a ranking is in order (perf).
EVALCORE_ALWAYS_INLINE bool id_less(std::string_view a, std::string_view b) {
    const size_t n = a.size() < b.size() ? a.size() : b.size();
    const char* x = a.data();
    const char* y = b.data();
    if (n >= 8) {
        for (size_t i = 0; i + 8 <= n; i += 8) {
            const uint64_t u = big_endian_word<uint64_t>(x + i), v = big_endian_word<uint64_t>(y + i);
            if (u != v) return u < v;
        }
        const uint64_t u = big_endian_word<uint64_t>(x + n - 8), v = big_endian_word<uint64_t>(y + n - 8);
        if (u != v) return u < v;
    } else if (n >= 4) {
        const uint32_t u = big_endian_word<uint32_t>(x), v = big_endian_word<uint32_t>(y);
        if (u != v) return u < v;
        const uint32_t s = big_endian_word<uint32_t>(x + n - 4), t = big_endian_word<uint32_t>(y + n - 4);
        if (s != t) return s < t;
    } else {
        for (size_t i = 0; i < n; ++i) {
            if (x[i] != y[i]) return static_cast<unsigned char>(x[i]) < static_cast<unsigned char>(y[i]);
        }
    }
    return a.size() < b.size();
}

// Whether a (score, document) comes after the one before it in a ranking by score descending,
// ties by document ID ascending (pyndeval's order, which the diversity measures use): the
// readers' Records::in_order flags and the scorer's own check of a ranking. Without a branch
// on the scores (the IDs compared whatever they are): a run's scores wait for the number
// parser's division, and tied scores (most lines of a run of coarse scores) made such a
// branch mispredict after that wait (bench/README.md's eighth round).
EVALCORE_ALWAYS_INLINE bool ranks_after(double score_before, std::string_view doc_before, double score,
                                        std::string_view doc) {
    const bool smaller_id = id_less(doc_before, doc);
    return (score_before > score) | ((score_before == score) & smaller_id);
}

class IdTable {
public:
    // Empties the table and sizes it for up to `expected` entries. A table of the same size
    // is emptied by starting a new generation: a slot is in use only when it carries the
    // current one, so emptying touches no slot (tables are reset once per query).
    void reset(size_t expected) {
        size_t capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        if (slots_.size() != capacity || ++generation_ == 0) {
            generation_ = 1;
            slots_.assign(capacity, Slot{});
        }
        mask_ = capacity - 1;
        count_ = 0;
    }

    // Inserts key → value; returns nullptr, or the existing value when the key is present.
    // Grows (rehashing) past half full, so `expected` is a hint, not a bound.
    const uint32_t* insert(std::string_view key, uint32_t value) { return insert(key, hash(key), value); }
    // The same with the key's hash already known (hash(key)), e.g. taken while it was in cache.
    EVALCORE_ALWAYS_INLINE const uint32_t* insert(std::string_view key, uint64_t h, uint32_t value) {
        if (slots_.empty()) reset(0);
        if ((count_ + 1) * 2 > slots_.size()) grow();
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.generation != generation_) {
                slot = Slot{key, h, value, generation_};
                ++count_;
                return nullptr;
            }
            if (slot.hash == h && same_id(slot.key, key)) return &slot.value;
        }
    }

    const uint32_t* find(std::string_view key) const { return find(key, hash(key)); }
    const uint32_t* find(std::string_view key, uint64_t h) const {
        if (slots_.empty()) return nullptr;
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.generation != generation_) return nullptr;
            if (slot.hash == h && same_id(slot.key, key)) return &slot.value;
        }
    }

    // The value of the first entry whose hash is `h`, its key not compared: for a caller that
    // compares it later (after prefetching the texts of many lookups, whose cache misses then
    // overlap), and on a mismatch looks the key up with find(). nullptr when no hash is `h`.
    const uint32_t* find_hash(uint64_t h) const {
        if (slots_.empty()) return nullptr;
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.generation != generation_) return nullptr;
            if (slot.hash == h) return &slot.value;
        }
    }

    static uint64_t hash(std::string_view key) {
        // 8 bytes at a time with multiply-xorshift mixing; the tail with fixed-size loads
        // (a variable-length memcpy would be a library call per ID).
        const char* p = key.data();
        size_t n = key.size();
        uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xFF51AFD7ED558CCDull);
        for (; n >= 8; n -= 8, p += 8) {
            uint64_t chunk;
            std::memcpy(&chunk, p, 8);
            h = (h ^ chunk) * 0xBF58476D1CE4E5B9ull;
            h ^= h >> 31;
        }
        uint64_t tail = 0;
        if (n >= 4) {
            uint32_t first, last;
            std::memcpy(&first, p, 4);
            std::memcpy(&last, p + n - 4, 4);
            tail = (uint64_t(first) << 32) | last;
        } else if (n > 0) {
            tail = (uint64_t(uint8_t(p[0])) << 16) | (uint64_t(uint8_t(p[n / 2])) << 8) | uint8_t(p[n - 1]);
        }
        h = (h ^ tail) * 0x94D049BB133111EBull;
        h ^= h >> 29;
        return h;
    }

private:
    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(old.size() * 2, Slot{});
        mask_ = slots_.size() - 1;
        const uint32_t live = generation_;
        generation_ = 1;
        for (const Slot& slot : old) {
            if (slot.generation != live) continue;
            size_t i = slot.hash & mask_;
            while (slots_[i].generation == generation_) i = (i + 1) & mask_;
            slots_[i] = slot;
            slots_[i].generation = generation_;
        }
    }

    struct Slot {
        std::string_view key;
        uint64_t hash = 0;
        uint32_t value = 0;
        uint32_t generation = 0;  // in use when it is the table's current generation
    };
    std::vector<Slot> slots_;
    uint32_t generation_ = 1;
    size_t mask_ = 0;
    size_t count_ = 0;
};

}  // namespace evalcore

