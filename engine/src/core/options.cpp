// SimulationOptions::validate: names the violated field and its rule (hdae/options.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/options.hpp"

namespace hdae {
namespace {

/// Consecutive output times must differ by more than IDA's time round-off (events/
/// same_time.hpp uses 1000 u max(|a|, |b|, 1) for "the same instant").
constexpr double kTimeResolutionUnits = 1000.0;
/// More output points than this is no result anyone can store or read.
constexpr double kMaxOutputPoints = 1e9;
/// More threads than this is a mistake (a count of something else), not a machine.
constexpr int kMaxThreads = 256;
/// The smallest rel_tol IDA can meet in double precision. IDA gives up on a step with
/// IDA_TOO_MUCH_ACC when u ||x||_WRMS > 1 (u the unit roundoff, 2.2e-16); with its weights
/// 1/(rel_tol |x_i| + abs_tol_i), ||x||_WRMS <= 1/rel_tol, so rel_tol >= 1e-15 (4.5 u) keeps
/// that test passed with room, whatever the solution's size.
constexpr double kMinRelTol = 1e-15;

void require(bool ok, const char* field, const char* rule, double value) {
  if (!ok)
    throw OptionError(fmt::format("SimulationOptions::{} must be {}, got {}", field, rule, value));
}

/// Times closer than this are the same instant for IDA (events/same_time.hpp); depends on the
/// magnitude of the run's times.
double time_resolution(const SimulationOptions& o) {
  return kTimeResolutionUnits * std::numeric_limits<double>::epsilon() *
         std::max({std::abs(o.start_s), std::abs(o.stop_s), 1.0});
}

/// A step size that is 0 (its default) or at least the time resolution: a smaller one cannot
/// move IDA's time.
void require_step(double step, const char* field, const char* zero_means,
                  const SimulationOptions& o) {
  const double resolution = time_resolution(o);
  require(
      step == 0.0 || step >= resolution, field,
      fmt::format("0 ({}) or >= the time resolution of the run ({:.3g} s)", zero_means, resolution)
          .c_str(),
      step);
}

/// An enum field holds one of its enumerators, named in order from 0 (a value cast from an
/// int, a file or another language may hold anything).
template <class Enum>
void require_choice(Enum value, const char* field, std::initializer_list<const char*> names) {
  const auto v = static_cast<long long>(value);
  if (v >= 0 && v < static_cast<long long>(names.size())) return;
  std::string rule;
  std::size_t k = 0;
  for (const char* name : names) {
    if (k > 0) rule += k + 1 == names.size() ? " or " : ", ";
    rule += fmt::format("{} ({})", name, k++);
  }
  require(false, field, rule.c_str(), static_cast<double>(v));
}

/// The enum fields.
void check_choices(const SimulationOptions& o) {
  require_choice(o.linear_solver, "linear_solver", {"kAuto", "kDense", "kKlu"});
  require_choice(o.jump_rule, "jump_rule", {"kMidpoint", "kEndPoint"});
  require_choice(o.restart_step, "restart_step", {"kIdaEstimate", "kFromHistory", "kKeepOrder"});
  require_choice(o.method, "method", {"kIda", "kAuto", "kBdf", "kAdams", "kErk"});
  require_choice(o.record_rows, "record_rows", {"kGrid", "kEventsOnly"});
  require_choice(o.log_level, "log_level", {"kOff", "kError", "kWarning", "kInfo", "kDebug"});
}

/// The first entry of output_times out of place, named with its index.
void check_output_times(const SimulationOptions& o) {
  if (o.output_times.empty()) return;
  if (o.output_interval_s) {
    throw OptionError(
        "SimulationOptions::output_times and output_interval_s are both set; the output times "
        "replace the grid, so set only one of them");
  }
  for (std::size_t i = 0; i < o.output_times.size(); ++i) {
    const double t = o.output_times[i];
    const std::string field = fmt::format("output_times[{}]", i);
    require(std::isfinite(t) && t >= o.start_s && t <= o.stop_s, field.c_str(),
            fmt::format("within [start_s, stop_s] = [{}, {}]", o.start_s, o.stop_s).c_str(), t);
    if (i > 0) {
      require(
          t > o.output_times[i - 1], field.c_str(),
          fmt::format("> output_times[{}] = {} (sorted, no repeats)", i - 1, o.output_times[i - 1])
              .c_str(),
          t);
    }
  }
}

void check_threads(int threads) {
  require(threads >= 0 && threads <= kMaxThreads, "threads",
          fmt::format("in [0, {}] (0 or 1: serial vectors; n > 1: OpenMP vectors with n threads)",
                      kMaxThreads)
              .c_str(),
          threads);
}

/// Interval, output grid and tolerances.
void check_interval_and_tolerances(const SimulationOptions& o) {
  require(std::isfinite(o.start_s), "start_s", "finite", o.start_s);
  require(std::isfinite(o.stop_s), "stop_s", "finite", o.stop_s);
  require(o.stop_s > o.start_s, "stop_s", fmt::format("> start_s ({})", o.start_s).c_str(),
          o.stop_s);
  const double resolution = time_resolution(o);
  // An interval within the time resolution has no room for a step (and one that overflows
  // none for output points).
  require(std::isfinite(o.stop_s - o.start_s) && o.stop_s - o.start_s > resolution, "stop_s",
          fmt::format("such that stop_s - start_s ({}) is finite and > the time resolution of "
                      "the run ({:.3g} s)",
                      o.stop_s - o.start_s, resolution)
              .c_str(),
          o.stop_s);
  if (o.output_interval_s) {
    const double dt = *o.output_interval_s;
    require(std::isfinite(dt) && dt > 0.0, "output_interval_s",
            "> 0 when set (unset selects (stop_s - start_s)/500)", dt);
    // Finer than the time resolution, consecutive output times would be the same double.
    require(dt >= resolution, "output_interval_s",
            fmt::format(">= the time resolution of the run ({:.3g} s)", resolution).c_str(), dt);
    require((o.stop_s - o.start_s) / dt <= kMaxOutputPoints, "output_interval_s",
            fmt::format(">= (stop_s - start_s) / {:.0e} (at most {:.0e} output points)",
                        kMaxOutputPoints, kMaxOutputPoints)
                .c_str(),
            dt);
  }
  require(o.rel_tol > 0.0 && o.rel_tol < 1.0, "rel_tol", "in (0, 1)", o.rel_tol);
  require(o.rel_tol >= kMinRelTol, "rel_tol",
          fmt::format(">= {:g} (IDA cannot meet a smaller relative tolerance in double precision)",
                      kMinRelTol)
              .c_str(),
          o.rel_tol);
  require(std::isfinite(o.abs_tol_factor) && o.abs_tol_factor > 0.0, "abs_tol_factor", "> 0",
          o.abs_tol_factor);
  check_output_times(o);
}

/// IDA's step, order and Newton controls, the restart policy, the sparse threshold, threads.
void check_integration(const SimulationOptions& o) {
  require(std::isfinite(o.max_step_s) && o.max_step_s >= 0.0, "max_step_s", ">= 0 (0: no limit)",
          o.max_step_s);
  require_step(o.max_step_s, "max_step_s", "no limit", o);
  require(o.max_steps_per_interval >= 1, "max_steps_per_interval", ">= 1",
          static_cast<double>(o.max_steps_per_interval));
  require(o.sparse_min_unknowns >= 1, "sparse_min_unknowns", ">= 1",
          static_cast<double>(o.sparse_min_unknowns));
  require(o.max_order >= 1 && o.max_order <= 5, "max_order", "in [1, 5]", o.max_order);
  require(o.nonlinear_convergence_coef > 0.0 && o.nonlinear_convergence_coef <= 1.0,
          "nonlinear_convergence_coef", "in (0, 1]", o.nonlinear_convergence_coef);
  require(std::isfinite(o.step_growth_threshold) && o.step_growth_threshold >= 1.0,
          "step_growth_threshold", ">= 1", o.step_growth_threshold);
  require(std::isfinite(o.initial_step_s) && o.initial_step_s >= 0.0, "initial_step_s",
          ">= 0 (0: IDA's own estimate)", o.initial_step_s);
  require_step(o.initial_step_s, "initial_step_s", "IDA's own estimate", o);
  check_threads(o.threads);
}

/// Event iteration, chattering rules, crossing guard, jumps and the wall-clock limit.
void check_events(const SimulationOptions& o) {
  require(o.max_event_iterations >= 1, "max_event_iterations", ">= 1", o.max_event_iterations);
  require(o.chattering_event_count >= 3, "chattering_event_count", ">= 3",
          o.chattering_event_count);
  require(o.chattering_min_relative_spacing >= 0.0 && o.chattering_min_relative_spacing <= 1e-3,
          "chattering_min_relative_spacing", "in [0, 1e-3] (0: rule off)",
          o.chattering_min_relative_spacing);
  require(o.chattering_dense_event_count >= 3, "chattering_dense_event_count", ">= 3",
          o.chattering_dense_event_count);
  require(o.chattering_dense_span_fraction >= 0.0 && o.chattering_dense_span_fraction < 1.0,
          "chattering_dense_span_fraction", "in [0, 1) (0: rule off)",
          o.chattering_dense_span_fraction);
  require(o.crossing_hysteresis > 0.0 && o.crossing_hysteresis <= 1e-3, "crossing_hysteresis",
          "in (0, 1e-3]", o.crossing_hysteresis);
  require(o.jump_tol_factor > 0.0 && o.jump_tol_factor <= 1.0, "jump_tol_factor", "in (0, 1]",
          o.jump_tol_factor);
  require(o.max_jump_iterations >= 1, "max_jump_iterations", ">= 1", o.max_jump_iterations);
  require(std::isfinite(o.max_wall_time_s) && o.max_wall_time_s >= 0.0, "max_wall_time_s",
          ">= 0 (0: no limit)", o.max_wall_time_s);
}

/// The file of sink k: named for kCsv and kHdf5, without NUL characters, none for kMemory.
void check_sink_file(const SinkSpec& sink, std::size_t k) {
  const std::string& file = sink.file.native();
  if (sink.kind == SinkKind::kMemory) {
    if (file.empty()) return;
    throw OptionError(fmt::format(
        "SimulationOptions::sinks[{}] is kMemory, which writes no file, but names the file '{}'", k,
        file));
  }
  const char* kind = sink.kind == SinkKind::kCsv ? "kCsv" : "kHdf5";
  if (file.empty()) {
    throw OptionError(fmt::format(
        "SimulationOptions::sinks[{}] is {} and must name a file, got an empty path", k, kind));
  }
  if (file.find('\0') != std::string::npos) {
    throw OptionError(fmt::format(
        "SimulationOptions::sinks[{}] names a file with a NUL character, which no file system "
        "accepts",
        k));
  }
}

/// The sinks: each well formed, the rows kept in memory once, and no file written by two
/// sinks (they would write the same temporary file and rename it twice).
void check_sinks(const std::vector<SinkSpec>& sinks) {
  for (std::size_t k = 0; k < sinks.size(); ++k) {
    require_choice(sinks[k].kind, fmt::format("sinks[{}].kind", k).c_str(),
                   {"kMemory", "kCsv", "kHdf5"});
    check_sink_file(sinks[k], k);
    for (std::size_t j = 0; j < k; ++j) {
      if (sinks[k].kind == SinkKind::kMemory && sinks[j].kind == SinkKind::kMemory) {
        throw OptionError(fmt::format(
            "SimulationOptions::sinks[{}] repeats sinks[{}]: the rows are kept in memory once", k,
            j));
      }
      if (sinks[k].kind != SinkKind::kMemory && sinks[j].kind != SinkKind::kMemory &&
          sinks[k].file.lexically_normal() == sinks[j].file.lexically_normal()) {
        throw OptionError(
            fmt::format("SimulationOptions::sinks[{}] writes the file '{}' of sinks[{}]; a file "
                        "holds the rows of one sink",
                        k, sinks[k].file.string(), j));
      }
    }
  }
}

/// Where rows go and which are recorded.
void check_recording(const SimulationOptions& o) {
  check_sinks(o.sinks);
  require(o.max_result_bytes > 0.0, "max_result_bytes", "> 0 (bytes of result table in memory)",
          o.max_result_bytes);
  require(o.record_every >= 1, "record_every", ">= 1 (1: every output point)",
          static_cast<double>(o.record_every));
  if (o.record_rows == RecordedRows::kEventsOnly && o.record_every != 1) {
    throw OptionError(fmt::format(
        "SimulationOptions::record_every is {} but record_rows is kEventsOnly, which records no "
        "output points to thin out",
        o.record_every));
  }
  for (const std::string& pattern : o.record_columns) {
    if (pattern.empty()) {
      throw OptionError("SimulationOptions::record_columns holds an empty name");
    }
  }
}

/// The combinations only IDA can do: sensitivities (integrated as unknowns of IDA's DAE) and
/// the sparse Newton matrix of KLU (CVODE's BDF takes a dense one).
void check_method(const SimulationOptions& o) {
  const bool ida = o.method == IntegrationMethod::kIda || o.method == IntegrationMethod::kAuto;
  if (ida) return;
  if (!o.sensitivities.empty()) {
    throw OptionError(fmt::format(
        "SimulationOptions::method {} cannot integrate sensitivities; use method ida or auto",
        to_string(o.method)));
  }
  if (o.linear_solver == LinearSolverKind::kKlu) {
    throw OptionError(fmt::format(
        "SimulationOptions::method {} does not take linear_solver kKlu (KLU is IDA's sparse "
        "Newton solver); use method ida or auto, or linear_solver kAuto",
        to_string(o.method)));
  }
}

/// The list of sensitivities: names the model is asked about when the run is created.
void check_sensitivities(const SimulationOptions& o) {
  for (std::size_t k = 0; k < o.sensitivities.size(); ++k) {
    const std::string& name = o.sensitivities[k];
    if (name.empty()) throw OptionError("SimulationOptions::sensitivities holds an empty name");
    if (std::find(o.sensitivities.begin(), o.sensitivities.begin() + static_cast<long>(k), name) !=
        o.sensitivities.begin() + static_cast<long>(k)) {
      throw OptionError(fmt::format("SimulationOptions::sensitivities names '{}' twice", name));
    }
  }
}

}  // namespace

void SimulationOptions::validate() const {
  check_choices(*this);
  check_interval_and_tolerances(*this);
  check_integration(*this);
  check_events(*this);
  check_recording(*this);
  check_sensitivities(*this);
  check_method(*this);
}

SinkSpec SinkSpec::parse(std::string_view text) {
  if (text == "memory") return memory();
  for (const auto& [prefix, kind] : {std::pair{std::string_view("csv:"), SinkKind::kCsv},
                                     std::pair{std::string_view("hdf5:"), SinkKind::kHdf5}}) {
    if (text.starts_with(prefix) && text.size() > prefix.size()) {
      return {.kind = kind, .file = std::filesystem::path(text.substr(prefix.size()))};
    }
  }
  throw OptionError(fmt::format(
      "SimulationOptions::sinks entry must be 'memory', 'csv:<file>' or 'hdf5:<file>', got '{}'",
      text));
}

std::string to_string(const SinkSpec& sink) {
  switch (sink.kind) {
    case SinkKind::kMemory:
      return "memory";
    case SinkKind::kCsv:
      return "csv:" + sink.file.string();
    case SinkKind::kHdf5:
      return "hdf5:" + sink.file.string();
  }
  return fmt::format("kind {}:{}", static_cast<int>(sink.kind), sink.file.string());
}

namespace {

constexpr std::array<std::pair<std::string_view, IntegrationMethod>, 5> kMethodNames{{
    {"ida", IntegrationMethod::kIda},
    {"auto", IntegrationMethod::kAuto},
    {"bdf", IntegrationMethod::kBdf},
    {"adams", IntegrationMethod::kAdams},
    {"erk", IntegrationMethod::kErk},
}};

}  // namespace

const char* to_string(IntegrationMethod method) {
  for (const auto& [name, m] : kMethodNames) {
    if (m == method) return name.data();
  }
  return "unknown";
}

IntegrationMethod parse_integration_method(std::string_view name) {
  for (const auto& [text, m] : kMethodNames) {
    if (text == name) return m;
  }
  throw OptionError(fmt::format(
      "SimulationOptions::method must be one of 'ida', 'auto', 'bdf', 'adams', 'erk', got '{}'",
      name));
}

double SimulationOptions::resolved_output_interval_s() const {
  return output_interval_s.value_or((stop_s - start_s) / 500.0);
}

}  // namespace hdae
