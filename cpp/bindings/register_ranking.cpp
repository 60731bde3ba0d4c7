// _core.ranking_evaluate(request, limits, conventions) -> (result, inputSha256, outputSha256)
#include "../ranking.hpp"
#include "python_reader.hpp"
#include "python_result.hpp"
#include "register.hpp"

namespace evalcore {

ConventionsTable conventions_from_python(const py::tuple& table) {
    ConventionsTable out;
    out.reserve(table.size());
    for (const py::handle& variant : table) {
        std::vector<std::string> sentences;
        for (const py::handle& sentence : variant) sentences.push_back(sentence.cast<std::string>());
        out.push_back(std::move(sentences));
    }
    return out;
}

void register_ranking(py::module_& m) {
    m.def(
        "ranking_evaluate",
        [](py::handle request, const py::tuple& limits_tuple, const py::tuple& conventions_table) {
            const Limits limits = limits_from_tuple(limits_tuple);
            const ConventionsTable conventions = conventions_from_python(conventions_table);
            Document doc;
            read_python_request(request.ptr(), limits, doc);
            Evaluation evaluation;
            {
                py::gil_scoped_release release;  // validation, metrics, serialization, hashing
                evaluation = ranking_evaluate(doc, limits, conventions);
            }
            return py::make_tuple(result_to_python(evaluation.result), evaluation.input_sha256, evaluation.output_sha256);
        },
        py::arg("request"), py::arg("limits"), py::arg("conventions"),
        "Evaluate a ranking request; returns (result, inputSha256, outputSha256). Use evalcore.ranking_evaluate.");
}

}  // namespace evalcore
