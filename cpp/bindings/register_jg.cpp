// evaluate_run with trec_eval's qrels_jg judgments (runs/jg_measures.hpp): both files read by
// the core, the run grouped whole, the judged queries scored on this thread.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/stl.h>

#include "register.hpp"
#include "runs/evaluation.hpp"
#include "runs/jg_measures.hpp"

namespace evalcore {

namespace {

// (kind, cutoff, level, gains, parameter, parameters) tuples, as MeasureSpec.native() gives
// them: judgment-group kinds only.
std::vector<Measure> judgment_group_measures(const py::list& measures) {
    std::vector<Measure> out;
    for (py::handle item : measures) {
        const auto fields = item.cast<std::tuple<int, int64_t, double, std::vector<std::pair<double, double>>, double, std::vector<double>>>();
        const int kind = std::get<0>(fields);
        if (kind < 0 || kind > static_cast<int>(MeasureKind::last) || !is_judgment_group_kind(static_cast<MeasureKind>(kind)) ||
            std::get<1>(fields) < 0 || (static_cast<MeasureKind>(kind) == MeasureKind::p_avgjg && std::get<1>(fields) == 0)) {
            throw py::value_error("invalid judgment-group measure");
        }
        out.push_back(Measure{static_cast<MeasureKind>(kind), std::get<1>(fields), std::get<2>(fields), {},
                              std::get<4>(fields), {}});
    }
    return out;
}

py::list utf8_list(const std::vector<std::string_view>& ids) {
    py::list out;
    for (std::string_view id : ids) out.append(py::str(id.data(), id.size()));
    return out;
}

}  // namespace

py::tuple judged_run_tuple(const RunResults& results) {
    py::bytes data(reinterpret_cast<const char*>(results.values.data()), results.values.size() * sizeof(double));
    py::list means, counts;
    for (size_t i = 0; i < results.mean.size(); ++i) {
        means.append(std::isnan(results.mean[i]) ? py::object(py::none()) : py::object(py::float_(results.mean[i])));
        counts.append(results.defined[i]);
    }
    return py::make_tuple(utf8_list(results.query_ids), data, means, counts, utf8_list(results.missing_ids));
}

void register_judgment_groups(py::module_& m) {
    m.def(
        "evaluate_run_jg",
        [](const std::string& qrels_path, const std::string& run_path, const py::list& measure_list,
           double relevant_at_least, bool ties_by_score, bool missing_zero, size_t max_line_bytes,
           int64_t max_retrieved, bool judged_only, const std::string& qrels_name, const std::string& run_name) {
            const std::vector<Measure> measures = judgment_group_measures(measure_list);
            if (max_retrieved < -1) throw py::value_error("max_retrieved must be >= 0, or -1 for no limit");
            const RunOptions options{relevant_at_least, false, ties_by_score, missing_zero, max_retrieved, judged_only};
            RunResults results;
            {
                py::gil_scoped_release release;
                const std::string judged_text = read_text_file(qrels_path, max_line_bytes);
                JudgmentGroups judgments;
                read_qrels_jg_text(judged_text, qrels_name.empty() ? qrels_path : qrels_name, judgments, max_line_bytes);
                const std::string run_text = read_text_file(run_path, max_line_bytes);
                QueryGroups run;
                TextReading how;
                how.max_line_bytes = max_line_bytes;
                read_trec_text(run_text, TrecFormat::run, run_name.empty() ? run_path : run_name, run, how);
                results = evaluate_judgment_groups(judgments, run, measures, options);
            }
            return judged_run_tuple(results);
        },
        py::arg("qrels"), py::arg("run"), py::arg("measures"), py::arg("relevant_at_least"), py::arg("ties_by_score"),
        py::arg("missing_zero"), py::arg("max_line_bytes"), py::arg("max_retrieved"), py::arg("judged_only"),
        py::arg("qrels_name"), py::arg("run_name"),
        "Evaluate a run against qrels_jg judgments; use evalcore.evaluate_run(qrels_format='qrels_jg').");
}

}  // namespace evalcore
