#include "python_score_reader.hpp"

#include <algorithm>
#include <cstring>

#include "../id_table.hpp"

namespace evalcore {
namespace {

bool is_key(PyObject* key, const char* name) {
    return PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, name) == 0;
}

// One ID, with its hash taken while its bytes are in cache.
bool read_id(PyObject* value, ScoreRequest& out, HeldObjects& held, std::deque<std::string>& arena) {
    std::string_view id;
    uint32_t units = 0;
    if (!view_str(value, held, arena, id, units)) return false;
    out.ids.push_back(id);
    out.hashes.push_back(IdTable::hash(id));
    return true;
}

bool read_list(PyObject* list, ScoreRequest& out, std::vector<IdRange>& ranges, HeldObjects& held,
               std::deque<std::string>& arena) {
    if (!PyList_Check(list)) return false;
    const Py_ssize_t n = PyList_GET_SIZE(list);
    const uint32_t begin = static_cast<uint32_t>(out.ids.size());
    for (Py_ssize_t i = 0; i < n; ++i) {
        if (!read_id(PyList_GET_ITEM(list, i), out, held, arena)) return false;
    }
    ranges.push_back(IdRange{begin, static_cast<uint32_t>(out.ids.size())});
    return true;
}

}  // namespace

bool read_score_fast(PyObject* request, ScoreRequest& out, HeldObjects& held, std::deque<std::string>& arena) {
    if (!PyDict_Check(request)) return false;
    PyObject *predicted = nullptr, *ground_truth = nullptr, *items = nullptr, *metrics = nullptr, *k = nullptr;
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t position = 0;
    while (PyDict_Next(request, &position, &key, &value)) {
        PyObject** slot = is_key(key, "items")          ? &items
                          : is_key(key, "predicted")    ? &predicted
                          : is_key(key, "ground_truth") ? &ground_truth
                          : is_key(key, "metrics")      ? &metrics
                          : is_key(key, "k")            ? &k
                                                        : nullptr;
        if (slot == nullptr) return false;
        if (value == Py_None && slot == &metrics) return false;  // metrics is not nullable
        *slot = value == Py_None ? nullptr : value;
    }
    if (metrics != nullptr) {
        static constexpr const char* names[score_metric_count] = {"precision", "recall", "f1", "f2"};
        if (!PyList_Check(metrics) || PyList_GET_SIZE(metrics) < 1 || PyList_GET_SIZE(metrics) > score_metric_count) return false;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(metrics); ++i) {
            PyObject* name = PyList_GET_ITEM(metrics, i);
            int found = -1;
            for (int m = 0; m < score_metric_count; ++m) {
                if (is_key(name, names[m])) found = m;
            }
            if (found < 0 || std::find(out.metrics.begin(), out.metrics.end(), found) != out.metrics.end()) return false;
            out.metrics.push_back(found);
        }
    } else {
        out.metrics = {0, 1, 2, 3};
    }
    if (k != nullptr) {
        if (!PyLong_CheckExact(k)) return false;
        int overflow = 0;
        const long long value_k = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (overflow != 0 || (value_k == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return false;
        }
        if (value_k < 1 || value_k > 9007199254740991LL) return false;
        out.has_k = true;
        out.k = value_k;
    }
    const bool single = predicted != nullptr || ground_truth != nullptr;
    if (single == (items != nullptr)) return false;  // both forms, or neither
    if (single) {
        if (predicted == nullptr || ground_truth == nullptr) return false;
        return read_list(predicted, out, out.predicted, held, arena) && read_list(ground_truth, out, out.ground_truth, held, arena);
    }
    if (!PyList_Check(items) || PyList_GET_SIZE(items) < 1) return false;
    const Py_ssize_t count = PyList_GET_SIZE(items);
    const size_t expected_ids = static_cast<size_t>(count) * 24;  // a guess; the vectors grow past it
    out.ids.reserve(expected_ids);
    out.hashes.reserve(expected_ids);
    held.reserve(expected_ids);
    out.predicted.reserve(static_cast<size_t>(count));
    out.ground_truth.reserve(static_cast<size_t>(count));
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* item = PyList_GET_ITEM(items, i);
        if (!PyDict_Check(item) || PyDict_GET_SIZE(item) != 2) return false;
        PyObject *p = nullptr, *g = nullptr;
        Py_ssize_t item_position = 0;
        while (PyDict_Next(item, &item_position, &key, &value)) {
            if (is_key(key, "predicted")) {
                p = value;
            } else if (is_key(key, "ground_truth")) {
                g = value;
            } else {
                return false;
            }
        }
        if (p == nullptr || g == nullptr) return false;
        if (!read_list(p, out, out.predicted, held, arena) || !read_list(g, out, out.ground_truth, held, arena)) return false;
    }
    return true;
}

}  // namespace evalcore
