// trec_eval's per-topic lines, written in one pass over a table of values: what
// `evalcore trec --format trec_eval -q` prints for each topic and measure. The table is
// computed in Python (python/evalcore/trec_eval/output_format.py decides each value as
// trec_eval does); only the printing is here, because a million lines printed one Python
// call at a time cost more than evaluating the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace evalcore {

// One printed column: its name, whether its values print as integers (num_ret...), and
// for a column of text (relstring) each topic's text, printed instead of its value.
struct OutputColumn {
    std::string_view name;
    bool integer = false;
    const std::vector<std::string>* texts = nullptr;  // one per topic, or null
};

// Appends, topic by topic (row by row of `values`, `topics` rows of `columns.size()`
// doubles, row-major), one line per column: the name left-aligned in 22 characters, a tab,
// the topic, a tab, and the value: printf's "%6.4f" ("  -nan" for NaN, as trec_eval's 0/0
// prints on x86), or for an integer column the value as a whole number (it is one), or a
// text column's text.
void append_topic_lines(const std::vector<OutputColumn>& columns, const std::vector<std::string_view>& topics,
                        const double* values, std::string& out);

// printf's "%6.4f" of one value, "  -nan" for NaN.
void append_fixed4(double value, std::string& out);

}  // namespace evalcore
