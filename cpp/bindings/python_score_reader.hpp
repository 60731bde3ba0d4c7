// The score fast path: reads a well-formed score request straight from the caller's
// Python objects (views of its str buffers), so that no tree is built for large batches.
#pragma once

#include <deque>
#include <string>

#include "../score.hpp"
#include "../text_arena.hpp"
#include "pybind.hpp"
#include "python_span_reader.hpp"

namespace evalcore {

// Fills `out` and returns true only for a request with no fault at all: known keys, right
// types, exactly one form, well-formed strings. Anything else returns false and goes the
// slow way (reader, schema, semantic checks), which reports it exactly. Needs the GIL.
// The IDs' text is copied (ASCII into `text`, other text as UTF-8 into `wide`) rather than
// viewed: a copy touches each str once, where a held view costs a reference taken, the
// text read again without the GIL, and the reference dropped, each a cache miss per ID.
bool read_score_fast(PyObject* request, ScoreRequest& out, TextArena& text, std::deque<std::string>& wide);

}  // namespace evalcore
