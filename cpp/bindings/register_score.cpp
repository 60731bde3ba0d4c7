// _core.score(request, limits, threads) -> Mixpeek's response dict
#include <deque>
#include <string>

#include "common/errors.hpp"
#include "json/emitter.hpp"
#include "score/score.hpp"
#include "python_emitter.hpp"
#include "python_reader.hpp"
#include "python_score_reader.hpp"
#include "register.hpp"
#include "score_pipeline.hpp"
#include "workspace.hpp"

namespace evalcore {

void register_score(py::module_& m) {
    m.def(
        "score",
        [](py::handle request, const py::tuple& limits_tuple, unsigned threads) {
            const Limits limits = limits_from_tuple(limits_tuple);
            BorrowedWorkspace work;
            const Document& doc = work->request;
            std::deque<std::string> wide;  // IDs that are not ASCII, as UTF-8
            ScoreRequest& parsed = work->score;  // reused: its vectors keep their memory
            parsed.clear();
            work->score_text.clear();
            // The fast path reads within a budget of the input limits (see ScoreBudget); an
            // output limit needs the JSON built, which it skips.
            constexpr int64_t unbounded = 9007199254740991;
            const bool may_skip_tree = limits.output_bytes >= unbounded && limits.json_depth >= 4;
            ScoreBudget budget{limits.json_nodes, limits.input_bytes};
            PyObject* items = nullptr;
            bool fast = may_skip_tree && read_score_head(request.ptr(), parsed, items, work->score_text, wide, budget);
            if (fast && items != nullptr) {
                const size_t count = static_cast<size_t>(PyList_GET_SIZE(items));
                if (threads > 1 && count >= score_pipeline_items) {
                    py::object result;
                    if (score_pipelined(items, parsed, *work, wide, budget, result)) return result;
                    fast = false;
                } else {
                    fast = read_score_items(items, 0, count, parsed, work->score_text, wide, budget);
                }
            }
            if (!fast) {
                parsed.clear();
                read_python_request(request.ptr(), limits, work->request);
            }
            ScoreOutcome outcome;
            {
                py::gil_scoped_release release;  // schema, scoring and (when bounded) the output size
                if (!fast) parsed = score_read(doc);
                outcome = score_compute(parsed, threads);
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
