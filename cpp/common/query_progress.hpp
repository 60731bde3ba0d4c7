// A count of finished work items that one thread advances and another waits on, so that a
// consumer can start on item i as soon as the producer has finished it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace evalcore {

class QueryProgress {
public:
    // Items [0, done) are finished and will not change again.
    void publish(size_t done) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = done;
        }
        changed_.notify_all();
    }
    // The producer stopped early (it threw): waiters give up.
    void fail() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            failed_ = true;
        }
        changed_.notify_all();
    }
    // True when [0, count) is finished now, without blocking.
    bool ready(size_t count) {
        std::lock_guard<std::mutex> lock(mutex_);
        return done_ >= count;
    }
    // Blocks until [0, count) is finished (true) or the producer failed (false).
    bool wait_for(size_t count) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return done_ >= count || failed_; });
        return done_ >= count;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    size_t done_ = 0;
    bool failed_ = false;
};

}  // namespace evalcore
