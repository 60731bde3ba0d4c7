// evaluate_run with trec_eval's preference judgments (runs/prefs_measures.hpp): both files
// read by the core, the run grouped whole, the judged queries scored on this thread.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "pybind.hpp"
#include "register.hpp"
#include "runs/evaluation.hpp"
#include "runs/prefs_measures.hpp"

namespace evalcore {

namespace {

// (kind, cutoff, level, gains, parameter, parameters) tuples, as MeasureSpec.native() gives
// them: preference kinds only (they take no parameters).
std::vector<Measure> preference_measures(const py::list& measures) {
    std::vector<Measure> out;
    for (py::handle item : measures) {
        const auto fields = item.cast<std::tuple<int, int64_t, double, std::vector<std::pair<double, double>>, double, std::vector<double>>>();
        const int kind = std::get<0>(fields);
        if (kind < 0 || kind > static_cast<int>(MeasureKind::last) || !is_preference_kind(static_cast<MeasureKind>(kind))) {
            throw py::value_error("invalid preference measure");
        }
        out.push_back(Measure{static_cast<MeasureKind>(kind), 0, std::get<2>(fields), {}, 0.0, {}});
    }
    return out;
}

py::list utf8_ids(const std::vector<std::string_view>& ids) {
    py::list out;
    for (std::string_view id : ids) out.append(py::str(id.data(), id.size()));
    return out;
}

}  // namespace

void register_preferences(py::module_& m) {
    m.def(
        "evaluate_run_prefs",
        [](const std::string& prefs_path, const std::string& run_path, bool with_subgroups, const py::list& measure_list,
           bool ties_by_score, bool missing_zero, size_t max_line_bytes, int64_t max_retrieved,
           const std::string& prefs_name, const std::string& run_name) {
            const std::vector<Measure> measures = preference_measures(measure_list);
            if (max_retrieved < -1) throw py::value_error("max_retrieved must be >= 0, or -1 for no limit");
            RunOptions options;
            options.ties_by_score = ties_by_score;
            options.missing_zero = missing_zero;
            options.max_retrieved = max_retrieved;
            RunResults results;
            {
                py::gil_scoped_release release;
                const std::string judged_text = read_text_file(prefs_path, max_line_bytes);
                Preferences prefs;
                read_prefs_text(judged_text, with_subgroups, prefs_name.empty() ? prefs_path : prefs_name, prefs,
                                max_line_bytes);
                const std::string run_text = read_text_file(run_path, max_line_bytes);
                QueryGroups run;
                TextReading how;
                how.max_line_bytes = max_line_bytes;
                read_trec_text(run_text, TrecFormat::run, run_name.empty() ? run_path : run_name, run, how);
                results = evaluate_preferences(prefs, run, measures, options);
            }
            py::bytes data(reinterpret_cast<const char*>(results.values.data()), results.values.size() * sizeof(double));
            py::list means, counts;
            for (size_t i = 0; i < results.mean.size(); ++i) {
                means.append(std::isnan(results.mean[i]) ? py::object(py::none()) : py::object(py::float_(results.mean[i])));
                counts.append(results.defined[i]);
            }
            return py::make_tuple(utf8_ids(results.query_ids), data, means, counts, utf8_ids(results.missing_ids));
        },
        py::arg("qrels"), py::arg("run"), py::arg("with_subgroups"), py::arg("measures"), py::arg("ties_by_score"),
        py::arg("missing_zero"), py::arg("max_line_bytes"), py::arg("max_retrieved"), py::arg("qrels_name"),
        py::arg("run_name"),
        "Evaluate a run against prefs or qrels_prefs judgments; use evalcore.evaluate_run(qrels_format='prefs').");
}

}  // namespace evalcore
