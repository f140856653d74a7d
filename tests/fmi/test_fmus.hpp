// Where the FMUs of the tests lie: built from tests/fmi/fmus/ into the build tree.
#pragma once

#include <filesystem>
#include <string>

namespace hdae::test {

/// <build>/tests/fmi/fmus/<name>.fmu
inline std::filesystem::path test_fmu(const std::string& name) {
  return std::filesystem::path(HDAE_TEST_FMU_DIR) / (name + ".fmu");
}

}  // namespace hdae::test
