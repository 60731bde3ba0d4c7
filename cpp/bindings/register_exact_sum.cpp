// _core.exact_sum(values) -> float: the exact sum of finite floats, rounded once.
// _core.exact_sum_state(values, state=b"") -> bytes: `state` (a serialized partial sum,
//     empty for none) with `values` added, serialized (ExactSum::serialize's form).
// _core.exact_sum_merge(states) -> bytes: the serialized sum of serialized partial sums.
// _core.exact_sum_value(state) -> float: a serialized sum, rounded once.
// Values are a sequence of floats or a float64 buffer; NaN and infinities are refused. A total
// outside an exact sum's range (ExactSum::range_message) is an OverflowError from the first
// two (pybind11 turns std::overflow_error into it); the Python caller keeps its old state.
#include <cmath>
#include <string>
#include <vector>

#include "common/exact_sum.hpp"
#include <pybind11/stl.h>

#include "register.hpp"

namespace evalcore {
namespace {

// `state` deserialized; empty is no sum yet only where `empty_is_zero` (exact_sum_state's default).
ExactSum state_of(const py::bytes& state, bool empty_is_zero = false) {
    const std::string bytes = state;
    if (bytes.empty() && empty_is_zero) return ExactSum{};
    try {
        return ExactSum::deserialize(bytes);
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
}

void add_values(ExactSum& sum, const py::handle& values) {
    const auto add = [&sum](double v) {
        if (!std::isfinite(v)) throw py::value_error("an exact sum takes finite values only, got " + std::to_string(v));
        sum.add(v);
    };
    if (PyObject_CheckBuffer(values.ptr())) {
        const py::buffer_info info = py::reinterpret_borrow<py::buffer>(values).request();
        if (info.format != py::format_descriptor<double>::format() || info.ndim != 1) {
            throw py::type_error("an exact sum's buffer must be one-dimensional float64");
        }
        const char* at = static_cast<const char*>(info.ptr);
        for (py::ssize_t i = 0; i < info.shape[0]; ++i) add(*reinterpret_cast<const double*>(at + i * info.strides[0]));
        return;
    }
    for (double v : values.cast<std::vector<double>>()) add(v);
}

py::bytes to_bytes(const ExactSum& sum) { return py::bytes(sum.serialize()); }

}  // namespace

void register_exact_sum(py::module_& m) {
    m.def(
        "exact_sum",
        [](const py::handle& values) {
            ExactSum sum;
            add_values(sum, values);
            return sum.rounded();
        },
        py::arg("values"), "The exact sum of finite floats, rounded once (the means of evaluate_run use it).");
    m.def(
        "exact_sum_state",
        [](const py::handle& values, const py::bytes& state) {
            ExactSum sum = state_of(state, true);
            add_values(sum, values);
            return to_bytes(sum);
        },
        py::arg("values"), py::arg("state") = py::bytes(), "A serialized partial sum with finite values added.");
    m.def(
        "exact_sum_merge",
        [](const std::vector<py::bytes>& states) {
            ExactSum sum;
            for (const py::bytes& state : states) sum.merge(state_of(state));
            return to_bytes(sum);
        },
        py::arg("states"), "The serialized sum of serialized partial sums.");
    m.def(
        "exact_sum_value", [](const py::bytes& state) { return state_of(state).rounded(); }, py::arg("state"),
        "A serialized exact sum, rounded once to the nearest float.");
}

}  // namespace evalcore
