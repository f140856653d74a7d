// hdae.Model: a model written in Python. The Python subclass declares variables, equations,
// outputs, crossings, time events and parameters in __init__ (the protected declarations of
// hdae::Model, made public here) and writes evaluate(self, e) and optionally on_event(self, ev) and
// reset(self). The simulator calls them with the GIL acquired (runs release it).
//
// Two faster forms replace evaluate(): residual(self, t, x, der_x, r), which receives numpy
// views of the engine's vectors for one call (the same three arrays from call to call, pointed
// anew each time), and a compiled residual (a numba cfunc, set with
// set_compiled_residual in python/hdae/_compiled.py), called without the GIL. Either may be
// joined by evaluate_crossings(self, e), which makes the crossing helper calls with the GIL held.
// The form is chosen when a run takes the model (reset()), not on every call.
//
// e and ev are views that are valid only during the call: the model keeps one view object of
// each kind and points it at the engine's Evaluation or EventContext for the duration of the
// call, so a view kept beyond it raises instead of reading freed memory. Every handle is
// checked against the declarations on every access, also in optimised builds: a Python
// model's cost is in the interpreter, and a handle of another model must not read out of
// bounds.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "hdae/model_builder.hpp"

namespace hdae::python {

/// The view of an Evaluation lent to Python's evaluate().
struct EvaluationView {
  Evaluation* e = nullptr;
  const ModelStructure* structure = nullptr;
  [[nodiscard]] Evaluation& get() const;
};

/// The view of an EventContext lent to Python's on_event().
struct EventView {
  EventContext* ev = nullptr;
  const ModelStructure* structure = nullptr;
  [[nodiscard]] EventContext& get() const;
};

class PythonModel : public Model {
 public:
  explicit PythonModel(std::string name) : Model(std::move(name)) {}
  ~PythonModel() override;
  PythonModel(const PythonModel&) = delete;
  PythonModel& operator=(const PythonModel&) = delete;

  using Model::declare_crossing;
  using Model::declare_dependency;
  using Model::declare_equation;
  using Model::declare_output;
  using Model::declare_parameter;
  using Model::declare_time_event;
  using Model::declare_variable;
  /// Changes a declared variable's start value (e.g. from a parameter).
  using Model::set_start;
  using Model::value;

  void evaluate(Evaluation& e) override;
  void on_event(EventContext& ev) override;
  void reset() override;
  void parameters_changed() override;

  /// The address of a compiled residual void(double t, const double* x, const double* der_x,
  /// double* r, const double* p, intptr_t n), or 0 to go back to the Python forms.
  void set_compiled_residual(std::uintptr_t address);

 private:
  using CompiledResidual = void (*)(double, const double*, const double*, double*, const double*,
                                    std::intptr_t);
  void choose_form();
  void evaluate_compiled(Evaluation& e);
  void evaluate_arrays(Evaluation& e);
  void call_crossings(Evaluation& e);

  CompiledResidual compiled_ = nullptr;
  std::vector<double> parameter_values_;
  bool form_chosen_ = false;
  // Functions of the subclass (not bound methods, which would hold the model in a cycle).
  pybind11::object residual_;
  pybind11::object crossings_;
  pybind11::object evaluation_view_;
  pybind11::object event_view_;
  /// residual()'s x, der_x and r: three numpy arrays pointed at the engine's vectors for each
  /// call instead of made anew (vector_residual.cpp); one that outlived its call is replaced.
  std::array<pybind11::object, 3> arrays_;
};

/// Binds the views (hdae.Evaluation, hdae.EventContext).
void bind_views(pybind11::module_& m);

}  // namespace hdae::python
