// The import of FMUs (hdae::fmi::load) for python/hdae/_fmi.py, which sets the parameters given
// as keywords (hdae.load_fmu("ball.fmu", e=0.8)) and runs a Co-Simulation FMU by its own
// stepping where hdae.simulate is asked to run it.
#include <memory>
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "engine_run.hpp"
#include "hdae/fmi.hpp"

namespace py = pybind11;

namespace hdae::python {
namespace {

/// "cs" or "me" as _fmi.py passes them (it checks the spelling); none: the FMU's own choice.
std::optional<fmi::Interface> interface_named(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  return *name == "cs" ? fmi::Interface::kCoSimulation : fmi::Interface::kModelExchange;
}

}  // namespace

void bind_fmi(py::module_& m) {
  m.def(
      "_load_fmu",
      [](const std::string& path, const std::optional<std::string>& fmi_interface) {
        fmi::LoadOptions options;
        options.fmi_interface = interface_named(fmi_interface);
        std::unique_ptr<SimulationModel> model = fmi::load(path, options);
        return model;
      },
      py::arg("path"), py::arg("fmi_interface") = py::none());
  m.def(
      "_fmu_interface",
      [](const SimulationModel& model) -> std::optional<std::string> {
        const auto* fmu = dynamic_cast<const fmi::Fmu*>(&model);
        if (fmu == nullptr) return std::nullopt;
        return fmu->info().fmi_interface == fmi::Interface::kCoSimulation ? "cs" : "me";
      },
      py::arg("model"));
  // hdae.simulate of an FMU loaded for Co-Simulation: it steps itself (Fmu::co_simulate).
  m.def(
      "_co_simulate",
      [](SimulationModel& model, SimulationOptions options) {
        return run_model(model, std::move(options),
                         [](SimulationModel& fmu, const SimulationOptions& o) {
                           return dynamic_cast<fmi::Fmu&>(fmu).co_simulate(o);
                         });
      },
      py::arg("model"), py::arg("options"));
}

}  // namespace hdae::python
