// RequestError → evalcore.EvaluationError (the Python class, so callers catch one type).
#include "../errors.hpp"
#include "register.hpp"

namespace evalcore {

void register_errors(py::module_& m) {
    // Imported once, here: evalcore.errors is pure Python and does not import _core.
    static py::handle evaluation_error = py::object(py::module_::import("evalcore.errors").attr("EvaluationError")).release();
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const RequestError& e) {
            py::object error = evaluation_error(code_name(e.code()), e.pointer(), e.what());
            PyErr_SetObject(evaluation_error.ptr(), error.ptr());
        }
    });
    m.attr("EvaluationError") = evaluation_error;
}

}  // namespace evalcore
