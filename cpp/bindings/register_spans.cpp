// _core.span_evaluate(request, limits, conventions) -> (result, inputSha256, outputSha256)
// _core.span_evaluate_corpus(documents, overlap, minimum_iou, threads, per_document, conventions) -> dict
#include "../span_corpus.hpp"
#include "../spans.hpp"
#include "conventions.hpp"
#include "python_emitter.hpp"
#include "python_reader.hpp"
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
                outcome = span_compute(doc, parsed, root, limits.matching_steps);
                span_serialize(doc, parsed, outcome, conventions, limits, evaluation);
                evaluation.input_sha256 = span_input_sha256(doc, parsed);
            }
            PythonEmitter emitter(strings);
            emit_span_result(doc, parsed, outcome, conventions.at(parsed.overlap ? 1 : 0), emitter);
            return py::make_tuple(emitter.result(), evaluation.input_sha256, evaluation.output_sha256);
        },
        py::arg("request"), py::arg("limits"), py::arg("conventions"),
        "Evaluate a span request; returns (result, inputSha256, outputSha256). Use evalcore.span_evaluate.");

    m.def(
        "span_evaluate_corpus",
        [](py::handle documents, bool overlap, double minimum_iou, unsigned threads, bool per_document,
           const py::tuple& conventions_table, int64_t matching_steps) {
            const ConventionsTable conventions = conventions_from_python(conventions_table);
            Limits reading;  // a corpus is read without the per-request size limits
            reading.input_bytes = reading.json_depth = reading.json_nodes = INT64_MAX;
            RequestStrings strings;
            Document doc;
            read_python_request(documents.ptr(), reading, doc, per_document ? &strings : nullptr);
            if (doc[0].kind != Kind::array) throw py::type_error("documents must be a list of documents");
            SpanCorpusOutcome corpus;
            {
                py::gil_scoped_release release;
                corpus = span_corpus_evaluate(doc, overlap, minimum_iou, matching_steps, threads);
            }
            CollectorPause pause;
            PythonEmitter emitter(strings);
            emit_span_corpus(doc, corpus, per_document, conventions.at(overlap ? 1 : 0), emitter);
            return emitter.result();
        },
        py::arg("documents"), py::arg("overlap"), py::arg("minimum_iou"), py::arg("threads"), py::arg("per_document"),
        py::arg("conventions"), py::arg("matching_steps"),
        "Evaluate many span documents; use evalcore.span_evaluate_corpus.");
}

}  // namespace evalcore
