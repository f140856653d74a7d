// Dispatch from the engine into a model written in Python, and the views it receives.
#include "python_model.hpp"

#include <string>

#include "hdae/errors.hpp"
#include "hdae/result.hpp"

namespace py = pybind11;

namespace hdae::python {

Evaluation& EvaluationView::get() const {
  if (e == nullptr)
    throw std::logic_error("this Evaluation was kept beyond the evaluate() call it was given to");
  return *e;
}

EventContext& EventView::get() const {
  if (ev == nullptr)
    throw std::logic_error("this EventContext was kept beyond the on_event() call it was given to");
  return *ev;
}

namespace {

/// Points a view at a context for one call and detaches it afterwards, also on exceptions.
template <class View, class Context>
class Lend {
 public:
  Lend(View& view, Context* context, Context* View::*member) : view_(view), member_(member) {
    view_.*member_ = context;
  }
  ~Lend() { view_.*member_ = nullptr; }
  Lend(const Lend&) = delete;
  Lend& operator=(const Lend&) = delete;

 private:
  View& view_;
  Context* View::*member_;
};

/// One model object evaluated by two runs at once (threads share the GIL, so their callbacks
/// interleave): the views would be pointed at the other run's data.
[[noreturn]] void throw_concurrent_use(const std::string& model) {
  throw ModelError("model '" + model +
                   "' is evaluated by two runs at the same time; create one model object per "
                   "run (e.g. per thread)");
}

/// The Python method `name` of the subclass, or an empty function when it defines none.
py::function override_of(const PythonModel* model, const char* name) {
  return py::get_override(model, name);
}

}  // namespace

PythonModel::~PythonModel() {
  // The views are Python objects: release them while the GIL is held (the model is destroyed
  // by Python, which holds it).
  evaluation_view_ = py::object();
  event_view_ = py::object();
  residual_ = py::object();
  crossings_ = py::object();
}

void PythonModel::evaluate(Evaluation& e) {
  if (compiled_ != nullptr) {
    evaluate_compiled(e);  // takes the GIL only for evaluate_crossings(self, e)
    return;
  }
  py::gil_scoped_acquire gil;
  if (!form_chosen_) choose_form();
  if (residual_) {
    if (crossings_) call_crossings(e);
    evaluate_arrays(e);
    return;
  }
  py::function f = override_of(this, "evaluate");
  if (!f) {
    throw ModelError("model '" + structure().name +
                     "' defines no evaluate(self, e) and no residual(self, t, x, der_x, r): a "
                     "subclass of hdae.Model must write its residuals in one of them");
  }
  if (!evaluation_view_) evaluation_view_ = py::cast(EvaluationView{nullptr, &structure()});
  auto& view = evaluation_view_.cast<EvaluationView&>();
  if (view.e != nullptr) throw_concurrent_use(structure().name);
  Lend<EvaluationView, Evaluation> lend(view, &e, &EvaluationView::e);
  f(evaluation_view_);
}

void PythonModel::call_crossings(Evaluation& e) {
  if (!evaluation_view_) evaluation_view_ = py::cast(EvaluationView{nullptr, &structure()});
  auto& view = evaluation_view_.cast<EvaluationView&>();
  if (view.e != nullptr) throw_concurrent_use(structure().name);
  Lend<EvaluationView, Evaluation> lend(view, &e, &EvaluationView::e);
  crossings_(py::cast(this, py::return_value_policy::reference), evaluation_view_);
}

void PythonModel::on_event(EventContext& ev) {
  py::gil_scoped_acquire gil;
  py::function f = override_of(this, "on_event");
  if (!f) return;
  if (!event_view_) event_view_ = py::cast(EventView{nullptr, &structure()});
  auto& view = event_view_.cast<EventView&>();
  if (view.ev != nullptr) throw_concurrent_use(structure().name);
  Lend<EventView, EventContext> lend(view, &ev, &EventView::ev);
  f(event_view_);
}

void PythonModel::reset() {
  py::gil_scoped_acquire gil;
  choose_form();
  if (py::function f = override_of(this, "reset")) f();
}

void PythonModel::parameters_changed() {
  py::gil_scoped_acquire gil;
  if (py::function f = override_of(this, "parameters_changed")) f();
}

namespace {

std::size_t check(const char* kind, std::size_t index, std::size_t count) {
  return detail::checked(kind, index, count);
}

// Handles checked here against the model's own declarations, in every build: the engine checks
// the crossing helpers' handles in debug builds only (the hot path of a C++ model,
// hdae/model.hpp), and a handle from Python may be any model's.
template <class View>
Crossing crossing(const View& v, Crossing c) {
  check("crossing", c.index, v.structure->crossings.size());
  return c;
}
template <class View>
Var variable(const View& v, Var var) {
  check("variable", var.index, v.structure->variables.size());
  return var;
}
template <class View>
TimeEvent time_event(const View& v, TimeEvent te) {
  check("time event", te.index, v.structure->time_events.size());
  return te;
}

void bind_evaluation(py::module_& m) {
  using V = EvaluationView;
  py::class_<V>(m, "Evaluation",
                "What evaluate(self, e) receives: t, x(v), der(v), left_limit(v), set(eq, r), "
                "set(out, value) and the crossing helpers. Valid only during that call.")
      .def_property_readonly("t", [](const V& v) { return v.get().t(); })
      .def("x",
           [](const V& v, Var var) {
             Evaluation& e = v.get();
             return e.x()[check("variable", var.index, e.x().size())];
           })
      .def("der",
           [](const V& v, Var var) {
             Evaluation& e = v.get();
             return e.der_x()[check("variable", var.index, e.der_x().size())];
           })
      .def(
          "left_limit",
          [](const V& v, Var var) {
            Evaluation& e = v.get();
            return e.left_limit(Var{check("variable", var.index, e.x().size())});
          },
          "The value of v just before the jump being solved (x^-, as a restitution law "
          "v+ = -e v- reads it); x(v) wherever the state is continuous")
      .def("set",
           [](const V& v, Eq eq, double r) {
             Evaluation& e = v.get();
             e.residuals()[check("equation", eq.index, e.residuals().size())] = r;
           })
      .def("set",
           [](const V& v, Out out, double value) {
             check("output", out.index, v.structure->outputs.size());
             v.get().set(out, value);
           })
      .def_property_readonly("wants_outputs", [](const V& v) { return v.get().wants_outputs(); })
      .def_property_readonly("wants_residuals",
                             [](const V& v) { return v.get().wants_residuals(); })
      .def_property_readonly("is_initial", [](const V& v) { return v.get().is_initial(); })
      .def_property_readonly("is_event", [](const V& v) { return v.get().is_event(); })
      .def("positive", [](const V& v, Crossing c,
                          double value) { return v.get().positive(crossing(v, c), value); })
      .def("negative", [](const V& v, Crossing c,
                          double value) { return v.get().negative(crossing(v, c), value); })
      .def("change", [](const V& v, Crossing c,
                        double value) { return v.get().change(crossing(v, c), value); })
      .def("edge", [](const V& v, Crossing c, double value) {
        return v.get().edge(crossing(v, c), value);
      });
}

void bind_event_context(py::module_& m) {
  using V = EventView;
  py::class_<V>(m, "EventContext",
                "What on_event(self, ev) receives at an event instant. Valid only during that "
                "call.")
      .def_property_readonly("t", [](const V& v) { return v.get().t(); })
      .def_property_readonly("kind",
                             [](const V& v) { return std::string(to_string(v.get().kind())); })
      .def_property_readonly("is_initial", [](const V& v) { return v.get().is_initial(); })
      .def_property_readonly(
          "pass_", [](const V& v) { return v.get().pass(); },
          "1 for the first pass of the event iteration at this instant")
      .def("x", [](const V& v, Var var) { return v.get().x(variable(v, var)); })
      .def("der", [](const V& v, Var var) { return v.get().der(variable(v, var)); })
      .def("set", [](const V& v, Var var, double value) { v.get().set(variable(v, var), value); })
      .def("is_true", [](const V& v, Crossing c) { return v.get().is_true(crossing(v, c)); })
      .def("rose", [](const V& v, Crossing c) { return v.get().rose(crossing(v, c)); })
      .def("fell", [](const V& v, Crossing c) { return v.get().fell(crossing(v, c)); })
      .def("fired", [](const V& v, TimeEvent te) { return v.get().fired(time_event(v, te)); })
      .def("set_row_kind",
           [](const V& v, Eq eq, RowKind kind) {
             check("equation", eq.index, v.structure->equations.size());
             v.get().set_row_kind(eq, kind);
           })
      .def("schedule",
           [](const V& v, TimeEvent te, double t) { v.get().schedule(time_event(v, te), t); })
      .def("cancel", [](const V& v, TimeEvent te) { v.get().cancel(time_event(v, te)); })
      .def("terminate",
           [](const V& v, std::string reason) { v.get().terminate(std::move(reason)); })
      .def("request_iteration", [](const V& v) { v.get().request_iteration(); });
}

}  // namespace

void bind_views(py::module_& m) {
  bind_evaluation(m);
  bind_event_context(m);
}

}  // namespace hdae::python
