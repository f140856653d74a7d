// hdae's exceptions in Python. Misuse (options, declarations, files) maps to subclasses of
// the built-in exceptions a Python user expects (ValueError, OSError); a run that failed keeps
// its partial result on the exception (docs/design.md, "Errors and outcomes").
#include "errors.hpp"

#include <memory>
#include <string>

#include "bindings.hpp"
#include "hdae/errors.hpp"
#include "hdae/result.hpp"
#include "result_object.hpp"

namespace py = pybind11;

namespace hdae::python {

void bind_errors(py::module_& m) {
  py::register_exception<OptionError>(m, "OptionError", PyExc_ValueError);
  py::register_exception<ModelError>(m, "ModelError", PyExc_ValueError);
  py::register_exception<IoError>(m, "IoError", PyExc_OSError);
  // Raised by raise_failure with partial_result set; registered so that a RunError that
  // escapes elsewhere still gets a meaningful type.
  py::register_exception<ModelCallbackError>(m, "ModelCallbackError", PyExc_RuntimeError);
  py::register_exception<EngineError>(m, "EngineError", PyExc_RuntimeError);
}

namespace {

/// Attaches the partial result and the engine's message to a Python exception object.
void annotate(const py::handle& exception, const py::object& partial, const char* message) {
  exception.attr("partial_result") = partial;
  if (py::hasattr(exception, "add_note")) exception.attr("add_note")(message);
}

[[noreturn]] void raise_with_partial(const char* type_name, const RunError& error,
                                     const std::vector<ParameterInfo>& parameters) {
  py::object partial = wrap_result(error.partial_result(), parameters);
  py::object type = py::module_::import("hdae._hdae").attr(type_name);
  py::object exception = type(error.what());
  exception.attr("partial_result") = partial;
  // The C++ exception nested inside, when it is not a Python one, is named in error.what().
  PyErr_SetObject(type.ptr(), exception.ptr());
  throw py::error_already_set();
}

}  // namespace

void raise_failure(const std::exception_ptr& failure,
                   const std::vector<ParameterInfo>& parameters) {
  try {
    std::rethrow_exception(failure);
  } catch (const ModelCallbackError& error) {
    try {
      std::rethrow_if_nested(error);
    } catch (py::error_already_set& python_error) {
      annotate(python_error.value(), wrap_result(error.partial_result(), parameters), error.what());
      throw;
    } catch (...) {
      // A C++ exception of model code (a bundled model, or the engine's EventContext checks):
      // reported below with the engine's message, which quotes it.
    }
    raise_with_partial("ModelCallbackError", error, parameters);
  } catch (const EngineError& error) {
    raise_with_partial("EngineError", error, parameters);
  }
}

}  // namespace hdae::python
