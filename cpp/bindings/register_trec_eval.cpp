// _core.trec_topic_lines(names, integer, topics, values, texts) -> bytes: trec_eval's
// per-topic lines (cpp/trec_eval/output_lines.hpp) for `topics` (bytes, the topic IDs as
// printed) and a float64 table `values` of len(topics) rows × len(names) columns; `integer`
// says which columns print as whole numbers, `texts` gives a text column's texts (bytes, one
// per topic) or None. The names and topics are copied before the GIL
// is released (the lists may change meanwhile); the table is held by its own reference.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "register.hpp"
#include "trec_eval/output_lines.hpp"

namespace evalcore {
namespace {

py::bytes trec_topic_lines(const std::vector<std::string>& names, const std::vector<bool>& integer,
                           const std::vector<std::string>& topics, const py::array& table,
                           const std::vector<std::optional<std::vector<std::string>>>& texts) {
    if (integer.size() != names.size() || texts.size() != names.size()) {
        throw py::value_error("trec_topic_lines: one integer flag and one text list (or None) per name");
    }
    for (const auto& column : texts) {
        if (column && column->size() != topics.size()) throw py::value_error("trec_topic_lines: one text per topic");
    }
    const auto values = py::array_t<double, py::array::c_style>::ensure(table);
    if (!values || values.ndim() != 2 || static_cast<size_t>(values.shape(0)) != topics.size() ||
        static_cast<size_t>(values.shape(1)) != names.size()) {
        throw py::value_error("trec_topic_lines: values must be a float64 table of one row per topic, one column per name");
    }
    std::vector<OutputColumn> columns(names.size());
    for (size_t c = 0; c < names.size(); ++c) {
        columns[c] = OutputColumn{names[c], integer[c], texts[c] ? &*texts[c] : nullptr};
    }
    std::vector<std::string_view> topic_views(topics.begin(), topics.end());
    std::string out;
    {
        py::gil_scoped_release release;
        size_t bytes = 0;
        for (const std::string& name : names) bytes += std::max<size_t>(name.size(), 22) + 10;
        size_t topic_bytes = 0;
        for (const std::string& topic : topics) topic_bytes += topic.size();
        for (const auto& column : texts) {
            if (column) {
                for (const std::string& text : *column) topic_bytes += text.size();
            }
        }
        out.reserve(bytes * topics.size() + topic_bytes * names.size());
        append_topic_lines(columns, topic_views, values.data(), out);
    }
    return py::bytes(out);
}

}  // namespace

void register_trec_eval(py::module_& m) {
    m.def("trec_topic_lines", &trec_topic_lines, py::arg("names"), py::arg("integer"), py::arg("topics"),
          py::arg("values"), py::arg("texts"), "trec_eval's per-topic lines of a table of values (evalcore trec --format trec_eval -q).");
}

}  // namespace evalcore
