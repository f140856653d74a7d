// `hdae run <file>.fmu` (fmu_command.hpp): the FMU as an entry of the example programs' kind,
// made on the spot, so that the run, its options and its files are theirs.
#include "fmu_command.hpp"

#include <exception>
#include <filesystem>
#include <memory>
#include <ostream>

#include <fmt/format.h>

#include "hdae/fmi.hpp"

namespace hdae::cli {

int run_fmu(const std::vector<std::string>& rest, const examples::ProgramEnvironment& env) {
  const std::filesystem::path path = rest.front();
  std::shared_ptr<std::unique_ptr<fmi::Fmu>> loaded;
  try {
    loaded = std::make_shared<std::unique_ptr<fmi::Fmu>>(fmi::load(path));
  } catch (const std::exception& e) {
    env.err << "hdae run: " << e.what() << '\n';
    return 2;
  }
  const fmi::FmuInfo& info = (*loaded)->info();
  examples::Example example;
  example.name = path.stem().string();
  example.description = fmt::format("the FMU {} (FMI {} Model Exchange, model {})",
                                    path.filename().string(), info.fmi_version, info.model_name);
  // The model loaded above serves the first run; another would unpack the FMU anew.
  example.make_model = [loaded, path](const examples::ParameterValues&) {
    std::unique_ptr<SimulationModel> model;
    if (*loaded) {
      model = std::move(*loaded);
    } else {
      model = fmi::load(path);
    }
    return model;
  };
  // The key numbers: the states at the end, as the FMU names them.
  example.key_numbers = [](const SimulationModel& model, const SimulationResult& r) {
    const VariableTable& states = model.structure().variables;
    std::string text = fmt::format("at t = {:g}:", r.table.time(r.table.num_rows() - 1));
    for (std::size_t j = 0; j < states.size(); ++j) {
      const std::string name = states.name(j);
      text += fmt::format(" {} = {:.6g}", name, r.table.final_value(name));
    }
    return text;
  };
  example.options.start_s = info.start_s;
  if (info.stop_s) example.options.stop_s = *info.stop_s;
  if (info.tolerance) example.options.rel_tol = *info.tolerance;
  return examples::run_example_program(example, "hdae run " + rest.front(),
                                       {rest.begin() + 1, rest.end()}, env);
}

}  // namespace hdae::cli
