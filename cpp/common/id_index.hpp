// Distinct IDs numbered in order (query IDs: millions in big qrels, looked up once per row
// of a shuffled run) → their number, for IDs the caller keeps in a vector. A slot holds a
// piece of the hash, the ID's length (up to 8) and its first 8 bytes: most query IDs are
// that short, and a lookup of one then reads its slot only, not the caller's vector and the
// ID's text as well (three cache misses on a shuffled input, the time of its reading). A
// slot is 16 bytes, IdTable's 32: the index of a million queries takes 32 MB.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "common/id_table.hpp"

namespace evalcore {

class IdIndex {
public:
    static constexpr uint32_t none = UINT32_MAX;

    // Empties the index and sizes it for `expected` IDs (it grows past that as needed).
    void reset(size_t expected) {
        size_t capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        slots_.assign(capacity, Slot{});
        mask_ = capacity - 1;
        count_ = 0;
    }
    size_t size() const { return count_; }

    // The number of `key` (whose IdTable::hash is `h`) among `ids`, or `none`.
    uint32_t find(std::string_view key, uint64_t h, const std::vector<std::string_view>& ids) const {
        if (slots_.empty()) return none;
        const uint32_t check = check_of(h, key.size());
        const uint64_t head = head_of(key);
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.number == 0) return none;
            // A key of 8 bytes or fewer is its length (in the check) and its head: equal
            // ones are equal keys. A longer one is compared whole.
            if (slot.check == check && slot.head == head && (key.size() <= 8 || same_id(ids[slot.number - 1], key))) {
                return slot.number - 1;
            }
        }
    }
    uint32_t find(std::string_view key, const std::vector<std::string_view>& ids) const {
        return find(key, IdTable::hash(key), ids);
    }

    // Adds ids[number] (not in the index: find said so), whose hash is `h`. Growing reads
    // the other IDs in `ids` again, to place them by their whole hash.
    void insert(uint64_t h, uint32_t number, const std::vector<std::string_view>& ids) {
        if (number >= none - 1) throw std::length_error("more than 4,294,967,293 distinct IDs");
        if (slots_.empty()) reset(0);
        if ((count_ + 1) * 2 > slots_.size()) grow(ids);
        place(h, Slot{head_of(ids[number]), check_of(h, ids[number].size()), number + 1});
        ++count_;
    }

private:
    struct Slot {
        uint64_t head = 0;    // the first 8 bytes of the ID (fewer: zeros after them)
        uint32_t check = 0;   // the high bits of the hash, with the length up to 8 (9: longer)
        uint32_t number = 0;  // the ID's number + 1; 0: an empty slot
    };

    static uint32_t check_of(uint64_t h, size_t length) {
        return (static_cast<uint32_t>(h >> 32) & ~uint32_t{15}) | static_cast<uint32_t>(length < 9 ? length : 9);
    }

    // The first bytes of `key`, up to 8, in an integer (zeros after a shorter key's bytes):
    // fixed-size copies (a pair of overlapping ones covers 4 to 7 bytes), not a library call.
    static uint64_t head_of(std::string_view key) {
        const char* p = key.data();
        const size_t n = key.size();
        uint64_t head = 0;
        if (n >= 8) {
            std::memcpy(&head, p, 8);
            return head;
        }
        unsigned char bytes[8] = {};
        if (n >= 4) {
            std::memcpy(bytes, p, 4);
            std::memcpy(bytes + n - 4, p + n - 4, 4);
        } else {
            for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(p[i]);
        }
        std::memcpy(&head, bytes, 8);
        return head;
    }

    void place(uint64_t h, const Slot& slot) {
        size_t i = h & mask_;
        while (slots_[i].number != 0) i = (i + 1) & mask_;
        slots_[i] = slot;
    }

    void grow(const std::vector<std::string_view>& ids) {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        mask_ = slots_.size() - 1;
        for (const Slot& slot : old) {
            if (slot.number != 0) place(IdTable::hash(ids[slot.number - 1]), slot);
        }
    }

    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t count_ = 0;
};

}  // namespace evalcore
