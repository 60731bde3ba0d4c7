// Running one piece of work on several threads, the caller's among them.
#pragma once

#include <atomic>
#include <exception>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace evalcore {

// Calls work(index) once for each index in [0, count) and waits for all of them: index 0 on
// the calling thread, the others on up to count - 1 threads started for them. Callers split
// their work by index, never by thread, so that:
// - a thread that cannot start (std::system_error: the process's thread or address-space
//   limit; std::bad_alloc) is not waited for, nor is any after it started: the threads that
//   did start, the caller's among them, take the indices that got none (fewer workers, the
//   same work and the same result);
// - an exception thrown by work(i) never leaves its thread (std::terminate would end the
//   process): the indices not begun yet are skipped, every started thread is joined, and the
//   exception of the lowest index that threw is rethrown here (std::bad_alloc as itself:
//   pybind11 raises MemoryError).
template <class Work>
void on_threads(unsigned count, Work&& work) {
    if (count <= 1) {
        work(0u);
        return;
    }
    std::vector<std::exception_ptr> faults(count);
    std::atomic<unsigned> next{1};  // the next index no thread has taken
    std::atomic<bool> failed{false};
    const auto run = [&](unsigned index) {
        try {
            work(index);
        } catch (...) {
            faults[index] = std::current_exception();
            failed.store(true, std::memory_order_relaxed);
        }
    };
    const auto take = [&] {
        for (unsigned index; !failed.load(std::memory_order_relaxed) && (index = next.fetch_add(1)) < count;) run(index);
    };
    std::vector<std::thread> pool;
    try {
        pool.reserve(count - 1);
        for (unsigned t = 1; t < count; ++t) pool.emplace_back(take);
    } catch (const std::system_error&) {
        // fewer threads: `take` below and the started ones share out the rest
    } catch (const std::bad_alloc&) {
    }
    run(0);
    take();
    for (std::thread& thread : pool) thread.join();
    for (const std::exception_ptr& fault : faults) {
        if (fault) std::rethrow_exception(fault);
    }
}

}  // namespace evalcore
