// The documents of one query seen so far, to find one listed twice (trec_eval refuses it, and
// so do we): record_groups.cpp's find_repeats. (Checked instead as the parts parse, while each
// line is in cache, it cost as much: measured, the insertions are the cost, not the reads.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/id_table.hpp"

namespace evalcore {

// Open addressing over 8-byte slots (the upper half of the document's hash and its index in
// the query, plus one; 0 is empty), so that a query of 1,000 documents takes 32 KiB a quarter
// full, in L1, where an IdTable's 32-byte slots took 64 KiB half full (perf: find_repeats was
// 6 % of `evalcore trec`'s samples).
class SeenDocs {
public:
    // Empties the table, sized for `count` documents: at most a quarter full while that
    // fits in 64 KiB, at most half full beyond. (Half full, whether a probe's slot was empty
    // was a coin toss, mispredicted in the run reading's grouping: a quarter full read the
    // diversity benchmark's run 4 % faster, bench/README.md's eighth round.)
    void reset(size_t count) {
        const size_t load = count <= 2048 ? 4 : 2;
        size_t capacity = 16;
        while (capacity < count * load) capacity *= 2;
        slots_.assign(capacity, Slot{});
        mask_ = capacity - 1;
    }
    // The index (in the query) of an earlier document equal to ids[index], or npos after
    // recording this one (`hash`: its IdTable::hash); at most `count` documents (reset).
    // (Forced inline: clang kept it, and IdTable::insert, out of line in find_repeats' loop.)
    EVALCORE_ALWAYS_INLINE size_t insert(const std::string_view* ids, uint64_t hash, uint32_t index) {
        const auto tag = static_cast<uint32_t>(hash >> 32);
        for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.index_plus_one == 0) {
                slot = Slot{tag, index + 1};
                return npos;
            }
            if (slot.tag == tag && same_id(ids[slot.index_plus_one - 1], ids[index])) return slot.index_plus_one - 1;
        }
    }
    static constexpr size_t npos = SIZE_MAX;

private:
    struct Slot {
        uint32_t tag = 0;
        uint32_t index_plus_one = 0;
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0;
};

}  // namespace evalcore
