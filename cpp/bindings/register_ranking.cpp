// _core.ranking_evaluate(request, limits, conventions) -> (result, inputSha256, outputSha256)
#include "ranking/ranking.hpp"
#include "python_emitter.hpp"
#include "python_reader.hpp"
#include "conventions.hpp"
#include "overlap.hpp"
#include "register.hpp"
#include "workspace.hpp"

namespace evalcore {

// Below this many ranked documents a second thread costs more than it saves.
constexpr size_t parallel_threshold = 1024;

void register_ranking(py::module_& m) {
    m.def(
        "ranking_evaluate",
        [](py::handle request, const py::tuple& limits_tuple, const py::tuple& conventions_table) {
            const Limits limits = limits_from_tuple(limits_tuple);
            const ConventionsTable conventions = conventions_from_python(conventions_table);
            RequestStrings strings;
            BorrowedWorkspace work;
            const Document& doc = work->request;
            read_python_request(request.ptr(), limits, work->request, &strings);
            RankingRequest parsed;
            RankingOutcome outcome;
            Evaluation& evaluation = work->evaluation;
            {
                py::gil_scoped_release release;  // schema checks
                parsed = ranking_read(doc, limits);
                outcome = ranking_layout(doc, parsed);
            }
            // Metrics, JSON text and both hashes run on a helper thread (no GIL) while this
            // thread builds the Python result query by query as the helper finishes them (the
            // input hash too: the Python result does not need it, and this thread is the
            // slower of the two).
            QueryProgress progress;
            const bool in_parallel = outcome.ranked.size() >= parallel_threshold;
            py::object result = overlap_with_python(
                in_parallel, progress,
                [&] {
                    ranking_compute(doc, parsed, outcome, in_parallel ? &progress : nullptr);
                    ranking_serialize(doc, outcome, conventions, limits, evaluation);
                    evaluation.input_sha256 = ranking_input_sha256(doc, parsed);
                },
                [&] {
                    CollectorPause pause;
                    PythonEmitter emitter(strings, in_parallel ? &progress : nullptr);
                    emit_ranking_result(doc, outcome, conventions.at(outcome.conventions_variant), emitter);
                    return emitter.result();
                });
            return py::make_tuple(std::move(result), evaluation.input_sha256, evaluation.output_sha256);
        },
        py::arg("request"), py::arg("limits"), py::arg("conventions"),
        "Evaluate a ranking request; returns (result, inputSha256, outputSha256). Use evalcore.ranking_evaluate.");
}

}  // namespace evalcore
