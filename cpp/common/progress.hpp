// How far long work has come: advanced by the threads doing it, read by the one showing it
// (evalcore's progress= callbacks). A caller that wants none passes no Progress: each place
// that would advance one then costs a null check per block of input.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>

namespace evalcore {

// Thrown where the work is advanced once the one showing it asked it to stop (its callback
// raised): the work unwinds, and the callback's exception is what the caller sees.
class ProgressCancelled : public std::runtime_error {
public:
    ProgressCancelled() : std::runtime_error("cancelled") {}
};

struct Progress {
    std::atomic<uint64_t> done{0};
    std::atomic<uint64_t> total{0};  // what `done` goes up to, as far as it is known
    std::atomic<bool> cancelled{false};

    void advance(uint64_t amount) { done.fetch_add(amount, std::memory_order_relaxed); }
    bool stopped() const { return cancelled.load(std::memory_order_relaxed); }
    void expect(uint64_t amount) { total.fetch_add(amount, std::memory_order_relaxed); }
};

// Advances `progress` if there is one, and stops the work (on a thread where an exception
// may unwind it) if it was asked to.
inline void advance(Progress* progress, uint64_t amount) {
    if (progress == nullptr) return;
    progress->advance(amount);
    if (progress->stopped()) throw ProgressCancelled();
}

}  // namespace evalcore
