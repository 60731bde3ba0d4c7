// Low-level helpers exposed for tests and benchmarks: ECMAScript number text and SHA-256.
#include <cmath>

#include "../json_writer.hpp"
#include "../sha256.hpp"
#include "register.hpp"

namespace evalcore {

void register_json(py::module_& m) {
    m.def(
        "format_number",
        [](double value) {
            if (!std::isfinite(value)) throw py::value_error("only finite numbers have a JSON form");
            char buffer[32];
            return std::string(buffer, format_ecma_number(value, buffer));
        },
        py::arg("value"), "ECMAScript Number::toString of a finite float.");
    m.def(
        "sha256_hex",
        [](const py::bytes& data) {
            std::string_view view = data;  // borrowed; the bytes object outlives the call
            std::string digest;
            {
                py::gil_scoped_release release;
                digest = sha256_hex(view);
            }
            return digest;
        },
        py::arg("data"), "Lowercase hex SHA-256 of bytes (the core's own implementation).");
    m.attr("SHA256_CPU_EXTENSIONS") = sha256_uses_cpu_extensions();
}

}  // namespace evalcore
