// The packer of hdae_add_fmu (cmake/HdaeAddFmu.cmake): builds the user's model as the runtime
// will (make_fmu_model, generated) and writes the FMU with the runtime given.
//   <target>_packer <runtime.so> <output.fmu>
#include <exception>
#include <iostream>

#include "fmu_model_source.hpp"
#include "hdae/fmu_export.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " <runtime.so> <output.fmu>\n";
    return 2;
  }
  try {
    const hdae::fmu_export::FmuModel made = hdae::fmu_export::make_fmu_model({});
    hdae::fmu_export::package_fmu(*made.model, {.description = HDAE_FMU_DESCRIPTION,
                                                .experiment = made.options,
                                                .output = argv[2],
                                                .runtime = argv[1]});
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << e.what() << '\n';
    return 2;
  }
  return 0;
}
