// `hdae plot` (plot_command.hpp).
#include "plot_command.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <ostream>

extern char** environ;  // NOLINT: POSIX, for posix_spawn

namespace hdae::cli {
namespace {

constexpr const char* kPlotHelp =
    "Draws a result CSV with scripts/plot.py (Debian's python3 and python3-matplotlib; "
    "HDAE_PYTHON\nnames another interpreter): time on x, one panel per unit (from "
    "<stem>.units.csv), event\ninstants dotted. The second argument is the image when it "
    "ends in .png, .svg or .pdf,\nelse the image is <stem>.png beside the CSV and every "
    "argument after the CSV names a\nsignal (default: all but derivatives, up to twelve).\n\n"
    "Exit status: 0 drawn, 2 an error (bad arguments; a file that is not a regular file, not a "
    "result\nCSV, or holds values no axis can show; the message names the file).\n";

bool is_image(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".png" || ext == ".svg" || ext == ".pdf";
}

}  // namespace

std::vector<std::string> plot_arguments(const std::vector<std::string>& args) {
  if (args.empty()) return {};
  std::vector<std::string> out{args[0]};
  std::size_t signals = 1;
  if (args.size() > 1 && is_image(args[1])) {
    out.push_back(args[1]);
    signals = 2;
  } else {
    out.push_back(std::filesystem::path(args[0]).replace_extension(".png").string());
  }
  out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(signals), args.end());
  return out;
}

int run_plot(const std::vector<std::string>& args, const std::filesystem::path& python,
             const std::filesystem::path& script, std::ostream& out, std::ostream& err) {
  constexpr const char* kUsage = "usage: hdae plot result.csv [out.png] [signal ...]";
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << kUsage << "\n\n" << kPlotHelp;
    return 0;
  }
  if (args.empty() || args[0].starts_with('-')) {
    err << "hdae plot: " << kUsage << '\n';
    return 2;
  }
  // plot.py puts "hdae plot: " in front of its messages ("hdae plot: r.h5: an HDF5 ...").
  std::vector<std::string> argv_text{python.string(), script.string(), "--name", "hdae plot"};
  for (std::string& a : plot_arguments(args)) argv_text.push_back(std::move(a));
  std::vector<char*> argv;
  argv.reserve(argv_text.size() + 1);
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (rc != 0) {
    err << "hdae plot: cannot run " << python.string() << ": " << std::strerror(rc)
        << " (set HDAE_PYTHON to a python3 with matplotlib)\n";
    return 2;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      err << "hdae plot: waiting for " << python.string() << " failed\n";
      return 2;
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  err << "hdae plot: " << python.string() << " ended by signal " << WTERMSIG(status) << '\n';
  return 2;
}

}  // namespace hdae::cli
