// Running a model from Python: hdae._hdae.simulate(model, options) and hdae.Simulator. The
// GIL is released for the run (a bundled model never needs it; a Python model's callbacks
// take it back), Ctrl-C cancels the run or raises KeyboardInterrupt in a Python model's
// callbacks (interrupt.hpp), and a run ended by an exception
// raises it with the partial result attached (errors.hpp).
#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "engine_run.hpp"
#include "errors.hpp"
#include "hdae/simulator.hpp"
#include "interrupt.hpp"
#include "python_model.hpp"
#include "result_object.hpp"

namespace py = pybind11;

namespace hdae::python {

namespace {

/// Where Ctrl-C goes during a run of model (interrupt.hpp).
SigintRoute route_for(const SimulationModel& model) {
  return dynamic_cast<const PythonModel*>(&model) != nullptr ? SigintRoute::kPython
                                                             : SigintRoute::kCancelFlag;
}

/// Calls f() with the GIL released and SIGINT routed as `route` says; exceptions are raised in
/// Python after the GIL is back (a partial result with the run's parameters).
template <class F>
auto call_engine(std::atomic<bool>& cancel, SigintRoute route,
                 const std::vector<ParameterInfo>& parameters, F&& f) {
  std::exception_ptr failure;
  std::optional<decltype(f())> value;
  {
    SigintScope sigint(cancel, route);
    py::gil_scoped_release release;
    try {
      value.emplace(f());
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (failure) raise_failure(failure, parameters);
  return std::move(*value);
}

py::object simulate_model(SimulationModel& model, SimulationOptions options) {
  return run_model(model, std::move(options),
                   [](SimulationModel& m, const SimulationOptions& o) { return simulate(m, o); });
}

py::array copy_of(std::span<const double> values) {
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

/// hdae.Simulator: one run advanced step by step; keeps its model alive.
class PySimulator {
 public:
  PySimulator(py::object model, SimulationOptions options)
      : model_(std::move(model)), cancel_(std::make_unique<std::atomic<bool>>(false)) {
    options.cancel = cancel_.get();
    auto& model_ref = model_.cast<SimulationModel&>();
    parameters_ = model_ref.structure().parameters;
    route_ = route_for(model_ref);
    simulator_ = std::make_unique<Simulator>(model_ref, std::move(options));
  }

  SimulationStatus initialize() {
    return call_engine(*cancel_, route_, parameters_, [&] { return running().initialize(); });
  }
  SimulationStatus advance_to(double t) {
    return call_engine(*cancel_, route_, parameters_, [&] { return running().advance_to(t); });
  }
  void cancel() { cancel_->store(true); }
  [[nodiscard]] const Simulator& simulator() const { return *simulator_; }

  /// The result: taken from the simulator at the first call (which ends the run), then shared.
  py::object result() {
    if (!taken_) taken_ = std::make_shared<const SimulationResult>(simulator_->take_result());
    return wrap_result(taken_, parameters_);
  }

 private:
  Simulator& running() {
    if (taken_)
      throw std::logic_error("Simulator: the result was taken (Simulator.result), the run is over");
    return *simulator_;
  }

  py::object model_;  // declared first: destroyed after the simulator that refers to it
  std::unique_ptr<std::atomic<bool>> cancel_;
  std::vector<ParameterInfo> parameters_;  // the model's during the run
  SigintRoute route_ = SigintRoute::kCancelFlag;
  std::unique_ptr<Simulator> simulator_;
  std::shared_ptr<const SimulationResult> taken_;
};

}  // namespace

py::object run_model(SimulationModel& model, SimulationOptions options, const ModelRun& run) {
  std::atomic<bool> cancel{false};
  options.cancel = &cancel;
  options.validate();
  const std::vector<ParameterInfo> parameters = model.structure().parameters;
  auto result = call_engine(cancel, route_for(model), parameters, [&] {
    return std::make_shared<const SimulationResult>(run(model, options));
  });
  return wrap_result(std::move(result), parameters);
}

void bind_run(py::module_& m) {
  m.def("_simulate", &simulate_model, py::arg("model"), py::arg("options"));
  py::class_<PySimulator>(m, "_Simulator")
      .def(py::init<py::object, SimulationOptions>(), py::arg("model"), py::arg("options"))
      .def("initialize", &PySimulator::initialize)
      .def("advance_to", &PySimulator::advance_to, py::arg("t"))
      .def("cancel", &PySimulator::cancel,
           "Asks the run to stop (status 'interrupted') at its next check; any thread.")
      .def_property_readonly("status", [](const PySimulator& s) { return s.simulator().status(); })
      .def_property_readonly("time", [](const PySimulator& s) { return s.simulator().time(); })
      .def_property_readonly("state",
                             [](const PySimulator& s) { return copy_of(s.simulator().state()); })
      .def_property_readonly(
          "derivatives", [](const PySimulator& s) { return copy_of(s.simulator().derivatives()); })
      .def_property_readonly(
          "statistics",
          [](const PySimulator& s) { return statistics_dict(s.simulator().statistics()); })
      .def_property_readonly("events", [](const PySimulator& s) { return s.simulator().events(); })
      .def_property_readonly("result", &PySimulator::result);
}

}  // namespace hdae::python
