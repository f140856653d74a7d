// Models in Python: the handles, the interface every model offers (hdae.SimulationModel: its
// declarations), and hdae.Model, the base class of models written in Python.
#include <limits>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "python_model.hpp"

namespace py = pybind11;

namespace hdae::python {

namespace {

template <class Handle>
void bind_handle(py::module_& m, const char* name) {
  py::class_<Handle>(m, name)
      .def_readonly("index", &Handle::index)
      .def("__eq__", [](const Handle& a, const Handle& b) { return a.index == b.index; })
      .def("__hash__", [](const Handle& h) { return h.index; })
      .def("__repr__", [name](const Handle& h) {
        return std::string(name) + "(" + std::to_string(h.index) + ")";
      });
}

void bind_enums(py::module_& m) {
  py::enum_<RowKind>(m, "RowKind", "f_d rows (linear in der_x) or f_c rows (constraints)")
      .value("differential", RowKind::kDifferential)
      .value("constraint", RowKind::kConstraint);
  py::enum_<CrossingDirection>(m, "CrossingDirection",
                               "Which flips of a crossing's Boolean end integration")
      .value("both", CrossingDirection::kBoth)
      .value("rising", CrossingDirection::kRising)
      .value("falling", CrossingDirection::kFalling);
  py::enum_<ErrorControl>(m, "ErrorControl", "Whether a variable takes part in IDA's error test")
      .value("included", ErrorControl::kIncluded)
      .value("excluded", ErrorControl::kExcluded);
}

template <class Info>
std::vector<std::string> names(const std::vector<Info>& infos) {
  std::vector<std::string> out;
  out.reserve(infos.size());
  for (const Info& i : infos) out.push_back(i.name);
  return out;
}

/// The names of a table's entries (VariableTable, EquationTable), made one by one.
template <class Table>
std::vector<std::string> table_names(const Table& table) {
  std::vector<std::string> out;
  out.reserve(table.size());
  for (std::size_t j = 0; j < table.size(); ++j) out.push_back(table.name(j));
  return out;
}

void bind_parameter_info(py::module_& m) {
  py::class_<ParameterInfo>(m, "ParameterInfo", "A run-time parameter of a model.")
      .def_readonly("name", &ParameterInfo::name)
      .def_readonly("unit", &ParameterInfo::unit)
      .def_readonly("value", &ParameterInfo::value)
      .def_readonly("min", &ParameterInfo::min)
      .def_readonly("max", &ParameterInfo::max)
      .def_readonly("description", &ParameterInfo::description)
      .def("__repr__", [](const ParameterInfo& p) {
        return "ParameterInfo(" + p.name + " = " +
               py::repr(py::float_(p.value)).cast<std::string>() + " " + p.unit + ")";
      });
}

void bind_simulation_model(py::module_& m) {
  py::class_<SimulationModel>(m, "SimulationModel",
                              "A model the simulator can run (bundled or written in Python).")
      .def_property_readonly("name", [](const SimulationModel& s) { return s.structure().name; })
      .def_property_readonly(
          "variables",
          [](const SimulationModel& s) { return table_names(s.structure().variables); })
      .def_property_readonly(
          "equations",
          [](const SimulationModel& s) { return table_names(s.structure().equations); })
      .def_property_readonly("outputs",
                             [](const SimulationModel& s) { return names(s.structure().outputs); })
      .def_property_readonly(
          "crossings", [](const SimulationModel& s) { return names(s.structure().crossings); })
      .def_property_readonly(
          "time_events", [](const SimulationModel& s) { return names(s.structure().time_events); })
      .def("set_parameter", &SimulationModel::set_parameter, py::arg("name"), py::arg("value"),
           "Sets a parameter between runs; hdae.ModelError naming it when the name is unknown, "
           "the value outside its range or a run of the model exists.")
      .def("parameter", &SimulationModel::parameter, py::arg("name"))
      .def_property_readonly("parameters",
                             [](const SimulationModel& s) {
                               py::dict d;
                               for (const ParameterInfo& p : s.structure().parameters)
                                 d[py::str(p.name)] = p.value;
                               return d;
                             })
      .def_property_readonly("parameter_info",
                             [](const SimulationModel& s) { return s.structure().parameters; })
      .def("__repr__", [](const SimulationModel& s) {
        return "<hdae model '" + s.structure().name +
               "': " + std::to_string(s.structure().variables.size()) + " variables>";
      });
}

void bind_python_model(py::module_& m) {
  using M = PythonModel;
  py::class_<M, SimulationModel>(
      m, "Model",
      "Base class of models written in Python: declare in __init__ (after "
      "super().__init__(name)), write the residuals in evaluate(self, e), or vectorised in "
      "residual(self, t, x, der_x, r) (numpy views of one call; crossing helpers then in "
      "evaluate_crossings(self, e)), or compiled (set_compiled_residual(cfunc), a numba cfunc); "
      "optionally on_event(self, ev) and reset(self).",
      py::dynamic_attr())
      .def(py::init<std::string>(), py::arg("name"))
      .def(
          "declare_variable",
          [](M& self, std::string name, std::string unit, double start, bool fixed, double nominal,
             ErrorControl error_control, std::string der_name, std::string der_unit) {
            return self.declare_variable({.name = std::move(name),
                                          .unit = std::move(unit),
                                          .start = start,
                                          .fixed = fixed,
                                          .nominal = nominal,
                                          .error_control = error_control,
                                          .der_name = std::move(der_name),
                                          .der_unit = std::move(der_unit)});
          },
          py::arg("name"), py::kw_only(), py::arg("unit") = "", py::arg("start") = 0.0,
          py::arg("fixed") = false, py::arg("nominal") = 1.0,
          py::arg("error_control") = ErrorControl::kIncluded, py::arg("der_name") = "",
          py::arg("der_unit") = "")
      .def("declare_equation", &M::declare_equation, py::arg("name"),
           py::arg("kind") = RowKind::kDifferential)
      .def("declare_output", &M::declare_output, py::arg("name"), py::arg("unit") = "")
      .def("declare_crossing", &M::declare_crossing, py::arg("name"),
           py::arg("direction") = CrossingDirection::kBoth, py::arg("nominal") = 1.0)
      .def("declare_time_event", &M::declare_time_event, py::arg("name"))
      .def("declare_dependency", py::overload_cast<Eq, Var>(&M::declare_dependency), py::arg("eq"),
           py::arg("var"))
      .def("set_start", &M::set_start, py::arg("var"), py::arg("start"))
      .def(
          "declare_parameter",
          [](M& self, std::string name, std::string unit, double value, double min, double max,
             std::string description) {
            return self.declare_parameter({.name = std::move(name),
                                           .unit = std::move(unit),
                                           .value = value,
                                           .min = min,
                                           .max = max,
                                           .description = std::move(description)});
          },
          py::arg("name"), py::kw_only(), py::arg("unit") = "", py::arg("value") = 0.0,
          py::arg("min") = -std::numeric_limits<double>::infinity(),
          py::arg("max") = std::numeric_limits<double>::infinity(), py::arg("description") = "")
      .def("value", &M::value, py::arg("param"), "The parameter's current value")
      .def("_set_compiled_residual", &M::set_compiled_residual, py::arg("address"),
           "The address of a compiled residual (0: none); set_compiled_residual checks it.");
}

}  // namespace

void bind_model(py::module_& m) {
  bind_enums(m);
  bind_handle<Var>(m, "Var");
  bind_handle<Eq>(m, "Eq");
  bind_handle<Out>(m, "Out");
  bind_handle<Crossing>(m, "Crossing");
  bind_handle<TimeEvent>(m, "TimeEvent");
  bind_handle<Param>(m, "Param");
  bind_parameter_info(m);
  bind_simulation_model(m);
  bind_python_model(m);
  bind_views(m);
}

}  // namespace hdae::python
