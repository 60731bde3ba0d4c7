#include "python_run_reader.hpp"

#include <atomic>
#include <cmath>
#include <deque>
#include <string>
#include <string_view>

#include "common/id_table.hpp"
#include "common/parallel.hpp"
#include "python_str_view.hpp"

namespace evalcore {
namespace {

// UTF-8 text of non-ASCII IDs, encoded by the thread that reads them (a Python str caches
// its own UTF-8 only under the GIL's protection, so it is not asked to).
class EncodedTexts {
public:
    void clear() { used_ = 0; }
    std::string& next() {
        if (used_ == texts_.size()) texts_.emplace_back();
        std::string& text = texts_[used_++];
        text.clear();
        return text;
    }

private:
    std::deque<std::string> texts_;  // a deque: views into earlier texts stay valid
    size_t used_ = 0;
};

// The str's cached hash (computed when it became a dict key), or UINT64_MAX if none is
// cached. Equal strings have equal hashes, whatever their kind or object.
uint64_t cached_hash(PyObject* o) {
    const Py_hash_t hash = reinterpret_cast<PyASCIIObject*>(o)->hash;
    return hash == -1 ? UINT64_MAX : static_cast<uint64_t>(hash);
}

// A str's text as UTF-8 without touching the object; false for anything else, for a lone
// surrogate and for an empty ID.
bool read_text(PyObject* o, EncodedTexts& encoded, std::string_view& out) {
    if (!is_ready_str(o)) return false;
    const size_t n = static_cast<size_t>(PyUnicode_GET_LENGTH(o));
    if (n == 0) return false;
    if (PyUnicode_IS_ASCII(o)) {
        out = std::string_view(static_cast<const char*>(PyUnicode_DATA(o)), n);
        return true;
    }
    std::string& text = encoded.next();
    if (!encode_str_utf8(o, text)) return false;
    out = text;
    return true;
}

// An exact float (finite) or an exact int that a double holds exactly; nothing else.
bool read_value(PyObject* o, double& value) {
    if (PyFloat_CheckExact(o)) {
        value = PyFloat_AS_DOUBLE(o);
        return std::isfinite(value);
    }
    if (!PyLong_CheckExact(o)) return false;
    int overflow = 0;
    const long long integer = PyLong_AsLongLongAndOverflow(o, &overflow);  // cannot raise for an exact int
    constexpr long long exact = 1LL << 53;
    if (overflow != 0 || integer > exact || integer < -exact) return false;
    value = static_cast<double>(integer);
    return true;
}

struct Task {
    PyObject* judged = nullptr;  // the query's {doc: grade} dict, if any
    PyObject* ranked = nullptr;  // the query's run entries, if any
    bool scored = false;         // has judgments and is in the run (or missing = zero)
};

struct Reader {
    EncodedTexts encoded;
    IdTable seen;
    std::vector<std::string_view> judged_docs, docs;
    std::vector<double> grades, scores;
    // Python's cached str hashes: the scorer's hash tables use them instead of hashing
    // again, when every ID of the query has one (dict keys always do).
    std::vector<uint64_t> judged_hashes, doc_hashes;
    bool all_hashed = true;

    // {doc: number} into docs, numbers and their hashes (judgments or a scored ranking).
    bool read_entries(PyObject* dict, std::vector<std::string_view>& ids, std::vector<double>& numbers,
                      std::vector<uint64_t>& hashes) {
        ids.clear();
        numbers.clear();
        hashes.clear();
        PyObject *key = nullptr, *value = nullptr;
        Py_ssize_t position = 0;
        while (PyDict_Next(dict, &position, &key, &value)) {
            std::string_view id;
            double number;
            if (!read_text(key, encoded, id) || !read_value(value, number)) return false;
            ids.push_back(id);
            numbers.push_back(number);
            hashes.push_back(cached_hash(key));
            all_hashed = all_hashed && hashes.back() != UINT64_MAX;
        }
        return true;
    }

    bool read_judgments(PyObject* dict) {
        all_hashed = true;
        return read_entries(dict, judged_docs, grades, judged_hashes);
    }

    bool read_ranking(PyObject* entries) {
        if (PyDict_CheckExact(entries)) return read_entries(entries, docs, scores, doc_hashes);
        docs.clear();
        scores.clear();
        doc_hashes.clear();
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(entries);
        PyObject** items = PySequence_Fast_ITEMS(entries);
        seen.reset(static_cast<size_t>(n));
        all_hashed = false;  // list items need not have hashes cached
        for (Py_ssize_t i = 0; i < n; ++i) {
            std::string_view doc;
            if (!read_text(items[i], encoded, doc) || seen.insert(doc, 0) != nullptr) return false;
            docs.push_back(doc);
        }
        return true;
    }
};

}  // namespace

bool evaluate_run_dicts(PyObject* qrels, PyObject* run, const std::vector<Measure>& measures, const RunOptions& options,
                        unsigned threads, DictRunResults& out) {
#ifdef Py_GIL_DISABLED
    // Without a GIL, holding it would not keep other threads from changing the dicts.
    (void)qrels, (void)run, (void)measures, (void)options, (void)threads, (void)out;
    return false;
#else
    if (!PyDict_CheckExact(qrels) || !PyDict_CheckExact(run)) return false;
    // The outer dicts, on this thread: query IDs, and one task per query.
    EncodedTexts query_texts;
    IdTable judged_index;
    judged_index.reset(static_cast<size_t>(PyDict_GET_SIZE(qrels)));
    std::vector<Task> tasks;
    std::vector<PyObject*> judged_dicts, judged_keys;
    std::vector<uint8_t> judged_in_run;
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t position = 0;
    while (PyDict_Next(qrels, &position, &key, &value)) {
        std::string_view id;  // exact str: these keys become the result's query IDs
        if (!PyUnicode_CheckExact(key) || !read_text(key, query_texts, id) || !PyDict_CheckExact(value)) return false;
        judged_index.insert(id, static_cast<uint32_t>(judged_dicts.size()));
        judged_dicts.push_back(value);
        judged_keys.push_back(key);
    }
    judged_in_run.assign(judged_dicts.size(), 0);
    tasks.reserve(static_cast<size_t>(PyDict_GET_SIZE(run)) + judged_dicts.size());
    std::vector<PyObject*> task_keys;
    int lists = -1;
    position = 0;
    while (PyDict_Next(run, &position, &key, &value)) {
        std::string_view id;
        if (!PyUnicode_CheckExact(key) || !read_text(key, query_texts, id)) return false;
        const bool is_list = PyList_CheckExact(value) || PyTuple_CheckExact(value);
        if (!is_list && !PyDict_CheckExact(value)) return false;
        if (lists >= 0 && lists != static_cast<int>(is_list)) return false;
        lists = is_list;
        Task task;
        task.ranked = value;
        if (const uint32_t* j = judged_index.find(id)) {
            task.judged = judged_dicts[*j];
            judged_in_run[*j] = 1;
            task.scored = PyDict_GET_SIZE(task.judged) > 0;
        }
        tasks.push_back(task);
        task_keys.push_back(key);
    }
    // Judgments of queries the run lacks are read too (their faults count), and scored as
    // empty rankings when missing = zero.
    for (size_t j = 0; j < judged_dicts.size(); ++j) {
        if (judged_in_run[j]) continue;
        Task task;
        task.judged = judged_dicts[j];
        task.scored = options.missing_zero && PyDict_GET_SIZE(task.judged) > 0;
        tasks.push_back(task);
        task_keys.push_back(judged_keys[j]);
    }

    // The inner dicts, on every thread.
    const size_t width = measures.size();
    std::vector<double> values(tasks.size() * width);
    std::atomic<size_t> next{0};
    std::atomic<bool> irregular{false};
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((tasks.size() + 127) / 128)));
    on_threads(threads, [&](unsigned) {
        Reader reader;
        QueryScorer scorer(measures, options);
        constexpr size_t chunk = 32;
        for (size_t begin; !irregular.load(std::memory_order_relaxed) && (begin = next.fetch_add(chunk)) < tasks.size();) {
            for (size_t t = begin; t < std::min(tasks.size(), begin + chunk); ++t) {
                const Task& task = tasks[t];
                reader.encoded.clear();
                const bool ok = (task.judged == nullptr || reader.read_judgments(task.judged)) &&
                                (task.ranked == nullptr || reader.read_ranking(task.ranked));
                if (!ok) {
                    irregular = true;
                    return;
                }
                if (!task.scored) continue;
                if (task.ranked == nullptr) {
                    reader.docs.clear();
                    reader.scores.clear();
                }
                const bool has_scores = task.ranked != nullptr && PyDict_CheckExact(task.ranked);
                QueryData query{reader.judged_docs.data(), reader.grades.data(), reader.judged_docs.size(),
                                reader.docs.data(),        has_scores ? reader.scores.data() : nullptr,
                                reader.docs.size()};
                if (reader.all_hashed) {
                    query.judged_hashes = reader.judged_hashes.data();
                    query.doc_hashes = reader.doc_hashes.data();
                }
                scorer.score(query, values.data() + t * width);
            }
        }
    });
    if (irregular) return false;
    for (size_t j = 0; j < judged_dicts.size(); ++j) {
        if (!judged_in_run[j] && PyDict_GET_SIZE(judged_dicts[j]) > 0) out.missing_ids.push_back(judged_keys[j]);
    }
    for (size_t t = 0; t < tasks.size(); ++t) {
        if (!tasks[t].scored) continue;
        out.query_ids.push_back(task_keys[t]);
        out.values.insert(out.values.end(), values.begin() + static_cast<ptrdiff_t>(t * width),
                          values.begin() + static_cast<ptrdiff_t>((t + 1) * width));
    }
    return true;
#endif
}

}  // namespace evalcore
