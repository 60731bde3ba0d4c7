// The corpus fast path: reads a span document straight from the caller's Python objects
// when it has exactly the expected shape, so that no tree is built for it.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "spans/spans.hpp"
#include "pybind.hpp"
#include "python_str_view.hpp"

namespace evalcore {

class FastSpanReader {
public:
    FastSpanReader(HeldObjects& held, std::deque<std::string>& arena);

    // Fills `out` and returns true when `document` is a dict with exactly references and
    // predictions (and text, which may be left out), each span a dict with exactly label,
    // start and end (and id, which may be left out: then Span::id is empty) of the right types
    // and bounds, and no string holds a surrogate. `values` is what the slow way would count
    // for it (jsonNodes). Otherwise returns false and the document goes the slow way, which
    // finds and reports whatever is off. Needs the GIL. Reads exact dict, list, tuple, str and
    // int objects only, from their storage, so no Python code runs and the borrowed pointers
    // it holds stay valid.
    bool read(PyObject* document, SpanRequest& out, int64_t& values);

private:
    bool read_spans(PyObject* list, std::vector<Span>& out, int64_t& values);
    bool read_label_or_id(PyObject* value, std::string_view& out);

    HeldObjects& held_;
    std::deque<std::string>& arena_;  // UTF-8 of non-ASCII IDs and labels (stable addresses)
};

}  // namespace evalcore
