// _core.score(request, limits, threads) -> Mixpeek's response dict
#include "../errors.hpp"
#include "../json_emitter.hpp"
#include "../score.hpp"
#include "python_emitter.hpp"
#include "python_reader.hpp"
#include "register.hpp"
#include "workspace.hpp"

namespace evalcore {

void register_score(py::module_& m) {
    m.def(
        "score",
        [](py::handle request, const py::tuple& limits_tuple, unsigned threads) {
            const Limits limits = limits_from_tuple(limits_tuple);
            BorrowedWorkspace work;
            const Document& doc = work->request;
            read_python_request(request.ptr(), limits, work->request);
            ScoreRequest parsed;
            ScoreOutcome outcome;
            {
                py::gil_scoped_release release;  // schema, scoring and (when bounded) the output size
                parsed = score_read(doc);
                outcome = score_compute(doc, parsed, threads);
                if (limits.output_bytes < 9007199254740991) {
                    std::string& text = work->evaluation.result_json;
                    text.clear();
                    JsonEmitter emitter(text);
                    emit_score_response(parsed, outcome, emitter);
                    emitter.finish();
                    finish_evaluation(work->evaluation, limits.output_bytes);
                }
            }
            CollectorPause pause;
            RequestStrings none;
            PythonEmitter emitter(none);
            emit_score_response(parsed, outcome, emitter);
            return emitter.result();
        },
        py::arg("request"), py::arg("limits"), py::arg("threads"), "Score ID sets; use evalcore.score.");
}

}  // namespace evalcore
