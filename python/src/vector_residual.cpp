// The vector forms of a model written in Python: residual(self, t, x, der_x, r) on numpy views
// of the engine's vectors, and a compiled residual called through its address without the GIL
// (python_model.hpp).
//
// The numpy arrays are views, not copies: x and der_x are read-only views of the engine's
// inputs, r a writable view of its residual buffer, all valid for one call only. After each call
// the views must be referenced by nothing else; one that is (stored in an attribute, held by a
// view made from it, or by a traceback's frame) is emptied, shape (0,) and read-only, so that a
// later read cannot reach memory the engine has reused or freed, and the call fails naming it.
#include <array>
#include <string>

#include <pybind11/numpy.h>

#include "hdae/errors.hpp"
#include "python_model.hpp"

namespace py = pybind11;

namespace hdae::python {

namespace {

/// A one-dimensional double view of n values at data, owned by base (no copy).
py::array view_of(const double* data, std::size_t n, py::handle base, bool writeable) {
  // pybind11 copies the data when no base is given; the base (the model) keeps nothing alive
  // that the view needs, it only marks the array as not owning its data.
  py::array a(py::dtype::of<double>(), {static_cast<py::ssize_t>(n)},
              {static_cast<py::ssize_t>(sizeof(double))}, const_cast<double*>(data), base);
  if (!writeable)
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

/// Empties a view that outlives its call: no element, read-only, no pointer into the engine.
void empty(const py::array& a) {
  static double nothing = 0.0;
  auto* proxy = py::detail::array_proxy(a.ptr());
  proxy->dimensions[0] = 0;
  proxy->data = reinterpret_cast<char*>(&nothing);
  proxy->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
}

/// Empties every view that something still references; the name of the first such, or null.
const char* retire(const std::array<py::array, 3>& views) {
  static constexpr std::array<const char*, 3> kNames = {"x", "der_x", "r"};
  const char* kept = nullptr;
  for (std::size_t k = 0; k < views.size(); ++k) {
    if (Py_REFCNT(views[k].ptr()) > 1) {
      empty(views[k]);
      if (kept == nullptr) kept = kNames[k];
    }
  }
  return kept;
}

}  // namespace

void PythonModel::choose_form() {
  // The functions of the subclass, looked up once per run: bound methods held here would keep
  // the model alive through itself.
  const py::handle type = py::type::handle_of(py::cast(this, py::return_value_policy::reference));
  residual_ = py::getattr(type, "residual", py::none());
  crossings_ = py::getattr(type, "evaluate_crossings", py::none());
  if (residual_.is_none()) residual_ = py::object();
  if (crossings_.is_none()) crossings_ = py::object();
  form_chosen_ = true;
}

void PythonModel::set_compiled_residual(std::uintptr_t address) {
  // numba gives a cfunc's entry point as an integer (cfunc.address): the cast is the interface.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  compiled_ = reinterpret_cast<CompiledResidual>(address);
}

void PythonModel::evaluate_compiled(Evaluation& e) {
  if (!form_chosen_ || crossings_) {
    py::gil_scoped_acquire gil;
    if (!form_chosen_) choose_form();
    if (crossings_) call_crossings(e);
  }
  const std::vector<ParameterInfo>& parameters = structure().parameters;
  parameter_values_.resize(parameters.size());
  for (std::size_t k = 0; k < parameters.size(); ++k) parameter_values_[k] = parameters[k].value;
  compiled_(e.t(), e.x().data(), e.der_x().data(), e.residuals().data(), parameter_values_.data(),
            static_cast<std::intptr_t>(structure().num_unknowns()));
}

void PythonModel::evaluate_arrays(Evaluation& e) {
  const py::object self = py::cast(this, py::return_value_policy::reference);
  const std::array<py::array, 3> views = {
      view_of(e.x().data(), structure().num_unknowns(), self, false),
      view_of(e.der_x().data(), structure().num_unknowns(), self, false),
      view_of(e.residuals().data(), structure().equations.size(), self, true)};
  try {
    residual_(self, e.t(), views[0], views[1], views[2]);
  } catch (...) {
    retire(views);  // the traceback holds the frame and with it the views
    throw;
  }
  if (const char* kept = retire(views)) {
    throw ModelError("model '" + structure().name + "': residual(self, t, x, der_x, r) kept '" +
                     kept +
                     "' beyond the call (in an attribute, a container, a closure or a view made "
                     "from it); the arrays are views of the engine's vectors for that call only: "
                     "keep a copy instead (x.copy())");
  }
}

}  // namespace hdae::python
