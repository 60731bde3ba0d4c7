// _core.evaluate_run(qrels, run, measures, relevant_at_least, exponential, ties_by_score,
//                    missing_zero, threads, block_bytes, max_line_bytes, max_retrieved,
//                    judged_only, qrels_name, run_name, progress, progress_total, max_qrels_rows)
//     -> (query_ids, values bytes, mean, defined, missing query_ids)
//
// A source is a dict ({query: {doc: grade or score}}, or for the run {query: [doc, ...]}),
// a TREC file path (str or bytes, as os.fspath gives it) or a tuple (query_ids list, doc_ids
// list, values buffer of float64) holding a table's columns. Dicts and columns are read
// once here, with the GIL; files are read, parsed and scored with it released. A file that
// cannot be opened or read raises OSError as open() does: errno's subclass, strerror's
// text, and the path object as given for its filename. qrels_name and run_name, when not
// empty, stand for the files' paths in messages (a decompressed copy is named as the original).
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <pybind11/stl.h>
#include <tuple>

#include "common/id_table.hpp"
#include "runs/evaluation.hpp"
#include "runs/trec_bytes.hpp"
#include "progress_calls.hpp"
#include "python_arrow.hpp"
#include "python_emitter.hpp"
#include "python_run_reader.hpp"
#include "python_run_values.hpp"
#include "python_iterable_reader.hpp"
#include "register.hpp"

namespace evalcore {
namespace {

// What a source's views point into, kept alive until the scoring is done.
struct Source {
    TextArena arena;
    std::string text;  // a qrels file
    Records records;
    QueryGroups groups;
    ArrowBatches arrow;  // a table's batches, which the IDs view
};

std::string query_where(std::string_view query) { return "query " + quoted_id(query); }

// A mapping's (key, value) entries in order: an exact dict's read in place, which is safe
// until Python code runs, and pin() (called before any) turns the rest into a tuple this
// reader owns; any other mapping's listed by its items() (Python code) into such a tuple
// at once. Reading snapshots from the start (what the reference does) gives the same.
class EntryReader {
public:
    EntryReader(PyObject* mapping, const char* source, std::string where)
        : dict_(PyDict_CheckExact(mapping) ? mapping : nullptr), source_(source), where_(std::move(where)) {
        if (dict_ != nullptr) return;
        type_ = Py_TYPE(mapping)->tp_name;
        PyObject* listed = PyMapping_Items(mapping);
        if (listed == nullptr) throw py::error_already_set();
        take_snapshot(listed);
    }

    // False at the end. `key` and `value` stay valid until the next call.
    bool next(PyObject*& key, PyObject*& value) {
        if (!snapshot_) {
            if (!PyDict_Next(dict_, &position_, &key, &value)) return false;
            current_key_ = key;
            current_value_ = value;
            ++entry_;
            return true;
        }
        if (index_ >= PyTuple_GET_SIZE(snapshot_.ptr())) return false;
        PyObject* pair = PyTuple_GET_ITEM(snapshot_.ptr(), index_++);
        ++entry_;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            fail(source_, where_ + "the items() of a " + type_ + " must give (key, value) tuples");
        }
        key = PyTuple_GET_ITEM(pair, 0);
        value = PyTuple_GET_ITEM(pair, 1);
        return true;
    }

    // Before Python code runs: the entry `next` gave last is held, and the entries after it
    // go into our tuple.
    void pin() {
        if (snapshot_) return;
        CollectorPause no_collection;  // no finalizer may run while the tuple is built
        held_ = py::make_tuple(py::handle(current_key_), py::handle(current_value_));
        py::list rest;
        PyObject *key = nullptr, *value = nullptr;
        while (PyDict_Next(dict_, &position_, &key, &value)) rest.append(py::make_tuple(py::handle(key), py::handle(value)));
        take_snapshot(rest.release().ptr());
    }

    size_t entry() const { return entry_ - 1; }  // the index of the entry `next` gave last

private:
    void take_snapshot(PyObject* list) {
        PyObject* tuple = PyList_AsTuple(list);
        Py_DECREF(list);
        if (tuple == nullptr) throw py::error_already_set();
        snapshot_ = py::reinterpret_steal<py::object>(tuple);
        index_ = 0;
    }

    PyObject* dict_;
    const char* source_;
    std::string where_;  // prefix of a message about the entries
    std::string type_;
    py::object snapshot_;
    py::object held_;  // the entry being read when pin() was called
    PyObject* current_key_ = nullptr;
    PyObject* current_value_ = nullptr;
    Py_ssize_t position_ = 0, index_ = 0;
    size_t entry_ = 0;
};

void read_dict(PyObject* dict, Source& source, const char* name, bool is_run) {
    QueryGroups& out = source.groups;
    int lists = -1;  // run: 1 when queries give ranked lists, 0 for {doc: score} dicts
    IdTable seen, seen_queries;
    seen_queries.reset(static_cast<size_t>(PyDict_Check(dict) ? PyDict_GET_SIZE(dict) : 16));
    EntryReader queries(dict, name, "");
    PyObject *query = nullptr, *entries = nullptr;
    while (queries.next(query, entries)) {
        const std::string_view id = read_id(query, source.arena, name, [] { return std::string("a query ID"); });
        const auto where_query = [id] { return query_where(id); };
        // Two keys of one text (str subclasses with their own __eq__ or __hash__).
        if (const uint32_t* first = seen_queries.insert(id, static_cast<uint32_t>(queries.entry()))) {
            fail(name, where_query() + " is given twice (entries " + std::to_string(*first) + " and " +
                           std::to_string(queries.entry()) + ")");
        }
        out.query_ids.push_back(id);
        const bool is_list = PyList_Check(entries) || PyTuple_Check(entries);
        if (!PyDict_Check(entries) && !(is_run && is_list)) {
            fail(name, where_query() + (is_run ? " must map to a dict {doc: score} or a list of doc IDs, got "
                                       : " must map to a dict {doc: grade}, got ") + type_name(entries));
        }
        if (is_run) {
            if (lists >= 0 && lists != static_cast<int>(is_list)) {
                fail(name, where_query() + " gives " + (is_list ? "a list" : "a dict") +
                               " but earlier queries give " + (is_list ? "{doc: score} dicts" : "ranked lists") +
                               "; use one form for the whole run");
            }
            lists = is_list;
        }
        if (is_list) {  // stored items, a subclass's too (no Python code runs)
            PyObject* sequence = entries;
            const Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
            PyObject** items = PySequence_Fast_ITEMS(sequence);
            seen.reset(static_cast<size_t>(n));
            for (Py_ssize_t i = 0; i < n; ++i) {
                const std::string_view doc = read_id(items[i], source.arena, name, [&] { return where_query() + ": a document ID"; });
                const uint32_t* first = seen.insert(doc, static_cast<uint32_t>(i));
                if (first != nullptr) {
                    fail(name, where_query() + " lists document " + quoted_id(doc) + " twice (positions " + std::to_string(*first) +
                                   " and " + std::to_string(i) + ")");
                }
                out.doc_ids.push_back(doc);
            }
        } else {
            if (!PyDict_CheckExact(entries)) queries.pin();  // its items() is Python code
            EntryReader docs(entries, name, where_query() + ": ");
            seen.reset(static_cast<size_t>(PyDict_GET_SIZE(entries)));
            PyObject *doc = nullptr, *value = nullptr;
            while (docs.next(doc, value)) {
                const std::string_view doc_id = read_id(doc, source.arena, name, [&] { return where_query() + ": a document ID"; });
                if (const uint32_t* first = seen.insert(doc_id, static_cast<uint32_t>(docs.entry()))) {
                    fail(name, where_query() + " has document " + quoted_id(doc_id) + " twice (entries " +
                                   std::to_string(*first) + " and " + std::to_string(docs.entry()) + ")");
                }
                out.doc_ids.push_back(doc_id);
                if (runs_python(value)) {
                    queries.pin();
                    docs.pin();
                }
                out.values.push_back(read_number(value, name, [&] {
                    return where_query() + ": the " + (is_run ? "score" : "grade") + " of document " + quoted_id(doc_id);
                }));
            }
        }
        out.offsets.push_back(out.doc_ids.size());
    }
}

void read_columns(PyObject* tuple, Source& source, const char* name) {
    if (PyTuple_GET_SIZE(tuple) != 4) throw py::type_error("a table source is (query_ids, doc_ids, values, column names)");
    // The table's names of its three columns, for the messages (as the Arrow reader gives them).
    std::array<std::string, 3> columns;
    const py::tuple names = py::reinterpret_borrow<py::tuple>(PyTuple_GET_ITEM(tuple, 3));
    if (names.size() != 3) throw py::type_error("a table source's column names are 3 str");
    for (size_t k = 0; k < 3; ++k) columns[k] = " (column '" + names[k].cast<std::string>() + "')";
    PyObject* queries = PyTuple_GET_ITEM(tuple, 0);
    PyObject* docs = PyTuple_GET_ITEM(tuple, 1);
    if (!PyList_Check(queries) || !PyList_Check(docs)) throw py::type_error("table columns must be lists");
    const py::buffer_info values = py::reinterpret_borrow<py::buffer>(PyTuple_GET_ITEM(tuple, 2)).request();
    const Py_ssize_t n = PyList_GET_SIZE(queries);
    if (values.format != py::format_descriptor<double>::format() || values.ndim != 1 || values.size != n ||
        PyList_GET_SIZE(docs) != n || (n > 0 && values.strides[0] != static_cast<py::ssize_t>(sizeof(double)))) {
        throw py::type_error("table columns must be equally long, the values a contiguous float64 buffer");
    }
    const double* numbers = static_cast<const double*>(values.ptr);
    Records& r = source.records;
    r.position_name = "row";
    const std::string table = std::string(name) + " table";
    for (Py_ssize_t i = 0; i < n; ++i) {
        const auto row = [i] { return "row " + std::to_string(i); };
        r.add_query(read_id(PyList_GET_ITEM(queries, i), source.arena, table.c_str(),
                            [&] { return row() + ": the query ID" + columns[0]; }));
        r.doc_ids.push_back(read_id(PyList_GET_ITEM(docs, i), source.arena, table.c_str(),
                                    [&] { return row() + ": the document ID" + columns[1]; }));
        if (!std::isfinite(numbers[i])) fail(table.c_str(), row() + ": the value must be a finite number" + columns[2]);
        r.values.push_back(numbers[i]);
        r.lines.push_back(static_cast<uint64_t>(i));
    }
    InputFault fault;
    group_records(r, source.groups, fault);
    if (fault.found()) fail(table.c_str(), "row " + std::to_string(fault.position) + ": " + fault.message);
}

// The batches taken into source.arrow, read and grouped without the GIL.
void read_arrow_batches(Source& source, TrecFormat role, unsigned threads, const ColumnNames& names) {
    const std::string table = role == TrecFormat::qrels ? "qrels table" : "run table";
    py::gil_scoped_release release;
    ArrowRecordReader reader(source.arrow.schema.value, role, table, names);
    reader.set_threads(threads);
    Records& r = source.records;
    r.position_name = "row";
    size_t rows = 0;
    for (const OwnedArray& batch : source.arrow.batches) rows += static_cast<size_t>(std::max<int64_t>(batch.value.length, 0));
    r.reserve(rows);
    r.doc_hashes.reserve(rows);
    for (const OwnedArray& batch : source.arrow.batches) reader.append(batch.value, r, source.arena);
    InputFault fault;
    group_records(r, source.groups, fault, threads);
    if (fault.found()) throw RunInputError(table, 0, "row " + std::to_string(fault.position) + ": " + fault.message);
}

// A table by the Arrow PyCapsule interface (`provider`'s), whole: its batches are taken with
// the GIL (a producer may run Python code), then read and grouped without it. A qrels table
// may hold at most `max_qrels_rows` rows (a stream may never end).
void read_arrow_capsules(PyObject* capsules, Source& source, TrecFormat role, unsigned threads, const ColumnNames& names,
                         uint64_t max_qrels_rows = UINT64_MAX) {
    if (role == TrecFormat::qrels) {
        take_arrow(capsules, "qrels table", source.arrow, max_qrels_rows, "max_qrels_rows");
    } else {
        take_arrow(capsules, "run table", source.arrow);
    }
    read_arrow_batches(source, role, threads, names);
}

void read_arrow(PyObject* provider, Source& source, TrecFormat role, unsigned threads, uint64_t max_qrels_rows = UINT64_MAX) {
    read_arrow_capsules(arrow_capsules(provider).ptr(), source, role, threads, arrow_names(provider), max_qrels_rows);
}

bool is_path(PyObject* o) { return PyUnicode_Check(o) || PyBytes_Check(o); }

// A file path (str or bytes) as the system takes it: os.fsencode's bytes. A NUL in it is
// ValueError("embedded null byte"), as open() gives.
std::string path_of(PyObject* o, const char* role) {
    if (!is_path(o)) throw py::type_error(std::string(role) + " must be a dict, a table or a path (str or bytes)");
    PyObject* encoded = nullptr;
    if (PyUnicode_FSConverter(o, &encoded) == 0) throw py::error_already_set();
    const py::bytes bytes = py::reinterpret_steal<py::bytes>(encoded);
    return std::string(PyBytes_AS_STRING(encoded), static_cast<size_t>(PyBytes_GET_SIZE(encoded)));
}

// Sets `error` as Python raises a file fault: OSError(errno, text, filename), which the
// errno turns into its subclass (FileNotFoundError, IsADirectoryError, ...).
void set_file_error(const FileError& error, PyObject* filename) {
    if (error.reason().empty()) {
        errno = error.error();
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, filename);  // strerror's text, as open()
        return;
    }
    PyObject* exception = PyObject_CallFunction(PyExc_OSError, "isO", error.error(), error.reason().c_str(), filename);
    if (exception == nullptr) return;  // that error is set instead
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception)), exception);
    Py_DECREF(exception);
}

[[noreturn]] void raise_file_error(const FileError& error, PyObject* filename) {
    set_file_error(error, filename);
    throw py::error_already_set();
}

// Runs `work` (which may release the GIL); a FileError from it is raised with `filename`.
template <class Work>
void with_file(PyObject* filename, Work&& work) {
    try {
        work();
    } catch (const FileError& error) {
        raise_file_error(error, filename);
    }
}

// `name`: what messages call the file (empty: its path).
// Parsed on `threads` threads, in parts of at least 1 MiB (less when `block_bytes` is: tests
// make it tiny).
void read_qrels_file(PyObject* file, Source& source, unsigned threads, size_t block_bytes, size_t max_line_bytes,
                     const std::string& name, Progress* progress) {
    const std::string path = path_of(file, "qrels");
    with_file(file, [&] {
        py::gil_scoped_release release;
        source.text = read_text_file(path, max_line_bytes, progress);
        TextReading how;
        how.max_line_bytes = max_line_bytes;
        how.threads = threads;
        how.smallest_part = std::min(how.smallest_part, block_bytes);
        how.lines = false;  // needed for messages only: a fault is read again with them
        read_trec_text(source.text, TrecFormat::qrels, name.empty() ? path : name, source.groups, how);
    });
}

// Each measure as (kind, cutoff, relevance level or NaN, [(grade, gain), ...], parameter, [number, ...]).
std::vector<Measure> read_measures(const py::list& measures) {
    std::vector<Measure> out;
    for (py::handle item : measures) {
        const auto fields = item.cast<std::tuple<int, int64_t, double, std::vector<std::pair<double, double>>, double, std::vector<double>>>();
        const int kind = std::get<0>(fields);
        if (kind < 0 || kind > static_cast<int>(MeasureKind::last) || std::get<1>(fields) < 0) {
            throw py::value_error("invalid measure");
        }
        out.push_back(Measure{static_cast<MeasureKind>(kind), std::get<1>(fields), std::get<2>(fields), std::get<3>(fields),
                              std::get<4>(fields), std::get<5>(fields)});
    }
    return out;
}

// A run table: streamed batch by batch when it is one stream grouped by query (memory then
// holds a batch at a time); else, or when it turns out not to be grouped, read whole: a
// table asked for again, a stream read once from the batches it kept (up to
// max_stream_rows rows; a longer one is refused with what the streaming found).
RunResults evaluate_arrow_run(const Source& judged, PyObject* provider, const std::vector<Measure>& measures,
                              const RunOptions& options, unsigned threads) {
    const std::string table = "run table";
    py::object capsules = arrow_capsules(provider);
    const bool one_shot = arrow_one_shot(provider);
    const uint64_t kept_rows = arrow_kept_rows(provider);
    RunResults results;
    Source ranked;
    if (!PyTuple_Check(capsules.ptr())) {
        ArrowStreamRecords stream(capsules.ptr(), table, TrecFormat::run, threads, one_shot, kept_rows, arrow_names(provider));
        RunScorer::Stop stop;
        bool streamed;
        {
            py::gil_scoped_release release;
            RunScorer scorer(judged.groups, measures, options, threads);
            streamed = scorer.add_run_batches(stream, stop);
            if (streamed) results = scorer.finish();
        }
        if (streamed) return results;
        if (one_shot) {
            stream.take_rest(ranked.arrow, stop.message + (stop.fault ? "" : stream_not_kept(kept_rows)));
            read_arrow_batches(ranked, TrecFormat::run, threads, arrow_names(provider));
        } else {
            read_arrow(provider, ranked, TrecFormat::run, threads);  // read again, whole
        }
    } else {
        read_arrow_capsules(capsules.ptr(), ranked, TrecFormat::run, threads, arrow_names(provider));
    }
    py::gil_scoped_release release;
    RunScorer scorer(judged.groups, measures, options, threads);
    scorer.add_groups(ranked.groups);
    return scorer.finish();
}

// Records grouped into source.groups; a fault is `table`'s RunInputError on its row.
void group_rows(Source& source, Records& records, const std::string& table, unsigned threads) {
    InputFault fault;
    group_records(records, source.groups, fault, threads);
    if (fault.found()) throw RunInputError(table, 0, "row " + std::to_string(fault.position) + ": " + fault.message);
}

// A run given as an iterable of records: streamed batch by batch while it is grouped by
// query; else read whole from the rows it kept and the rest (up to max_stream_rows rows).
RunResults evaluate_iterable_run(const Source& judged, PyObject* source, const std::vector<Measure>& measures,
                                 const RunOptions& options, unsigned threads) {
    IterableRecords stream(source, TrecFormat::run);
    RunScorer::Stop stop;
    RunResults results;
    {
        py::gil_scoped_release release;
        RunScorer scorer(judged.groups, measures, options, threads);
        if (scorer.add_run_batches(stream, stop)) results = scorer.finish();
        else stop.message += stop.fault ? "" : stream_not_kept(stream.kept_rows());
    }
    if (stop.message.empty()) return results;
    Source ranked;
    group_rows(ranked, stream.rest(stop.message), stream.table(), threads);
    py::gil_scoped_release release;
    RunScorer scorer(judged.groups, measures, options, threads);
    scorer.add_groups(ranked.groups);
    return scorer.finish();
}

// The general path: any source. The inputs are freed before the results become Python
// objects (with large qrels both would not fit together).
RunResults evaluate_sources(py::handle qrels, py::handle run, const std::vector<Measure>& measures,
                            const RunOptions& options, unsigned threads, size_t block_bytes,
                            size_t max_line_bytes, uint64_t max_qrels_rows, const std::string& qrels_name,
                            const std::string& run_name, Progress* progress) {
    Source judged, ranked;
    std::unique_ptr<IterableRecords> judged_records;  // what the qrels' views point into
    if (is_record_iterable(qrels.ptr())) {
        judged_records = std::make_unique<IterableRecords>(qrels.ptr(), TrecFormat::qrels);
        group_rows(judged, judged_records->rest(std::string(), true), judged_records->table(), threads);
    } else if (PyDict_Check(qrels.ptr())) {
        read_dict(qrels.ptr(), judged, "qrels", false);
    } else if (is_arrow_provider(qrels.ptr())) {
        read_arrow(qrels.ptr(), judged, TrecFormat::qrels, threads, max_qrels_rows);
    } else if (PyTuple_Check(qrels.ptr())) {
        read_columns(qrels.ptr(), judged, "qrels");
    } else {
        read_qrels_file(qrels.ptr(), judged, threads, block_bytes, max_line_bytes, qrels_name, progress);
    }
    const bool run_file = is_path(run.ptr());
    if (is_arrow_provider(run.ptr())) return evaluate_arrow_run(judged, run.ptr(), measures, options, threads);
    if (is_record_iterable(run.ptr())) return evaluate_iterable_run(judged, run.ptr(), measures, options, threads);
    if (PyDict_Check(run.ptr())) {
        read_dict(run.ptr(), ranked, "run", true);
    } else if (PyTuple_Check(run.ptr())) {
        read_columns(run.ptr(), ranked, "run");
    } else if (!run_file) {
        throw py::type_error("run must be a dict, a path or a table");
    }
    const std::string run_path = run_file ? path_of(run.ptr(), "run") : std::string();
    RunResults results;
    with_file(run.ptr(), [&] {
        py::gil_scoped_release release;
        RunScorer scorer(judged.groups, measures, options, threads);
        scorer.set_progress(progress);
        if (run_file) {
            scorer.add_run_file(run_path, block_bytes, max_line_bytes, run_name);
        } else {
            scorer.add_groups(ranked.groups);
        }
        results = scorer.finish();
    });
    return results;
}

// Query IDs as Python str (they were checked to be UTF-8 when read).
py::list id_list(const std::vector<std::string_view>& query_ids) {
    py::list ids(query_ids.size());
    for (size_t q = 0; q < query_ids.size(); ++q) {
        const std::string_view id = query_ids[q];
        PyObject* text = PyUnicode_DecodeUTF8(id.data(), static_cast<Py_ssize_t>(id.size()), "strict");
        if (text == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(ids.ptr(), static_cast<Py_ssize_t>(q), text);
    }
    return ids;
}

// The caller's own key objects (borrowed references, taken here).
py::list key_list(const std::vector<PyObject*>& keys) {
    py::list ids(keys.size());
    for (size_t q = 0; q < keys.size(); ++q) {
        Py_INCREF(keys[q]);
        PyList_SET_ITEM(ids.ptr(), static_cast<Py_ssize_t>(q), keys[q]);
    }
    return ids;
}

// (query_ids, values as float64 bytes, mean with None where undefined, defined counts, missing query_ids)
py::tuple results_tuple(const py::list& ids, const std::vector<double>& values, const std::vector<double>& mean,
                        const std::vector<int64_t>& defined, const py::list& missing) {
    py::bytes data(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
    py::list means, counts;
    for (size_t i = 0; i < mean.size(); ++i) {
        means.append(std::isnan(mean[i]) ? py::object(py::none()) : py::object(py::float_(mean[i])));
        counts.append(defined[i]);
    }
    return py::make_tuple(ids, data, means, counts, missing);
}

}  // namespace

void register_runs(py::module_& m) {
    static py::handle run_input_error = py::object(py::module_::import("evalcore.errors").attr("RunInputError")).release();
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const RunInputError& e) {
            // The source is a file path as the OS gave it (bytes); the detail quotes file
            // bytes, which need not be UTF-8.
            PyObject* source = PyUnicode_DecodeFSDefaultAndSize(e.source().data(), static_cast<Py_ssize_t>(e.source().size()));
            if (source == nullptr) throw py::error_already_set();
            const py::str source_text = py::reinterpret_steal<py::str>(source);
            PyObject* detail = PyUnicode_DecodeUTF8(e.detail().data(), static_cast<Py_ssize_t>(e.detail().size()), "replace");
            if (detail == nullptr) throw py::error_already_set();
            const py::str detail_text = py::reinterpret_steal<py::str>(detail);
            py::object line = e.line() != 0 ? py::object(py::int_(e.line())) : py::object(py::none());
            py::object error = run_input_error(detail_text, source_text, line);
            PyErr_SetObject(run_input_error.ptr(), error.ptr());
        } catch (const FileError& e) {
            // Not reached through evaluate_run (it raises with the caller's path object);
            // any other caller gets the path as str.
            PyObject* path = PyUnicode_DecodeFSDefaultAndSize(e.path().data(), static_cast<Py_ssize_t>(e.path().size()));
            if (path == nullptr) throw py::error_already_set();
            const py::object filename = py::reinterpret_steal<py::object>(path);
            set_file_error(e, filename.ptr());
        }
    });
    m.def(
        "evaluate_run",
        [](py::handle qrels, py::handle run, const py::list& measure_list, double relevant_at_least, bool exponential,
           bool ties_by_score, bool missing_zero, unsigned threads, size_t block_bytes, size_t max_line_bytes,
           int64_t max_retrieved, bool judged_only, const std::string& qrels_name, const std::string& run_name,
           py::handle progress_callback, uint64_t progress_total, uint64_t max_qrels_rows, int tie_rule) {
            const std::vector<Measure> measures = read_measures(measure_list);
            if (max_retrieved < -1) throw py::value_error("max_retrieved must be >= 0, or -1 for no limit");
            // issue 25 item 3: 0 by ID (or input order), 1 average, 2 optimistic, 3 pessimistic
            if (tie_rule < 0 || tie_rule > static_cast<int>(TieRule::pessimistic)) {
                throw py::value_error("tie_rule must be 0 (by ID), 1 (average), 2 (optimistic) or 3 (pessimistic)");
            }
            RunOptions options{relevant_at_least, exponential, ties_by_score, missing_zero, max_retrieved, judged_only};
            options.tie_rule = static_cast<TieRule>(tie_rule);
            Progress state;
            state.expect(progress_total);
            return with_progress(progress_callback, state, [&](Progress* progress) {
                DictRunResults fast;
                if (evaluate_run_dicts(qrels.ptr(), run.ptr(), measures, options, threads, fast)) {
                    std::vector<double> mean;
                    std::vector<int64_t> defined;
                    compute_means(fast.values, measures.size(), mean, defined);
                    return results_tuple(key_list(fast.query_ids), fast.values, mean, defined, key_list(fast.missing_ids));
                }
                RunResults results = evaluate_sources(qrels, run, measures, options, threads, block_bytes, max_line_bytes,
                                                      max_qrels_rows, qrels_name, run_name, progress);
                return results_tuple(id_list(results.query_ids), results.values, results.mean, results.defined,
                                     id_list(results.missing_ids));
            });
        },
        py::arg("qrels"), py::arg("run"), py::arg("measures"), py::arg("relevant_at_least"), py::arg("exponential"),
        py::arg("ties_by_score"), py::arg("missing_zero"), py::arg("threads"), py::arg("block_bytes") = size_t{16} << 20,
        py::arg("max_line_bytes") = default_max_line_bytes, py::arg("max_retrieved") = int64_t{-1},
        py::arg("judged_only") = false, py::arg("qrels_name") = std::string(), py::arg("run_name") = std::string(),
        py::arg("progress") = py::none(), py::arg("progress_total") = uint64_t{0},
        py::arg("max_qrels_rows") = UINT64_MAX, py::arg("tie_rule") = 0,
        "Evaluate a whole run; use evalcore.evaluate_run.");
    m.def(
        "_trec_bytes",
        [](const py::object& baseline) {
            if (!baseline.is_none()) use_baseline_bytes(baseline.cast<bool>());
            return std::string(trec_bytes_code());
        },
        py::arg("baseline") = py::none(),
        "The code the TREC parsers take: 'avx2' (where the processor runs it), 'sse2' (the x86-64 "
        "baseline's) or 'portable' (word arithmetic). baseline=True keeps them to the baseline's code, "
        "False lets them take the wide one again (tests compare the two).");
}

}  // namespace evalcore
