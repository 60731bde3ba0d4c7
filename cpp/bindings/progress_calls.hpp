// Calls that report progress to a Python callback while they run.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "common/progress.hpp"

namespace evalcore {

namespace py = pybind11;

// Runs work(&progress) on a thread of its own, which holds the GIL as the caller did (the
// work releases it where it computes), while this thread calls callback(done, total) about
// every `interval` (with the GIL) and once at the end: so the callback runs on the caller's
// thread, and a KeyboardInterrupt reaches the caller there. If the callback raises, the
// work is asked to stop, is waited for, and the callback's exception is what this raises.
// With no callback (None), work(nullptr) runs here, as any call does.
template <class Work>
auto with_progress(py::handle callback, Progress& progress, Work&& work,
                   std::chrono::milliseconds interval = std::chrono::milliseconds(100)) -> decltype(work(&progress)) {
    using Result = decltype(work(&progress));
    if (callback.is_none()) return work(nullptr);
    std::optional<Result> result;
    std::exception_ptr failure;
    std::mutex mutex;
    std::condition_variable changed;
    bool finished = false;
    std::thread worker;
    {
        py::gil_scoped_release release;
        worker = std::thread([&] {
            {
                py::gil_scoped_acquire gil;
                try {
                    result.emplace(work(&progress));
                } catch (...) {
                    failure = std::current_exception();
                }
            }
            {
                std::lock_guard<std::mutex> lock(mutex);
                finished = true;
            }
            changed.notify_one();
        });
    }
    const auto wait = [&] {
        py::gil_scoped_release release;
        worker.join();
    };
    const auto report = [&] { callback(progress.done.load(), progress.total.load()); };
    for (;;) {
        bool over;
        {
            py::gil_scoped_release release;
            std::unique_lock<std::mutex> lock(mutex);
            over = changed.wait_for(lock, interval, [&] { return finished; });
        }
        if (over) break;
        try {
            report();
        } catch (...) {
            progress.cancelled = true;
            wait();
            throw;  // the callback's exception; the work's (ProgressCancelled) is dropped
        }
    }
    wait();
    if (failure) std::rethrow_exception(failure);
    report();
    return std::move(*result);
}

}  // namespace evalcore
