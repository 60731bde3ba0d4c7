// _core.span_evaluate(request, limits, conventions) -> (result, inputSha256, outputSha256)
// _core.span_evaluate_corpus(documents, overlap, minimum_iou, threads, per_document, conventions, limits) -> dict
#include <deque>
#include <memory>

#include "spans/corpus.hpp"
#include "spans/spans.hpp"
#include "conventions.hpp"
#include "progress_calls.hpp"
#include "python_emitter.hpp"
#include "common/errors.hpp"
#include "python_reader.hpp"
#include "python_span_reader.hpp"
#include "register.hpp"
#include "workspace.hpp"

namespace evalcore {

void register_spans(py::module_& m) {
    m.def(
        "span_evaluate",
        [](py::handle request, const py::tuple& limits_tuple, const py::tuple& conventions_table) {
            const Limits limits = limits_from_tuple(limits_tuple);
            const ConventionsTable conventions = conventions_from_python(conventions_table);
            RequestStrings strings;
            BorrowedWorkspace work;
            const Document& doc = work->request;
            read_python_request(request.ptr(), limits, work->request, &strings);
            SpanRequest parsed;
            SpanOutcome outcome;
            Evaluation& evaluation = work->evaluation;
            {
                py::gil_scoped_release release;  // schema, semantic checks, matching, JSON, hashes
                const Path root;
                parsed = span_read(doc, 0, root, limits, true);
                outcome = span_compute(parsed, root, limits.matching_steps);
                span_serialize(parsed, outcome, conventions, limits, evaluation);
                evaluation.input_sha256 = span_input_sha256(parsed);
            }
            PythonEmitter emitter(strings);
            emit_span_result(parsed, outcome, conventions.at(parsed.overlap ? 1 : 0), emitter);
            return py::make_tuple(emitter.result(), evaluation.input_sha256, evaluation.output_sha256);
        },
        py::arg("request"), py::arg("limits"), py::arg("conventions"),
        "Evaluate a span request; returns (result, inputSha256, outputSha256). Use evalcore.span_evaluate.");

    m.def(
        "span_evaluate_corpus",
        [](const py::list& document_list, bool overlap, double minimum_iou, unsigned threads, bool per_document,
           const py::tuple& conventions_table, const py::tuple& limits_tuple, py::handle progress_callback) {
            Progress state;
            return with_progress(progress_callback, state, [&](Progress* progress) -> py::object {
                const ConventionsTable conventions = conventions_from_python(conventions_table);
                // A corpus is read with each document's nesting bounded (jsonDepth) and the values
                // of all documents together (jsonNodes): one list given a million times counts a
                // million times. No byte limit: a document's text has no length limit here.
                const Limits limits = limits_from_tuple(limits_tuple);
                Limits reading = limits;
                reading.input_bytes = INT64_MAX;
                // Our own tuple of the documents: Python code run while reading (a dict subclass's
                // items()) cannot change which objects are read, nor free them.
                const py::tuple documents = py::reinterpret_steal<py::tuple>(PyList_AsTuple(document_list.ptr()));
                if (!documents) throw py::error_already_set();
                const size_t count = documents.size();
                HeldObjects held;
                std::deque<std::string> arena;
                FastSpanReader fast(held, arena);
                std::vector<CorpusDocument> docs(count);
                auto read_slowly = [&](size_t i, CorpusDocument& doc, int64_t& nodes) {
                    doc.request = SpanRequest{};
                    doc.document = std::make_unique<Document>();
                    try {
                        read_python_document(PyTuple_GET_ITEM(documents.ptr(), static_cast<Py_ssize_t>(i)), reading,
                                             *doc.document, nodes);
                    } catch (const RequestError&) {
                        rethrow_for_document(i, std::current_exception());
                    }
                };
                // Reading (GIL held), in document order: the first reading fault stops it.
                const bool may_read_fast = limits.json_depth >= 3;  // a document, its lists, their spans
                int64_t nodes = 0;
                for (size_t i = 0; i < count; ++i) {
                    SpanRequest& request = docs[i].request;
                    int64_t values = 0;  // what the slow way counts for the same document
                    if (may_read_fast &&
                        fast.read(PyTuple_GET_ITEM(documents.ptr(), static_cast<Py_ssize_t>(i)), request, values)) {
                        if (values <= limits.json_nodes - nodes) {
                            nodes += values;
                            continue;
                        }
                    }
                    read_slowly(i, docs[i], nodes);  // reports a fault exactly, the node limit's too
                }
                SpanCorpusOutcome corpus;
                {
                    py::gil_scoped_release release;
                    if (progress != nullptr) progress->expect(count);
                    corpus = span_corpus_evaluate(docs, overlap, minimum_iou, limits.matching_steps, threads, progress);
                }
                if (corpus.first_fault != SIZE_MAX) {
                    const size_t i = corpus.first_fault;
                    if (!docs[i].document) {  // read the fast way: re-read it the slow way for the exact fault
                        CorpusDocument slow;
                        int64_t alone = 0;  // within the node limit already
                        read_slowly(i, slow, alone);
                        SpanOutcome unused;
                        try {
                            span_corpus_document(slow, overlap, minimum_iou, limits.matching_steps, unused);
                        } catch (const RequestError&) {
                            rethrow_for_document(i, std::current_exception());
                        }
                    }
                    rethrow_for_document(i, corpus.fault);
                }
                CollectorPause pause;
                RequestStrings no_strings;
                PythonEmitter emitter(no_strings);
                emit_span_corpus(docs, corpus, per_document, conventions.at(overlap ? 1 : 0), emitter);
                return emitter.result();
            });
        },
        py::arg("documents"), py::arg("overlap"), py::arg("minimum_iou"), py::arg("threads"), py::arg("per_document"),
        py::arg("conventions"), py::arg("limits"), py::arg("progress") = py::none(),
        "Evaluate many span documents; use evalcore.span_evaluate_corpus.");
}

}  // namespace evalcore
