// evaluate_run with subtopic judgments (qrels_format="subtopics"; diversity/diversity_measures.hpp).
// The qrels: an ndeval file path (bytes), a dict {query: {subtopic: {doc: grade}}} read here
// when it is in the exact form (None returned otherwise, before the run is read), or four
// lists (query, subtopic, document IDs as str, grades as float) that runs/diversity.py made
// from any other dict, a table or an iterable and checked. The run: a TREC run file path (bytes), or an exact dict {query: {doc: score}}
// (str IDs, float or int scores) read here once, its IDs copied, before the GIL is released.
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <vector>

#include <pybind11/stl.h>

#include "common/text_arena.hpp"
#include "common/parallel.hpp"
#include "diversity/diversity_measures.hpp"
#include "diversity/reading_buffers.hpp"
#include "register.hpp"
#include "runs/evaluation.hpp"

namespace evalcore {

namespace {

// (kind, cutoff, level, gains, parameter, parameters) tuples, as MeasureSpec.native() gives
// them: diversity kinds only, parameters (alpha, beta, judged_only).
std::vector<Measure> diversity_measures(const py::list& measures) {
    std::vector<Measure> out;
    for (py::handle item : measures) {
        const auto fields = item.cast<std::tuple<int, int64_t, double, std::vector<std::pair<double, double>>, double, std::vector<double>>>();
        const int kind = std::get<0>(fields);
        const std::vector<double>& parameters = std::get<5>(fields);
        if (kind < 0 || kind > static_cast<int>(MeasureKind::last) || !is_diversity_kind(static_cast<MeasureKind>(kind)) ||
            std::get<1>(fields) < 0 || parameters.size() != 3 || !(parameters[0] >= 0 && parameters[0] <= 1) ||
            !(parameters[1] >= 0 && parameters[1] <= 1)) {
            throw py::value_error("invalid diversity measure");
        }
        out.push_back(Measure{static_cast<MeasureKind>(kind), std::get<1>(fields), std::get<2>(fields), {}, 0.0, parameters});
    }
    return out;
}

std::string_view utf8(PyObject* text, TextArena& arena) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(text, &size);
    if (data == nullptr) throw py::error_already_set();
    return arena.copy(data, static_cast<size_t>(size));
}

// The process's kept reading buffers (never destroyed: a call may still be running on
// another thread while the interpreter exits).
KeptReadingBuffers& kept_reading_buffers() {
    static KeptReadingBuffers* const kept = new KeptReadingBuffers();
    return *kept;
}

std::string repr(PyObject* value) { return py::repr(py::handle(value)).cast<std::string>(); }

[[noreturn]] void refuse(const std::string& message) { throw py::type_error("run: " + message); }

// The run dict, as the reference's read_run_dict reads it (the same checks and messages).
void read_run_dict(PyObject* run, TextArena& arena, QueryGroups& out) {
    out.clear();  // kept buffers keep their columns' size (reading_buffers.hpp): appended to here
    PyObject *query = nullptr, *docs = nullptr;
    Py_ssize_t position = 0;
    while (PyDict_Next(run, &position, &query, &docs)) {
        if (!PyUnicode_CheckExact(query)) refuse(std::string("a query ID must be a str, got ") + Py_TYPE(query)->tp_name);
        if (!PyDict_CheckExact(docs)) {
            refuse("query " + repr(query) + " must map document IDs to scores ({doc: score}), got " + Py_TYPE(docs)->tp_name);
        }
        out.query_ids.push_back(utf8(query, arena));
        PyObject *doc = nullptr, *score = nullptr;
        Py_ssize_t inner = 0;
        while (PyDict_Next(docs, &inner, &doc, &score)) {
            if (!PyUnicode_CheckExact(doc)) {
                refuse("query " + repr(query) + ": a document ID must be a str, got " + Py_TYPE(doc)->tp_name);
            }
            double value = 0;
            if (PyFloat_CheckExact(score)) {
                value = PyFloat_AS_DOUBLE(score);
            } else if (PyLong_CheckExact(score)) {
                value = PyLong_AsDouble(score);
                if (value == -1.0 && PyErr_Occurred()) throw py::error_already_set();
            } else {
                refuse("query " + repr(query) + " document " + repr(doc) + ": the score must be a float or int, got " +
                       Py_TYPE(score)->tp_name);
            }
            if (!std::isfinite(value)) {
                throw py::value_error("run: query " + repr(query) + " document " + repr(doc) +
                                      ": the score must be finite, got " + repr(score));
            }
            out.doc_ids.push_back(utf8(doc, arena));
            out.values.push_back(value);
        }
        out.offsets.push_back(out.doc_ids.size());
    }
}

// A qrels dict {query: {subtopic: {doc: grade}}} of exact dicts, str keys and finite int or
// float grades (not bool), read as the rows runs/diversity.py would make of it, in dict
// order. Only CPython's own exact types are read, so no Python code runs while the borrowed
// references are held; anything else (subclasses, other IDs or grades, non-finite grades,
// IDs without UTF-8) returns false with `out` to be discarded: runs/diversity.py then reads
// the dict in Python, with its checks and messages. Keys are unique, so are the rows.
bool read_judgment_dict(PyObject* qrels, TextArena& arena, SubtopicInput& out) {
    // An ID's UTF-8, copied once per dict it keys (a query's and a subtopic's text, not once
    // per judgment); false for a lone surrogate: the columns' reader raises as before.
    const auto text_of = [&arena](PyObject* id, std::string_view& view) {
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(id, &size);
        if (data == nullptr) {
            PyErr_Clear();
            return false;
        }
        view = arena.copy(data, static_cast<size_t>(size));
        return true;
    };
    PyObject *query = nullptr, *subtopics = nullptr;
    Py_ssize_t at_query = 0;
    while (PyDict_Next(qrels, &at_query, &query, &subtopics)) {
        if (!PyUnicode_CheckExact(query) || !PyDict_CheckExact(subtopics)) return false;
        std::string_view query_text;
        bool query_read = false;
        PyObject *subtopic = nullptr, *docs = nullptr;
        Py_ssize_t at_subtopic = 0;
        while (PyDict_Next(subtopics, &at_subtopic, &subtopic, &docs)) {
            if (!PyUnicode_CheckExact(subtopic) || !PyDict_CheckExact(docs)) return false;
            std::string_view subtopic_text;
            bool subtopic_read = false;
            PyObject *doc = nullptr, *grade = nullptr;
            Py_ssize_t at_doc = 0;
            while (PyDict_Next(docs, &at_doc, &doc, &grade)) {
                if (!PyUnicode_CheckExact(doc)) return false;
                double value = 0;
                if (PyFloat_CheckExact(grade)) {
                    value = PyFloat_AS_DOUBLE(grade);
                } else if (PyLong_CheckExact(grade)) {
                    value = PyLong_AsDouble(grade);
                    if (value == -1.0 && PyErr_Occurred()) {
                        PyErr_Clear();  // too large for a float: Python's reading says so
                        return false;
                    }
                } else {
                    return false;
                }
                if (!std::isfinite(value)) return false;
                std::string_view doc_text;
                // (the query's and subtopic's text taken with their first judgment, as before)
                if ((!query_read && !text_of(query, query_text)) || (!subtopic_read && !text_of(subtopic, subtopic_text)) ||
                    !text_of(doc, doc_text)) {
                    return false;
                }
                query_read = subtopic_read = true;
                out.add(query_text, subtopic_text, doc_text, value);
            }
        }
    }
    return true;
}

// The four checked columns runs/diversity.py hands over.
void read_judgment_columns(const py::tuple& columns, TextArena& arena, SubtopicInput& out) {
    if (columns.size() != 4) throw py::value_error("subtopic qrels columns: 4 lists expected");
    const auto queries = columns[0].cast<py::list>(), subtopics = columns[1].cast<py::list>(),
               docs = columns[2].cast<py::list>();
    const auto grades = columns[3].cast<std::vector<double>>();
    const size_t rows = grades.size();
    if (queries.size() != rows || subtopics.size() != rows || docs.size() != rows) {
        throw py::value_error("subtopic qrels columns: lists of different lengths");
    }
    for (size_t i = 0; i < rows; ++i) {
        PyObject* fields[3] = {queries[i].ptr(), subtopics[i].ptr(), docs[i].ptr()};
        for (PyObject* field : fields) {
            if (!PyUnicode_CheckExact(field)) throw py::type_error("subtopic qrels columns: IDs must be str");
        }
        out.add(utf8(fields[0], arena), utf8(fields[1], arena), utf8(fields[2], arena), grades[i]);
    }
}

}  // namespace

void register_diversity(py::module_& m) {
    m.def(
        "evaluate_run_diversity",
        [](const py::object& qrels, const py::object& run, const py::list& measure_list, double relevant_at_least,
           bool ties_by_score, bool missing_zero, size_t max_line_bytes, int64_t max_retrieved, bool judged_only,
           const std::string& qrels_name, const std::string& run_name, unsigned threads) {
            const std::vector<Measure> measures = diversity_measures(measure_list);
            if (max_retrieved < -1) throw py::value_error("max_retrieved must be >= 0, or -1 for no limit");
            const RunOptions options{relevant_at_least, false, ties_by_score, missing_zero, max_retrieved, judged_only};
            TextArena arena;
            SubtopicInput columns;
            const bool qrels_file = py::isinstance<py::bytes>(qrels), run_file = py::isinstance<py::bytes>(run);
            if (PyDict_CheckExact(qrels.ptr())) {
                // None: not in the exact form; runs/diversity.py reads it and calls again.
                if (!read_judgment_dict(qrels.ptr(), arena, columns)) return py::object(py::none());
            } else if (!qrels_file) {
                read_judgment_columns(qrels.cast<py::tuple>(), arena, columns);
            }
            // The reading's storage, kept from the last call (diversity/reading_buffers.hpp).
            std::unique_ptr<ReadingBuffers> buffers = kept_reading_buffers().take();
            QueryGroups& groups = buffers->run;
            if (!run_file) {
                if (!PyDict_CheckExact(run.ptr())) throw py::type_error("run: a dict or a file path expected");
                read_run_dict(run.ptr(), arena, groups);
            }
            const std::string qrels_path = qrels_file ? qrels.cast<std::string>() : std::string();
            const std::string run_path = run_file ? run.cast<std::string>() : std::string();
            RunResults results;
            {
                py::gil_scoped_release release;
                SubtopicJudgments& judgments = buffers->judgments;
                std::string &judged_text = buffers->judged_text, &run_text = buffers->run_text;
                // The run file is read on a second thread while the qrels are read here; a
                // fault in the qrels is raised first, as when they are read one after the other.
                // With two threads or more, the one done first helps the other with its parts
                // (common/parallel.hpp's SharedParts: the run is most of the reading, and on
                // two cores the qrels' thread would otherwise wait for it); each closes its
                // offers before it helps, so neither waits for the other.
                const unsigned budget = std::max(1u, threads);
                SharedParts run_parts, qrels_parts;
                const bool sharing = run_file && budget >= 2;
                std::exception_ptr run_fault, qrels_fault;
                const auto read_run = [&]() {
                    try {
                        const CloseParts closing(sharing ? &run_parts : nullptr);
                        read_text_file_into(run_path, run_text, max_line_bytes);
                        TextReading how;
                        how.max_line_bytes = max_line_bytes;
                        how.doc_hashes = true;  // taken while each line is in cache: the scorer's lookups use them
                        how.lines = false;      // not kept (a fault's line is found by reading again)
                        how.rank_order = true;  // whether each ranking needs sorting, said line by line
                        how.threads = budget;
                        if (sharing) {
                            how.share = &run_parts;
                            how.smallest_part = size_t{1} << 18;  // parts to share out: 16 of a 4 MiB run
                        }
                        read_trec_text(run_text, TrecFormat::run, run_name.empty() ? run_path : run_name, groups, how);
                    } catch (...) {
                        run_fault = std::current_exception();
                    }
                    if (sharing) qrels_parts.help();
                };
                std::thread run_reader;
                if (run_file) {
                    try {
                        run_reader = std::thread(read_run);
                    } catch (const std::system_error&) {  // no thread to be had (a process limit):
                        run_parts.close();                // nothing to help with: the qrels' parts
                        qrels_parts.close();              // run on this thread alone
                        read_run();                       // here, before the qrels; faults as above
                    } catch (const std::bad_alloc&) {
                        run_parts.close();
                        qrels_parts.close();
                        read_run();
                    }
                }
                try {
                    const CloseParts closing(sharing ? &qrels_parts : nullptr);
                    SharedParts* share = sharing ? &qrels_parts : nullptr;
                    if (qrels_file) {
                        read_text_file_into(qrels_path, judged_text, max_line_bytes);
                        read_subtopic_qrels_text(judged_text, qrels_name.empty() ? qrels_path : qrels_name, judgments,
                                                 max_line_bytes, budget, size_t{1} << 18, share);
                    } else {
                        group_subtopic_judgments(columns, "qrels", InputFault(), budget, judgments, share);
                    }
                } catch (...) {
                    qrels_fault = std::current_exception();
                }
                if (sharing && !qrels_fault) run_parts.help();
                if (run_reader.joinable()) run_reader.join();
                if (qrels_fault) std::rethrow_exception(qrels_fault);
                if (run_fault) std::rethrow_exception(run_fault);
                results = evaluate_diversity(judgments, groups, measures, options, std::max(1u, threads));
                kept_reading_buffers().give_back(std::move(buffers));
            }
            return py::object(judged_run_tuple(results));
        },
        py::arg("qrels"), py::arg("run"), py::arg("measures"), py::arg("relevant_at_least"), py::arg("ties_by_score"),
        py::arg("missing_zero"), py::arg("max_line_bytes"), py::arg("max_retrieved"), py::arg("judged_only"),
        py::arg("qrels_name"), py::arg("run_name"), py::arg("threads") = 1,
        "Evaluate a run against subtopic judgments; use evalcore.evaluate_run(qrels_format='subtopics').");
}

}  // namespace evalcore
