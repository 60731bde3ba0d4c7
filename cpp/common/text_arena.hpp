// Append-only storage for many short strings: copies land in large blocks, so that each
// copy is a memcpy (no allocation per string) and views of earlier copies stay valid.
// clear() keeps the blocks for the next use (fresh memory costs a page fault per 4 KiB).
#pragma once

#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

namespace evalcore {

class TextArena {
public:
    TextArena() = default;
    // Moving hands the blocks over (views of the copies stay valid) and empties the source.
    TextArena(TextArena&& other) noexcept { take(other); }
    TextArena& operator=(TextArena&& other) noexcept {
        if (this != &other) take(other);
        return *this;
    }

    std::string_view copy(std::string_view text) { return copy(text.data(), text.size()); }
    std::string_view copy(const char* data, size_t size) {
        if (size > left_) next_block(size);
        char* at = next_;
        copy_bytes(at, data, size);
        next_ += size;
        left_ -= size;
        return std::string_view(at, size);
    }
    // Takes over the copies `other` holds (their views stay valid); `other` is left empty.
    void absorb(TextArena&& other) {
        blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(used_), std::make_move_iterator(other.blocks_.begin()),
                       std::make_move_iterator(other.blocks_.begin() + static_cast<std::ptrdiff_t>(other.used_)));
        used_ += other.used_;  // the block being filled, before them, stays the one filled
        other.blocks_.clear();
        other.clear();
    }
    // Forgets every copy (their views dangle from here on) but keeps the memory.
    void clear() {
        used_ = 0;
        next_ = nullptr;
        left_ = 0;
    }

private:
    // Short strings (most IDs) with fixed-size moves that the compiler inlines, a pair of
    // overlapping ones covering any length in their range; a library call costs more.
    static void copy_bytes(char* to, const char* from, size_t size) {
        if (size >= 8 && size <= 16) {
            std::memcpy(to, from, 8);
            std::memcpy(to + size - 8, from + size - 8, 8);
        } else if (size >= 4 && size < 8) {
            std::memcpy(to, from, 4);
            std::memcpy(to + size - 4, from + size - 4, 4);
        } else if (size != 0) {
            std::memcpy(to, from, size);
        }
    }

    void take(TextArena& other) {
        blocks_ = std::move(other.blocks_);
        used_ = other.used_;
        next_ = other.next_;
        left_ = other.left_;
        other.blocks_.clear();
        other.clear();
    }

    struct Block {
        std::unique_ptr<char[]> data;
        size_t size;
    };
    void next_block(size_t size) {
        while (used_ < blocks_.size() && blocks_[used_].size < size) ++used_;  // skip blocks too small
        if (used_ == blocks_.size()) {
            const size_t block = size > block_size ? size : block_size;
            blocks_.push_back(Block{std::unique_ptr<char[]>(new char[block]), block});
        }
        next_ = blocks_[used_].data.get();
        left_ = blocks_[used_].size;
        ++used_;
    }

    static constexpr size_t block_size = size_t{1} << 20;
    std::vector<Block> blocks_;
    size_t used_ = 0;  // blocks_[0, used_) are taken
    char* next_ = nullptr;
    size_t left_ = 0;
};

}  // namespace evalcore
