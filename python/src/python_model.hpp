// hdae.Model: a model written in Python. The Python subclass declares variables, equations,
// outputs, crossings, time events and parameters in __init__ (the protected declarations of
// hdae::Model, made public here) and writes evaluate(self, e) and optionally on_event(self, ev) and
// reset(self). The simulator calls them with the GIL acquired (runs release it).
//
// e and ev are views that are valid only during the call: the model keeps one view object of
// each kind and points it at the engine's Evaluation or EventContext for the duration of the
// call, so a view kept beyond it raises instead of reading freed memory. Every handle is
// checked against the declarations on every access, also in optimised builds: a Python
// model's cost is in the interpreter, and a handle of another model must not read out of
// bounds.
#pragma once

#include <string>

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

 private:
  pybind11::object evaluation_view_;
  pybind11::object event_view_;
};

/// Binds the views (hdae.Evaluation, hdae.EventContext).
void bind_views(pybind11::module_& m);

}  // namespace hdae::python
