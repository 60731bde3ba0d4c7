#include "score_pipeline.hpp"

#include <algorithm>

#include "common/query_progress.hpp"
#include "overlap.hpp"
#include "python_emitter.hpp"
#include "python_score_reader.hpp"

namespace evalcore {

bool score_pipelined(PyObject* items, const ScoreRequest& head, Workspace& work, std::deque<std::string>& wide,
                     ScoreBudget& budget, py::object& result) {
    constexpr size_t part_items = 2048;  // items handed to the helper at a time
    const size_t count = static_cast<size_t>(PyList_GET_SIZE(items));
    const size_t part_count = (count + part_items - 1) / part_items;
    // Each part has its own IDs and ranges, so that no vector the helper reads ever moves.
    std::vector<ScoreRequest>& parts = work.score_parts;  // reused: their vectors keep their memory
    if (parts.size() < part_count) parts.resize(part_count);
    ScoreOutcome outcome;
    outcome.per_item.resize(count);  // sized before the helper starts; it fills, we read
    QueryProgress read, scored;      // parts read; items scored (count + 1: the aggregate too)

    result = overlap_with_python(
        true, scored,
        [&] {  // the helper: each part once it is read; stops if the reading stops
            for (size_t p = 0; p < part_count; ++p) {
                if (!read.wait_for(p + 1)) {
                    scored.fail();
                    return;
                }
                const size_t begin = p * part_items, end = std::min(count, begin + part_items);
                score_pairs(parts[p], 0, end - begin, &outcome.per_item[begin]);
                scored.publish(end);
            }
            score_aggregate(outcome);
            scored.publish(count + 1);
        },
        [&]() -> py::object {  // this thread: read every part, then build the result
            struct StopHelper {  // on every way out: a helper still waiting for parts gives up
                QueryProgress& read;
                ~StopHelper() { read.fail(); }  // no effect on the parts already published
            } stop{read};
            for (size_t p = 0; p < part_count; ++p) {
                ScoreRequest& part = parts[p];
                part.clear();
                part.has_k = head.has_k;
                part.k = head.k;
                const size_t begin = p * part_items, end = std::min(count, begin + part_items);
                if (!read_score_items(items, begin, end, part, work.score_text, wide, budget)) return py::object();
                read.publish(p + 1);
            }
            CollectorPause pause;
            RequestStrings none;
            PythonEmitter emitter(none, &scored);
            emit_score_response(head, outcome, emitter);
            return emitter.result();
        });
    return static_cast<bool>(result);
}

}  // namespace evalcore
