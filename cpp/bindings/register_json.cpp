// Low-level helpers exposed for tests and benchmarks: ECMAScript number text and SHA-256.
#include <cmath>

#include "json/writer.hpp"
#include "json/sha256.hpp"
#include "json/reader.hpp"
#include "python_reader.hpp"
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
    m.def(
        "compact_json",
        [](py::handle value) {
            // Any JSON value, keys in their given order: the serializer outputSha256 uses.
            Limits unlimited;
            unlimited.input_bytes = unlimited.json_depth = unlimited.json_nodes = INT64_MAX;
            Document doc;
            read_python_request(value.ptr(), unlimited, doc);
            std::string out;
            append_compact_json(out, doc, 0);
            return py::bytes(out);
        },
        py::arg("value"), "Compact JSON (emission order, ECMAScript numbers) of a JSON-typed Python value.");
    m.attr("SHA256_CPU_EXTENSIONS") = sha256_uses_cpu_extensions();
}

}  // namespace evalcore
