// Calls that report progress to a Python callback, or take Ctrl-C, while they run.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>

#include "common/progress.hpp"

namespace evalcore {

namespace py = pybind11;

// Runs work(&progress) on a thread of its own, which holds the GIL as the caller did (the
// work releases it where it computes), while this thread calls poll() about every
// `interval` (with the GIL): so poll runs on the caller's thread, where a signal handler
// (Ctrl-C's KeyboardInterrupt) runs too. If poll raises, the work is asked to stop
// (progress.cancelled: it throws ProgressCancelled where it looks), is waited for, and
// poll's exception is what this raises; else the work's result or exception. A thread that
// cannot start (the process's thread or address-space limit) leaves the work to this
// thread, polled only when it ends.
template <class Work, class Poll>
auto polled(Progress& progress, Work&& work, Poll&& poll, std::chrono::milliseconds interval)
    -> decltype(work(&progress)) {
    using Result = decltype(work(&progress));
    std::optional<Result> result;
    std::exception_ptr failure;
    std::mutex mutex;
    std::condition_variable changed;
    bool finished = false;
    std::thread worker;
    try {
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
    } catch (const std::system_error&) {
        return work(&progress);
    } catch (const std::bad_alloc&) {
        return work(&progress);
    }
    const auto wait = [&] {
        py::gil_scoped_release release;
        worker.join();
    };
    for (;;) {
        bool over;
        {
            py::gil_scoped_release release;
            std::unique_lock<std::mutex> lock(mutex);
            over = changed.wait_for(lock, interval, [&] { return finished; });
        }
        if (over) break;
        try {
            poll();
        } catch (...) {
            progress.cancelled = true;
            wait();
            throw;  // poll's exception; the work's (ProgressCancelled) is dropped
        }
    }
    wait();
    if (failure) std::rethrow_exception(failure);
    return std::move(*result);
}

// Runs work(&progress) as polled() does, calling callback(done, total) about every
// `interval` and once at the end; if the callback raises, that is what this raises. With
// no callback (None), work(nullptr) runs here, as any call does.
template <class Work>
auto with_progress(py::handle callback, Progress& progress, Work&& work,
                   std::chrono::milliseconds interval = std::chrono::milliseconds(100)) -> decltype(work(&progress)) {
    if (callback.is_none()) return work(nullptr);
    const auto report = [&] { callback(progress.done.load(), progress.total.load()); };
    auto result = polled(progress, work, report, interval);
    report();
    return result;
}

// Runs work(&progress) as polled() does, checking for signals about every `interval`: a
// KeyboardInterrupt (or whatever a signal handler raises) stops the work and is raised.
template <class Work>
auto with_interrupts(Progress& progress, Work&& work, std::chrono::milliseconds interval = std::chrono::milliseconds(50))
    -> decltype(work(&progress)) {
    const auto check = [] {
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    };
    return polled(progress, work, check, interval);
}

}  // namespace evalcore
