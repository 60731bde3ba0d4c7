// The score fast path: reads a well-formed score request straight from the caller's
// Python objects (copies of the IDs' text), so that no tree is built for large batches.
#pragma once

#include <deque>
#include <string>

#include "score/score.hpp"
#include "common/text_arena.hpp"
#include "pybind.hpp"
#include "python_span_reader.hpp"

namespace evalcore {

// Reads a score request whose shape has no fault at all (known keys, right types, exactly
// one form, well-formed strings) straight from the caller's objects. Any fault makes these
// return false, and the request goes the slow way (reader, schema, semantic checks), which
// reports it exactly. They need the GIL, read exact dict, list and str objects only (a
// subclass goes the slow way), and so run no Python code: borrowed pointers stay valid.
//
// The IDs' text is copied (ASCII into `text`, other text as UTF-8 into `wide`) rather than
// viewed: a copy touches each str once, where a held view costs a reference taken, the
// text read again without the GIL, and the reference dropped, each a cache miss per ID.

// What the fast path may still read before the request could be over jsonNodes or
// inputBytes: nodes are counted exactly, bytes as an upper bound of the canonical JSON (6
// bytes a code point, every string's quotes and separator, generous room for keys and
// brackets). Once either runs out the fast path gives up and the slow path, which counts
// exactly and stops at the limit, decides. So shared references (one list listed a
// million times) cost no more than the limits allow.
struct ScoreBudget {
    int64_t nodes;
    int64_t bytes;
    bool take(int64_t node_count, int64_t byte_count) {
        nodes -= node_count;
        bytes -= byte_count;
        return nodes >= 0 && bytes >= 0;
    }
};

// The top level: metrics and k into `out`; the single form's pair too (items = nullptr), or
// the batch's non-empty items list (items, read with read_score_items).
bool read_score_head(PyObject* request, ScoreRequest& out, PyObject*& items, TextArena& text, std::deque<std::string>& wide,
                     ScoreBudget& budget);

// Items [begin, end) of the batch, appended to out's IDs and ranges.
bool read_score_items(PyObject* items, size_t begin, size_t end, ScoreRequest& out, TextArena& text,
                      std::deque<std::string>& wide, ScoreBudget& budget);

}  // namespace evalcore
