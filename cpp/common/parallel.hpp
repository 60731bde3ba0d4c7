// Running one piece of work on several threads, the caller's among them.
#pragma once

#include <thread>
#include <vector>

namespace evalcore {

// Calls work(thread_index) on `threads` threads (index 0 is the calling thread) and waits
// for all of them.
template <class Work>
void on_threads(unsigned threads, Work&& work) {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&work, t] { work(t); });
    work(0u);
    for (std::thread& t : pool) t.join();
}

}  // namespace evalcore
