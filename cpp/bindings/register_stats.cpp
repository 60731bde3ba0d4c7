// The kernels of evalcore.compare (python/evalcore/comparisons/compare_runs.py calls them; the reference
// twin is python/evalcore/reference/comparisons/compare_runs.py):
//
// _core.paired_summaries(items, ranks, threads) -> [(n, mean, ss, zeros, r_plus2, tie_term,
//     has_ties, ranks2), ...]: per item (a, b) of float64 buffers, the moments of the
//     binary64 differences a − b (of a itself when b is None) and, when `ranks`, their
//     signed ranks (ranks2 only for n <= 50, where the exact distributions need them).
// _core.resample(groups, seed, resamples, threads, sign_flip, bootstrap) -> [(means, deltas,
//     sign_flip_counts, bootstrap_counts, bootstrap_means, bootstrap_deltas), ...]: per group
//     (values: a C-contiguous float64 series × queries buffer, pairs: [(run, baseline)]),
//     stats/resampling.hpp's outcome; the resampled means and deltas as float64 bytes.
//
// Buffers are read in place with the GIL released; the objects are held until the work is done.
// The resampling runs on threads of its own while the caller's thread checks for signals
// (progress_calls.hpp): Ctrl-C stops it within a block of resamples.
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "common/parallel.hpp"
#include "progress_calls.hpp"
#include "register.hpp"
#include "stats/paired_summary.hpp"
#include "stats/resampling.hpp"
#include "stats/tukey.hpp"

namespace evalcore {
namespace {

// A one-dimensional (or, for a group, two-dimensional) C-contiguous float64 buffer.
struct Doubles {
    py::buffer_info info;
    const double* data = nullptr;
    size_t rows = 1, columns = 0;
};

Doubles doubles(py::handle object, int dimensions, const char* what) {
    Doubles out;
    out.info = py::reinterpret_borrow<py::buffer>(object).request();
    const py::buffer_info& b = out.info;
    if (b.format != py::format_descriptor<double>::format() || b.ndim != dimensions) {
        throw py::type_error(std::string(what) + " must be a " + std::to_string(dimensions) + "-dimensional float64 buffer");
    }
    const auto item = static_cast<py::ssize_t>(sizeof(double));
    const py::ssize_t last = b.shape[dimensions - 1];
    if ((last > 1 && b.strides[dimensions - 1] != item) || (dimensions == 2 && b.shape[0] > 1 && b.strides[0] != item * last)) {
        throw py::type_error(std::string(what) + " must be C-contiguous");
    }
    out.data = static_cast<const double*>(b.ptr);
    out.columns = static_cast<size_t>(last);
    if (dimensions == 2) out.rows = static_cast<size_t>(b.shape[0]);
    return out;
}

struct Summary {
    size_t n = 0;
    Moments moments;
    SignedRanks ranks;
};

// Runs work(i) for i in [0, count) on `threads` threads; the first exception is rethrown here.
template <class Work>
void for_each_item(size_t count, unsigned threads, Work&& work) {
    threads = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads, count)));
    std::vector<std::exception_ptr> errors(threads);
    on_threads(threads, [&](unsigned t) {
        try {
            for (size_t i = t; i < count; i += threads) work(i);
        } catch (...) {
            errors[t] = std::current_exception();
        }
    });
    for (const std::exception_ptr& error : errors) {
        if (error) std::rethrow_exception(error);
    }
}

py::list paired_summaries(const py::list& items, bool ranks, unsigned threads) {
    std::vector<std::pair<Doubles, Doubles>> inputs;
    std::vector<bool> paired;
    for (py::handle item : items) {
        const py::tuple pair = item.cast<py::tuple>();
        if (pair.size() != 2) throw py::value_error("an item is (a, b)");
        Doubles a = doubles(pair[0], 1, "a"), b;
        const bool has_b = !pair[1].is_none();
        if (has_b) {
            b = doubles(pair[1], 1, "b");
            if (b.columns != a.columns) throw py::value_error("a and b must be equally long");
        }
        inputs.emplace_back(std::move(a), std::move(b));
        paired.push_back(has_b);
    }
    std::vector<Summary> out(inputs.size());
    {
        py::gil_scoped_release release;
        for_each_item(inputs.size(), threads, [&](size_t i) {
            const Doubles& a = inputs[i].first;
            const size_t n = a.columns;
            std::vector<double> differences(a.data, a.data + n);
            if (paired[i]) {
                for (size_t q = 0; q < n; ++q) differences[q] -= inputs[i].second.data[q];  // binary64, as scipy's a - b
            }
            out[i].n = n;
            out[i].moments = moments(differences.data(), n);
            if (ranks) out[i].ranks = signed_ranks(differences.data(), n, n <= 50);
        });
    }
    py::list result;
    for (const Summary& s : out) {
        result.append(py::make_tuple(s.n, s.moments.mean, s.moments.ss, s.ranks.zeros, s.ranks.r_plus2, s.ranks.tie_term,
                                     s.ranks.has_ties, py::tuple(py::cast(s.ranks.ranks2))));
    }
    return result;
}

py::bytes as_bytes(const std::vector<double>& values) {
    return py::bytes(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
}

py::list resample(const py::list& group_list, uint64_t seed, uint64_t resamples, unsigned threads, bool sign_flip,
                  bool bootstrap) {
    std::vector<Doubles> buffers;
    std::vector<SeriesGroup> groups;
    for (py::handle item : group_list) {
        const py::tuple group = item.cast<py::tuple>();
        if (group.size() != 2) throw py::value_error("a group is (values, pairs)");
        buffers.push_back(doubles(group[0], 2, "a group's values"));
        SeriesGroup g;
        g.series = buffers.back().rows;
        g.queries = buffers.back().columns;
        g.values = buffers.back().data;
        g.pairs = group[1].cast<std::vector<std::pair<uint32_t, uint32_t>>>();
        groups.push_back(std::move(g));
    }
    Progress progress;
    const ResamplingPlan plan{seed, resamples, std::max(1u, threads), sign_flip, bootstrap, &progress};
    const std::vector<GroupOutcome> outcomes = with_interrupts(progress, [&](Progress*) {
        py::gil_scoped_release release;
        std::vector<GroupOutcome> done;
        for (const SeriesGroup& g : groups) done.push_back(resample_group(g, plan));  // each uses every thread
        return done;
    });
    py::list result;
    for (const GroupOutcome& o : outcomes) {
        const py::object none = py::none();
        result.append(py::make_tuple(o.means, o.deltas, sign_flip ? py::cast(o.sign_flip_counts) : none,
                                     bootstrap ? py::cast(o.bootstrap_counts) : none,
                                     bootstrap ? py::object(as_bytes(o.bootstrap_means)) : none,
                                     bootstrap ? py::object(as_bytes(o.bootstrap_deltas)) : none));
    }
    return result;
}

// issue 26: the randomized Tukey HSD's counts for a systems × queries float64 buffer.
std::vector<uint64_t> randomized_tukey(const py::handle& values, uint64_t seed, uint64_t resamples, unsigned threads) {
    const Doubles buffer = doubles(values, 2, "the Tukey HSD's values");
    Progress progress;
    const TukeyPlan plan{seed, resamples, std::max(1u, threads), &progress};
    return with_interrupts(progress, [&](Progress*) {
        py::gil_scoped_release release;
        return randomized_tukey_counts(buffer.data, buffer.rows, buffer.columns, plan);
    });
}

}  // namespace

void register_stats(py::module_& m) {
    m.def("paired_summaries", &paired_summaries, py::arg("items"), py::arg("ranks"), py::arg("threads"),
          "Moments and signed ranks of paired differences; use evalcore.compare.");
    m.def("resample", &resample, py::arg("groups"), py::arg("seed"), py::arg("resamples"), py::arg("threads"),
          py::arg("sign_flip"), py::arg("bootstrap"), "The resampling tests of evalcore.compare; use evalcore.compare.");
    m.def("randomized_tukey", &randomized_tukey, py::arg("values"), py::arg("seed"), py::arg("resamples"),
          py::arg("threads"), "The randomized Tukey HSD's counts (issue 26); use evalcore.tukey_hsd.");
}

}  // namespace evalcore
