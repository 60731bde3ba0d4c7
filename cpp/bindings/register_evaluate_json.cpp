// _core.evaluate_json(operation, body, limits, conventions, version, threads) -> bytes
// The raw-JSON front door: bytes in, bytes out; nothing per element becomes a Python object,
// and the GIL is released from parsing to the last hash.
#include <stdexcept>
#include <string>

#include "front_door/front_door.hpp"
#include "conventions.hpp"
#include "python_reader.hpp"
#include "register.hpp"
#include "workspace.hpp"

namespace evalcore {

void register_evaluate_json(py::module_& m) {
    m.def(
        "evaluate_json",
        [](const std::string& operation, const py::bytes& body, const py::tuple& limits_tuple,
           const py::tuple& conventions_table, const std::string& version, unsigned threads) {
            const Limits limits = limits_from_tuple(limits_tuple);
            const ConventionsTable conventions = conventions_from_python(conventions_table);
            const std::string_view view = body;  // an immutable bytes object: stable while we hold it
            std::string response;
            {
                BorrowedWorkspace work;
                py::gil_scoped_release release;
                response = evaluate_json_request(operation, view, limits, conventions, version, threads, work->request,
                                                 work->evaluation);
            }
            return py::bytes(response);
        },
        py::arg("operation"), py::arg("body"), py::arg("limits"), py::arg("conventions"), py::arg("version"),
        py::arg("threads"), "Evaluate a raw JSON request body; use evalcore.evaluate_json.");
}

}  // namespace evalcore
