// Exporting and loading FMUs for the tests (exported_fmu.hpp).
#include "exported_fmu.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>

#include <doctest/doctest.h>

#include "hdae/hdae_program.hpp"
#include "results/temp_dir.hpp"

namespace hdae::test {

const std::filesystem::path& exported_fmu(const std::string& model,
                                          const std::vector<std::string>& sets) {
  static const TempDir folder;
  static std::map<std::vector<std::string>, std::filesystem::path> made;
  std::vector<std::string> args{"fmu", "export", model};
  for (const std::string& s : sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  if (const auto found = made.find(args); found != made.end()) return found->second;
  const std::filesystem::path file =
      folder.path() / (model + "_" + std::to_string(made.size()) + ".fmu");
  std::vector<std::string> command = args;
  command.push_back("-o");
  command.push_back(file.string());
  setenv("HDAE_FMU_RUNTIME", fmu_runtime().c_str(), 1);
  std::ostringstream out;
  std::ostringstream err;
  const int status = cli::run_hdae(command, {out, err, nullptr});
  INFO(err.str());
  REQUIRE(status == 0);
  return made.emplace(args, file).first->second;
}

bool LogBook::contains(const std::string& text) const {
  for (const std::string& m : messages) {
    if (m.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string LogBook::all() const {
  std::string text;
  for (const std::string& m : messages) text += m + "\n";
  return text;
}

void log_to_book(fmi3InstanceEnvironment book, fmi3Status status, fmi3String category,
                 fmi3String message) {
  static_cast<LogBook*>(book)->messages.push_back(std::to_string(static_cast<int>(status)) + "|" +
                                                  category + "|" + message);
}

LoadedFmu::LoadedFmu(const std::filesystem::path& fmu)
    : unpacked_(fmi::detail::UnpackDirectory::temporary(fmu.filename().string())) {
  fmi::detail::unpack(fmu, unpacked_.path(), fmu.filename().string());
  std::filesystem::path binary;
  for (const auto& e : std::filesystem::directory_iterator(folder() / "binaries/x86_64-linux")) {
    if (!e.path().filename().string().starts_with("lib")) binary = e.path();
  }
  REQUIRE(!binary.empty());
  library_ = std::make_unique<fmi::detail::SharedLibrary>(binary, fmu.filename().string());
}

std::string LoadedFmu::file_text(const std::string& name) const {
  std::ifstream in(folder() / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string LoadedFmu::token() const {
  const std::string xml = file_text("modelDescription.xml");
  const std::string key = "instantiationToken=\"";
  const std::size_t at = xml.find(key);
  REQUIRE(at != std::string::npos);
  const std::size_t begin = at + key.size();
  return xml.substr(begin, xml.find('"', begin) - begin);
}

fmi3Instance LoadedFmu::instantiate(LogBook& book, const std::string& resources,
                                    const std::string& token, bool early_return) const {
  auto* make = function<fmi3InstantiateCoSimulationFn>("fmi3InstantiateCoSimulation");
  return make("test instance", token.c_str(), resources.c_str(), false, true, false, early_return,
              nullptr, 0, &book, log_to_book, nullptr);
}

}  // namespace hdae::test
