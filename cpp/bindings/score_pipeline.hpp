// A large score batch as a pipeline: this thread reads it part by part (with the GIL) while
// a helper thread scores each part as soon as it is read (no GIL); then this thread builds
// the Python result as the helper finishes. Reading and building need the GIL and so run
// one after the other; the scoring no longer adds to them.
#pragma once

#include <deque>
#include <string>

#include "pybind.hpp"
#include "python_score_reader.hpp"
#include "workspace.hpp"

namespace evalcore {

// Batches at least this large go through the pipeline (smaller ones: the helper thread
// costs more than it saves).
constexpr size_t score_pipeline_items = 8192;

// `head` holds the request's metrics and k (read_score_head), `items` its items list.
// Returns false, with nothing built, when the reading finds a fault: the caller takes the
// slow path, which reports it. `wide` must outlive the call (it does: the helper is joined).
bool score_pipelined(PyObject* items, const ScoreRequest& head, Workspace& work, std::deque<std::string>& wide,
                     ScoreBudget& budget, py::object& result);

}  // namespace evalcore
