// RequestError → evalcore.EvaluationError (the Python class, so callers catch one type).
#include "common/errors.hpp"
#include "register.hpp"

namespace evalcore {

void register_errors(py::module_& m) {
    // Imported once, here: evalcore.errors is pure Python and does not import _core.
    static py::handle evaluation_error = py::object(py::module_::import("evalcore.errors").attr("EvaluationError")).release();
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const RequestError& e) {
            // A pointer may name a key holding a lone surrogate (kept as WTF-8): give it back as that code point.
            auto text = [](const std::string& s) {
                PyObject* str = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogatepass");
                if (str == nullptr) throw py::error_already_set();
                return py::reinterpret_steal<py::str>(str);
            };
            py::object error = evaluation_error(code_name(e.code()), text(e.pointer()), text(e.what()));
            PyErr_SetObject(evaluation_error.ptr(), error.ptr());
        }
    });
    m.attr("EvaluationError") = evaluation_error;
}

}  // namespace evalcore
