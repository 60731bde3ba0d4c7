// Runs native work (no GIL) on a helper thread while this thread builds Python objects
// (GIL) from what the native work has finished so far (QueryProgress), then joins. The
// native work's exception, if any, is rethrown after the join. A helper thread that cannot
// start (the process's thread or address-space limit) leaves the native work to this
// thread, before the build, as when not in parallel.
#pragma once

#include <exception>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "common/query_progress.hpp"
#include "pybind.hpp"

namespace evalcore {

// Thrown by an emitter whose producer failed: the partial result is dropped.
struct EmissionAborted {};

template <class Native, class Build>
py::object overlap_with_python(bool in_parallel, QueryProgress& progress, Native&& native, Build&& build) {
    std::exception_ptr native_error;
    auto run_native = [&] {
        try {
            native();
        } catch (...) {
            native_error = std::current_exception();
            progress.fail();
        }
    };
    std::optional<std::thread> started;
    if (in_parallel) {
        try {
            started.emplace(run_native);
        } catch (const std::system_error&) {
        } catch (const std::bad_alloc&) {
        }
    }
    if (!started) {
        {
            py::gil_scoped_release release;
            run_native();
        }
        if (native_error) std::rethrow_exception(native_error);
        return build();
    }
    std::thread& helper = *started;
    struct Joiner {  // joins on every path, the GIL released meanwhile
        std::thread& thread;
        ~Joiner() {
            py::gil_scoped_release release;
            thread.join();
        }
    };
    py::object result;
    {
        Joiner joiner{helper};
        try {
            result = build();
        } catch (const EmissionAborted&) {
            // native_error says why, after the join
        }
    }
    if (native_error) std::rethrow_exception(native_error);
    return result;
}

}  // namespace evalcore
