// The import of Model Exchange FMUs (hdae::fmi::load) for python/hdae/_fmi.py, which sets the
// parameters given as keywords (hdae.load_fmu("ball.fmu", e=0.8)).
#include <memory>
#include <string>

#include "bindings.hpp"
#include "hdae/fmi.hpp"

namespace py = pybind11;

namespace hdae::python {

void bind_fmi(py::module_& m) {
  m.def(
      "_load_fmu",
      [](const std::string& path) {
        // Python runs models through the simulator, which a Co-Simulation FMU cannot enter:
        // an FMU without Model Exchange is refused here, naming the interface it lacks.
        fmi::LoadOptions options;
        options.fmi_interface = fmi::Interface::kModelExchange;
        std::unique_ptr<SimulationModel> model = fmi::load(path, options);
        return model;
      },
      py::arg("path"));
}

}  // namespace hdae::python
