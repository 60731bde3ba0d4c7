// evaluate_schemas' input="conll": a str read as nervaluate 1.2.1's "conll" loader reads it
// (ConllLoader.load), from the str's own code units, so no Python object is made per line and
// the caller may release the GIL. Twin: python/evalcore/reference/schemas/conll_text.py, whose
// text states the loader's rules; the checks across the two sides and the messages are
// cpp/bindings/schemas_conll.cpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "schemas/schemas.hpp"

namespace evalcore {

enum class ConllTextFault : uint8_t {
    none,
    no_tab,   // a line that is not blank has no tab
    bad_tag,  // a tag that cannot start an entity where it would start one
};

// One side (true or pred) read. After a fault the lines are still counted (the line counts
// are checked before the faults are reported), but no more entities are read.
struct ConllTextSide {
    std::vector<int64_t> line_counts;    // per document: the lines of its split("\n")
    std::vector<SchemaEntity> entities;  // label: an index into `labels`
    std::vector<size_t> begins{0};       // document d's entities: [begins[d], begins[d + 1])
    // Each type, where it first occurs: [begin, end) in code units of the str.
    std::vector<std::pair<size_t, size_t>> labels;
    ConllTextFault fault = ConllTextFault::none;
    size_t fault_document = 0;
    int64_t fault_offset = 0;             // the line's index in its document
    int64_t fault_line = 0;               // the line's number in the str, from 1
    size_t fault_begin = 0, fault_end = 0;  // the line (no_tab) or its tag (bad_tag), code units

    size_t documents() const { return line_counts.size(); }
};

// `units` code units of `kind` bytes each (a str's PyUnicode kind: 1, 2 or 4): code points.
void read_conll_text(const void* data, int kind, size_t units, ConllTextSide& out);

}  // namespace evalcore
