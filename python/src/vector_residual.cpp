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

/// What the views name as their base: an object that owns nothing, so that pybind11 does not
/// copy the data (the engine's vectors own it). Not the model, which holds its views: that
/// would be a cycle. Made once and never freed (a view may outlive the interpreter's modules).
py::handle view_base() {
  static const int kAnchor = 0;
  static const py::handle kBase = py::capsule(static_cast<const void*>(&kAnchor)).release();
  return kBase;
}

/// Points the one-dimensional double array in slot at n values at data, making the array first
/// when the slot is empty (the first call, or its last array outlived its call).
void point(py::object& slot, const double* data, std::size_t n, bool writeable) {
  if (!slot) {
    slot = py::array(py::dtype::of<double>(), {static_cast<py::ssize_t>(n)},
                     {static_cast<py::ssize_t>(sizeof(double))}, const_cast<double*>(data),
                     view_base());
  }
  auto* proxy = py::detail::array_proxy(slot.ptr());
  proxy->data = reinterpret_cast<char*>(const_cast<double*>(data));
  proxy->dimensions[0] = static_cast<py::ssize_t>(n);
  if (writeable) {
    proxy->flags |= py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  } else {
    proxy->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  }
}

/// Empties a view that outlives its call: no element, read-only, no pointer into the engine.
void empty(const py::object& a) {
  static double nothing = 0.0;
  auto* proxy = py::detail::array_proxy(a.ptr());
  proxy->dimensions[0] = 0;
  proxy->data = reinterpret_cast<char*>(&nothing);
  proxy->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
}

/// Empties every view that something still references and frees its slot (the next call makes
/// a new array); the name of the first such, or null.
const char* retire(std::array<py::object, 3>& views) {
  static constexpr std::array<const char*, 3> kNames = {"x", "der_x", "r"};
  const char* kept = nullptr;
  for (std::size_t k = 0; k < views.size(); ++k) {
    if (views[k] && Py_REFCNT(views[k].ptr()) > 1) {
      empty(views[k]);
      views[k] = py::object();
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
  point(arrays_[0], e.x().data(), structure().num_unknowns(), false);
  point(arrays_[1], e.der_x().data(), structure().num_unknowns(), false);
  point(arrays_[2], e.residuals().data(), structure().equations.size(), true);
  try {
    residual_(self, e.t(), arrays_[0], arrays_[1], arrays_[2]);
  } catch (...) {
    retire(arrays_);  // the traceback holds the frame and with it the views
    throw;
  }
  if (const char* kept = retire(arrays_)) {
    throw ModelError("model '" + structure().name + "': residual(self, t, x, der_x, r) kept '" +
                     kept +
                     "' beyond the call (in an attribute, a container, a closure or a view made "
                     "from it); the arrays are views of the engine's vectors for that call only: "
                     "keep a copy instead (x.copy())");
  }
}

}  // namespace hdae::python
