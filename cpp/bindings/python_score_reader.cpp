#include "python_score_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace evalcore {
namespace {

bool is_key(PyObject* key, const char* name) {
    return PyUnicode_CheckExact(key) && PyUnicode_CompareWithASCIIString(key, name) == 0;
}

// The most canonical JSON bytes an ID of n code points can take, with its separator.
inline int64_t id_bytes(Py_ssize_t n) { return 6 * static_cast<int64_t>(n) + 3; }

// Asks for the cache line of an object needed soon: the IDs are millions of str objects
// scattered over the heap, and reading them one miss after another is what costs.
inline void prefetch(const void* address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

// A non-ASCII ID as UTF-8; false for a surrogate (the slow path names it).
bool read_wide_id(PyObject* value, ScoreRequest& out, std::deque<std::string>& wide) {
    std::string_view id;
    uint32_t units = 0;
    if (!view_held_str(value, wide, id, units)) return false;
    out.ids.push_back(id);
    return true;
}

// An ID: a str (exactly the slow path's test) without surrogates, its text copied.
inline bool read_id(PyObject* value, ScoreRequest& out, TextArena& text, std::deque<std::string>& wide) {
    if (!is_ready_str(value)) return false;
    if (!PyUnicode_IS_ASCII(value)) return read_wide_id(value, out, wide);
    out.ids.push_back(text.copy(static_cast<const char*>(PyUnicode_DATA(value)), static_cast<size_t>(PyUnicode_GET_LENGTH(value))));
    return true;
}

// A small str spans two cache lines: its header's start, then its length, state and text.
inline void prefetch_str(PyObject* s) {
    prefetch(s);
    prefetch(reinterpret_cast<const char*>(s) + sizeof(PyASCIIObject));
}

constexpr size_t str_ahead = 8;  // IDs fetched ahead within a list

void prefetch_first_strs(PyObject* list) {
    const Py_ssize_t n = std::min<Py_ssize_t>(PyList_GET_SIZE(list), str_ahead);
    for (Py_ssize_t i = 0; i < n; ++i) prefetch_str(PyList_GET_ITEM(list, i));
}

bool read_list(PyObject* list, ScoreRequest& out, std::vector<IdRange>& ranges, TextArena& text,
               std::deque<std::string>& wide, ScoreBudget& budget) {
    const size_t n = static_cast<size_t>(PyList_GET_SIZE(list));
    const size_t begin = out.ids.size();
    if (n > UINT32_MAX - begin) return false;  // past IdRange's reach: the slow path copes
    if (!budget.take(static_cast<int64_t>(n), 0)) return false;
    PyObject* const* objects = &PyList_GET_ITEM(list, 0);
    for (size_t i = 0; i < n; ++i) {
        if (i + str_ahead < n) prefetch_str(objects[i + str_ahead]);
        if (!read_id(objects[i], out, text, wide)) return false;
        // After the copy, which the str's own size bounds: the text of one list read many
        // times is what must stop at the limit.
        if ((budget.bytes -= id_bytes(PyUnicode_GET_LENGTH(objects[i]))) < 0) return false;
    }
    ranges.push_back(IdRange{static_cast<uint32_t>(begin), static_cast<uint32_t>(out.ids.size())});
    return true;
}

// The keys the items are written with are usually these very objects (interned literals).
PyObject* interned(const char* name) {
    PyObject* s = PyUnicode_InternFromString(name);
    if (s == nullptr) throw py::error_already_set();
    return s;  // kept for the process's life
}

struct ItemLists {
    PyObject* predicted;
    PyObject* ground_truth;
};

// An item: a dict of exactly predicted and ground_truth (that they are lists is checked
// later, once their objects have been fetched).
bool split_item(PyObject* item, ItemLists& out) {
    static PyObject* const predicted_key = interned("predicted");
    static PyObject* const ground_truth_key = interned("ground_truth");
    if (!PyDict_CheckExact(item) || PyDict_GET_SIZE(item) != 2) return false;
    out = ItemLists{nullptr, nullptr};
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t position = 0;
    while (PyDict_Next(item, &position, &key, &value)) {
        if (key == predicted_key || is_key(key, "predicted")) {
            out.predicted = value;
        } else if (key == ground_truth_key || is_key(key, "ground_truth")) {
            out.ground_truth = value;
        } else {
            return false;
        }
    }
    return out.predicted != nullptr && out.ground_truth != nullptr;
}

// The batch, read in one pass that fetches what it will need a few items ahead, stage by
// stage (the item dict, its table, its lists, their arrays, their first IDs): each is a
// cache miss that waits on the one before it, and items are hundreds of nanoseconds apart.
// No Python code runs here, so nothing can change under us.
bool read_items(PyObject* const* item, size_t count, ScoreRequest& out, TextArena& text, std::deque<std::string>& wide,
                ScoreBudget& budget) {
    constexpr size_t dict_ahead = 12, table_ahead = 8, lists_ahead = 4, arrays_ahead = 2, ring = 8;
    ItemLists pending[ring];  // items (i, i + lists_ahead], split
    auto split = [&](size_t i) {
        ItemLists& lists = pending[i % ring];
        if (!split_item(item[i], lists)) return false;
        prefetch(lists.predicted);
        prefetch(lists.ground_truth);
        return true;
    };
    for (size_t i = 0; i < std::min(count, lists_ahead); ++i) {
        if (!split(i)) return false;
    }
    for (size_t i = 0; i < std::min(count, arrays_ahead); ++i) {
        if (!PyList_CheckExact(pending[i].predicted) || !PyList_CheckExact(pending[i].ground_truth)) return false;
    }
    for (size_t i = 0; i < count; ++i) {
        if (i + dict_ahead < count) prefetch(item[i + dict_ahead]);
        if (i + table_ahead < count && PyDict_CheckExact(item[i + table_ahead])) {
            const char* table = reinterpret_cast<const char*>(reinterpret_cast<PyDictObject*>(item[i + table_ahead])->ma_keys);
            prefetch(table);
            prefetch(table + 64);
        }
        if (i + lists_ahead < count && !split(i + lists_ahead)) return false;
        if (i + arrays_ahead < count) {
            const ItemLists& lists = pending[(i + arrays_ahead) % ring];
            if (!PyList_CheckExact(lists.predicted) || !PyList_CheckExact(lists.ground_truth)) return false;
            prefetch(&PyList_GET_ITEM(lists.predicted, 0));
            prefetch(&PyList_GET_ITEM(lists.ground_truth, 0));
        }
        if (i + 1 < count) {
            const ItemLists& lists = pending[(i + 1) % ring];
            prefetch_first_strs(lists.predicted);
            prefetch_first_strs(lists.ground_truth);
        }
        const ItemLists& lists = pending[i % ring];
        if (!read_list(lists.predicted, out, out.predicted, text, wide, budget) ||
            !read_list(lists.ground_truth, out, out.ground_truth, text, wide, budget)) {
            return false;
        }
    }
    return true;
}

}  // namespace

bool read_score_head(PyObject* request, ScoreRequest& out, PyObject*& items_out, TextArena& text, std::deque<std::string>& wide,
                     ScoreBudget& budget) {
    // The request and its members (k, a null included), with room for their keys.
    if (!PyDict_CheckExact(request) || !budget.take(1 + PyDict_GET_SIZE(request), 256)) return false;
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
        if (!PyList_CheckExact(metrics) || PyList_GET_SIZE(metrics) < 1 || PyList_GET_SIZE(metrics) > score_metric_count) return false;
        if (!budget.take(PyList_GET_SIZE(metrics), 16 * PyList_GET_SIZE(metrics))) return false;
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
    items_out = nullptr;
    if (single) {
        if (predicted == nullptr || ground_truth == nullptr) return false;
        if (!PyList_CheckExact(predicted) || !PyList_CheckExact(ground_truth)) return false;
        return read_list(predicted, out, out.predicted, text, wide, budget) &&
               read_list(ground_truth, out, out.ground_truth, text, wide, budget);
    }
    if (!PyList_CheckExact(items) || PyList_GET_SIZE(items) < 1) return false;
    // Each item: its dict and two lists, and their brackets, keys and separators.
    if (!budget.take(3 * PyList_GET_SIZE(items), 48 * PyList_GET_SIZE(items))) return false;
    items_out = items;
    return true;
}

bool read_score_items(PyObject* items, size_t begin, size_t end, ScoreRequest& out, TextArena& text,
                      std::deque<std::string>& wide, ScoreBudget& budget) {
    const size_t count = end - begin;
    out.ids.reserve(out.ids.size() + count * 24);  // a guess; the vector grows past it
    out.predicted.reserve(out.predicted.size() + count);
    out.ground_truth.reserve(out.ground_truth.size() + count);
    return read_items(&PyList_GET_ITEM(items, static_cast<Py_ssize_t>(begin)), count, out, text, wide, budget);
}

}  // namespace evalcore
