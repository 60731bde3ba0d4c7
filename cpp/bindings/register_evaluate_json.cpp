// _core.evaluate_json(operation, body, limits, conventions, version, threads) -> bytes
// The raw-JSON front door: bytes in, bytes out; nothing per element becomes a Python object,
// and the GIL is released from parsing to the last hash.
#include <stdexcept>
#include <string>

#include "../errors.hpp"
#include "../json_emitter.hpp"
#include "../json_parser.hpp"
#include "../ranking.hpp"
#include "../score.hpp"
#include "../spans.hpp"
#include "conventions.hpp"
#include "python_reader.hpp"
#include "register.hpp"
#include "workspace.hpp"

namespace evalcore {
namespace {

std::string evaluate(const std::string& operation, std::string_view body, const Limits& limits,
                     const ConventionsTable& conventions, const std::string& version, unsigned threads, Workspace& work) {
    Document& doc = work.request;
    doc.clear();
    parse_json_request(body, limits, doc);
    Evaluation& evaluation = work.evaluation;
    const Path root;
    if (operation == "ranking-evaluate") {
        const RankingRequest request = ranking_read(doc, limits);
        RankingOutcome outcome = ranking_layout(doc, request);
        ranking_compute(doc, request, outcome);
        ranking_serialize(doc, outcome, conventions, limits, evaluation);
        evaluation.input_sha256 = ranking_input_sha256(doc, request);
        return envelope_json(operation, version, evaluation);
    }
    if (operation == "span-evaluate") {
        const SpanRequest request = span_read(doc, 0, root, limits, true);
        const SpanOutcome outcome = span_compute(request, root, limits.matching_steps);
        span_serialize(request, outcome, conventions, limits, evaluation);
        evaluation.input_sha256 = span_input_sha256(request);
        return envelope_json(operation, version, evaluation);
    }
    const ScoreRequest request = score_read(doc);
    const ScoreOutcome outcome = score_compute(doc, request, threads);
    std::string out;
    JsonEmitter emitter(out);
    emit_score_response(request, outcome, emitter);
    emitter.finish();
    if (static_cast<int64_t>(out.size()) > limits.output_bytes) {
        throw RequestError(ErrorCode::output_limit, "",
                           "the response would be " + std::to_string(out.size()) + " bytes, over outputBytes = " +
                               std::to_string(limits.output_bytes) + "; send fewer items");
    }
    return out;
}

}  // namespace

void register_evaluate_json(py::module_& m) {
    m.def(
        "evaluate_json",
        [](const std::string& operation, const py::bytes& body, const py::tuple& limits_tuple,
           const py::tuple& conventions_table, const std::string& version, unsigned threads) {
            if (operation != "ranking-evaluate" && operation != "span-evaluate" && operation != "score") {
                throw py::value_error("unknown operation " + operation);
            }
            const Limits limits = limits_from_tuple(limits_tuple);
            const ConventionsTable conventions = conventions_from_python(conventions_table);
            const std::string_view view = body;  // an immutable bytes object: stable while we hold it
            std::string response;
            {
                BorrowedWorkspace work;
                py::gil_scoped_release release;
                response = evaluate(operation, view, limits, conventions, version, threads, *work);
            }
            return py::bytes(response);
        },
        py::arg("operation"), py::arg("body"), py::arg("limits"), py::arg("conventions"), py::arg("version"),
        py::arg("threads"), "Evaluate a raw JSON request body; use evalcore.evaluate_json.");
}

}  // namespace evalcore
