// Running one piece of work on several threads, the caller's among them.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace evalcore {

// Up to `count` threads, each running body(); as many as could start (std::system_error: the
// process's thread or address-space limit; std::bad_alloc): the callers' work is shared out
// by index among those that did and the caller's thread.
template <class Body>
std::vector<std::thread> start_threads(unsigned count, const Body& body) {
    std::vector<std::thread> pool;
    try {
        pool.reserve(count);
        for (unsigned t = 0; t < count; ++t) pool.emplace_back(body);
    } catch (const std::system_error&) {
    } catch (const std::bad_alloc&) {
    }
    return pool;
}

// Rethrows the exception of the lowest index that threw, if any.
inline void rethrow_first(const std::vector<std::exception_ptr>& faults) {
    for (const std::exception_ptr& fault : faults) {
        if (fault) std::rethrow_exception(fault);
    }
}

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
    std::vector<std::thread> pool = start_threads(count - 1, take);  // fewer: these and this thread share the rest
    run(0);
    take();
    for (std::thread& thread : pool) thread.join();
    rethrow_first(faults);
}

// Parts of a reading that another thread, done with work of its own, helps with: two inputs
// read at once (a run on one thread, its qrels on another) are rarely the same size, and the
// thread done first would otherwise wait, where on a machine of two cores the other's parts
// could be shared out (issue 25 item 6: the run is two thirds of a diversity evaluation's
// reading). The owner offers parts with run(), which `workers` threads take (the owner's
// and workers - 1 started for them, as on_threads starts them); a thread in help() takes some
// of them too, index after index; once every part is done, run() returns (a part's exception
// rethrown there, the lowest index's, as on_threads does). close() ends the offers: a helper
// waiting returns. The owner must close on every path (CloseParts), else its helper waits on.
class SharedParts {
public:
    template <class Work>
    void run(unsigned count, Work& work, unsigned workers = 1) {
        std::vector<std::exception_ptr> faults(count);
        Offer offer{const_cast<void*>(static_cast<const void*>(&work)),
                    [](void* w, unsigned i) { (*static_cast<Work*>(w))(i); }, count, &faults};
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            next_.store(0);
            offer_ = &offer;
        }
        changed_.notify_all();
        workers = std::min(workers, count);
        std::vector<std::thread> pool = start_threads(workers > 1 ? workers - 1 : 0, [this, &offer] { take(offer); });
        take(offer);
        for (std::thread& thread : pool) thread.join();
        {
            // No more helpers join; those that did are waited for (the offer and the work
            // they call live on this stack).
            std::unique_lock<std::mutex> lock(mutex_);
            offer_ = nullptr;
            changed_.wait(lock, [&] { return helpers_ == 0; });
        }
        rethrow_first(faults);
    }

    // Takes parts of the offers made until close(); returns once closed.
    void help() {
        std::unique_lock<std::mutex> lock(mutex_);
        // An offer with parts not taken, none of them failed (after a failure the rest are
        // skipped: waiting for the owner to withdraw it, not spinning on it).
        const auto open = [this] {
            return offer_ != nullptr && !offer_->failed.load(std::memory_order_relaxed) && next_.load() < offer_->count;
        };
        while (true) {
            changed_.wait(lock, [&] { return closed_ || open(); });
            if (!open()) return;  // closed, nothing left
            Offer& offer = *offer_;
            ++helpers_;
            lock.unlock();
            take(offer);
            lock.lock();
            --helpers_;
            changed_.notify_all();
        }
    }

    void close() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            closed_ = true;
        }
        changed_.notify_all();
    }

private:
    struct Offer {
        void* work;
        void (*call)(void*, unsigned);
        unsigned count;
        std::vector<std::exception_ptr>* faults;
        std::atomic<bool> failed{false};
    };
    void take(Offer& offer) {
        for (unsigned index; !offer.failed.load(std::memory_order_relaxed) && (index = next_.fetch_add(1)) < offer.count;) {
            try {
                offer.call(offer.work, index);
            } catch (...) {
                (*offer.faults)[index] = std::current_exception();
                offer.failed.store(true, std::memory_order_relaxed);
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    Offer* offer_ = nullptr;        // the open offer, if any
    std::atomic<unsigned> next_{0};  // its next part no thread has taken
    unsigned helpers_ = 0;           // threads taking its parts besides the owner
    bool closed_ = false;
};

// Closes a SharedParts when the owner's reading ends, by return or by throw.
class CloseParts {
public:
    explicit CloseParts(SharedParts* parts) : parts_(parts) {}
    ~CloseParts() {
        if (parts_ != nullptr) parts_->close();
    }
    CloseParts(const CloseParts&) = delete;
    CloseParts& operator=(const CloseParts&) = delete;

private:
    SharedParts* parts_;
};

// How a reader runs its parts: each on a thread of its own (on_threads: as many parts as
// threads), or offered through `share` to a helper, which then counts among the threads
// (more parts than threads, so that a helper joining late still finds some).
struct PartRunner {
    unsigned threads = 1;
    SharedParts* share = nullptr;

    static constexpr unsigned parts_a_thread = 8;  // when shared
    unsigned parts() const { return share != nullptr ? std::max(threads, 1u) * parts_a_thread : std::max(threads, 1u); }
    template <class Work>
    void operator()(unsigned count, Work&& work) const {
        if (share != nullptr && count > 1) {
            share->run(count, work, std::max(threads, 2u) - 1);
        } else {
            on_threads(count, work);
        }
    }
};

}  // namespace evalcore
