// hdae-bench-higher-index: what a model of index 3 reduced by hdae costs against the same
// mechanics reduced by hand or written in minimal coordinates, at equal accuracy
// (docs/benchmarks.md, "Higher index"). Four pairs:
//   car axis         make_car_axis()                   vs CarAxisIndex1 (index 1 by hand)
//   Andrews          make_andrews_squeezer()           vs AndrewsSqueezerIndex1 (by hand)
//   pendulum         make_cartesian_pendulum()         vs Pendulum (ODE in the angle)
//   double pendulum  make_double_cartesian_pendulum()  vs DoublePendulum (ODE in the angles)
// Each form runs with default SimulationOptions (only stop_s, rel_tol and output_interval_s
// set) over a sweep of rel_tol; CPU time, IDA's counters and the error against a known answer
// are recorded per tolerance. Then, for the error the hand form reaches at rel_tol 1e-6, 1e-8
// and 1e-10, the reduced form's CPU time to reach the same error is interpolated on its sweep
// (linear in log(error) against log(CPU time)) and divided by the hand form's.
//
// Usage: hdae-bench-higher-index [--smoke] [--rounds 7] [--min-sample-s 0.05]
//   --rounds        timed rounds per form and tolerance (the two forms alternate); the least
//   --min-sample-s  a timed sample repeats a short run until it takes this long
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "hdae/models/andrews_squeezer.hpp"
#include "hdae/models/car_axis.hpp"
#include "hdae/models/cartesian_pendulum.hpp"
#include "hdae/models/double_pendulum.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "support/arguments.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = std::numbers::pi;

constexpr double kAndrewsStopS = 0.03;

/// The car axis's positions and velocities; their reference values at t = 3 s are the first
/// eight of models::kCarAxisReference, the IVP test set's solution (problem "caraxis", RADAU5
/// at tight tolerances; models/car_axis.hpp and tests/reduction/test_car_axis.cpp).
constexpr std::array<std::string_view, 8> kCarAxisNames = {"xl", "yl", "xr", "yr",
                                                           "ul", "vl", "ur", "vr"};
constexpr double kCarAxisStopS = 3.0;

constexpr double kPendulumStopS = 10.0;
/// Chaos makes the double pendulum's error grow without bound: 2 s keep it an accuracy.
constexpr double kDoublePendulumStopS = 2.0;
constexpr double kGridS = 0.01;
constexpr double kReferenceRelTol = 1e-12;

/// The hand form's tolerances at which the equal-accuracy ratio is taken.
constexpr std::array<double, 3> kEqualAccuracyTolerances = {1e-6, 1e-8, 1e-10};

using ModelFactory = std::function<std::unique_ptr<SimulationModel>()>;

/// The error of one run against the pair's known answer; NaN when the run did not finish.
using ErrorMeasure = std::function<double(const SimulationResult&)>;

struct Pair {
  std::string title;
  std::string reduced_name;
  std::string hand_name;
  ModelFactory reduced;
  ModelFactory hand;
  double stop_s = 1.0;
  double output_interval_s = 1.0;
  ErrorMeasure error;
  std::string error_label;
  bool conserves_energy = false;  ///< the output "energy" is exactly 0 all along
  double target_ratio = 1.0;      ///< at most this reduced / hand at equal accuracy
};

SimulationOptions options_for(const Pair& pair, double rel_tol) {
  SimulationOptions o;
  o.stop_s = pair.stop_s;
  o.rel_tol = rel_tol;
  o.output_interval_s = pair.output_interval_s;
  return o;
}

bool reached_stop(const SimulationResult& r, double stop_s) {
  return r.status.ok() && r.table.num_rows() > 0 && r.table.time(r.table.num_rows() - 1) == stop_s;
}

/// A column's values on the output grid of spacing grid_s: at an event on the grid the right
/// limit (the second of the two rows), event rows off the grid skipped.
std::vector<double> on_grid(const ResultTable& t, std::string_view column, double grid_s) {
  const std::size_t c = t.column_index(column);
  std::vector<double> values;
  for (std::size_t k = 0; k < t.num_rows(); ++k) {
    if (k + 1 < t.num_rows() && t.time(k + 1) == t.time(k)) continue;  // left limit
    const double g = std::round(t.time(k) / grid_s) * grid_s;
    if (std::abs(t.time(k) - g) > 1e-12) continue;  // an event row between grid times
    values.push_back(t.value(k, c));
  }
  return values;
}

/// max_k |a_k - b_k| of two angles taken modulo 2 pi: atan2's angles lie in (-pi, pi], the
/// angle forms' are their variables, not wrapped.
double angle_error(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return kNaN;
  double worst = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    worst = std::max(worst, std::abs(std::remainder(a[k] - b[k], 2.0 * kPi)));
  }
  return worst;
}

double max_abs(const std::vector<double>& values) {
  double worst = 0.0;
  for (const double v : values) worst = std::max(worst, std::abs(v));
  return worst;
}

/// max over the columns of |y - y_ref| / (1 + |y_ref|) at the run's end, NaN when the run did not
/// reach stop_s.
template <class Names>
double end_error(const SimulationResult& r, double stop_s, const Names& names,
                 std::span<const double> reference) {
  if (!reached_stop(r, stop_s)) return kNaN;
  double worst = 0.0;
  for (std::size_t j = 0; j < names.size(); ++j) {
    const double ref = reference[j];
    worst = std::max(worst, std::abs(r.table.final_value(names[j]) - ref) / (1.0 + std::abs(ref)));
  }
  return worst;
}

Pair car_axis() {
  Pair p;
  p.title = "Car axis";
  p.reduced_name = "CarAxis, index 3, reduced by hdae";
  p.hand_name = "CarAxisIndex1, index 1 by hand";
  p.reduced = [] { return std::unique_ptr<SimulationModel>(models::make_car_axis()); };
  p.hand = [] {
    return std::unique_ptr<SimulationModel>(std::make_unique<models::CarAxisIndex1>());
  };
  p.stop_s = kCarAxisStopS;
  p.output_interval_s = kCarAxisStopS;  // the error is taken at the end only
  p.error = [](const SimulationResult& r) {
    return end_error(r, kCarAxisStopS, kCarAxisNames, models::kCarAxisReference);
  };
  p.error_label = "max |y - y_ref| / (1 + |y_ref|) over the 8 positions and velocities at t = 3 s";
  p.target_ratio = 3.0;
  return p;
}

Pair andrews() {
  Pair p;
  p.title = "Andrews' squeezer";
  p.reduced_name = "AndrewsSqueezer, index 3, reduced by hdae";
  p.hand_name = "AndrewsSqueezerIndex1, index 1 by hand";
  p.reduced = [] { return std::unique_ptr<SimulationModel>(models::make_andrews_squeezer()); };
  p.hand = [] {
    return std::unique_ptr<SimulationModel>(std::make_unique<models::AndrewsSqueezerIndex1>());
  };
  p.stop_s = kAndrewsStopS;
  p.output_interval_s = kAndrewsStopS;
  p.error = [](const SimulationResult& r) {
    return end_error(r, kAndrewsStopS, models::andrews_squeezer::kAngleNames,
                     models::andrews_squeezer::kReferenceAngles);
  };
  p.error_label = "max |q - q_ref| / (1 + |q_ref|) over the 7 angles at t = 0.03 s";
  p.target_ratio = 3.0;
  return p;
}

Pair pendulum() {
  models::PendulumParameters angle;
  angle.phi0_rad = kPi / 2.0;  // the Cartesian pendulum's default start: at rest, horizontal
  Pair p;
  p.title = "Pendulum";
  p.reduced_name = "CartesianPendulum, index 3, reduced by hdae";
  p.hand_name = "Pendulum, ODE in the angle";
  p.reduced = [] { return std::unique_ptr<SimulationModel>(models::make_cartesian_pendulum()); };
  p.hand = [angle] {
    return std::unique_ptr<SimulationModel>(std::make_unique<models::Pendulum>(angle));
  };
  p.stop_s = kPendulumStopS;
  p.output_interval_s = kGridS;
  models::Pendulum reference_model(angle);
  const SimulationResult reference = simulate(reference_model, options_for(p, kReferenceRelTol));
  if (!reached_stop(reference, kPendulumStopS)) {
    throw std::runtime_error("the pendulum's reference run failed: " + reference.status.message);
  }
  const std::vector<double> phi_ref = on_grid(reference.table, "phi", kGridS);
  p.error = [phi_ref](const SimulationResult& r) {
    if (!reached_stop(r, kPendulumStopS)) return kNaN;
    return angle_error(on_grid(r.table, "phi", kGridS), phi_ref);
  };
  p.error_label = "max |phi - phi_ref| (rad) on the 0.01 s grid over 10 s";
  p.target_ratio = 5.0;
  return p;
}

Pair double_pendulum() {
  Pair p;
  p.title = "Double pendulum";
  p.reduced_name = "DoubleCartesianPendulum, index 3, reduced by hdae";
  p.hand_name = "DoublePendulum, ODE in the angles";
  p.reduced = [] {
    return std::unique_ptr<SimulationModel>(models::make_double_cartesian_pendulum());
  };
  p.hand = [] {
    return std::unique_ptr<SimulationModel>(std::make_unique<models::DoublePendulum>());
  };
  p.stop_s = kDoublePendulumStopS;
  p.output_interval_s = kGridS;
  models::DoublePendulum reference_model;
  const SimulationResult reference = simulate(reference_model, options_for(p, kReferenceRelTol));
  if (!reached_stop(reference, kDoublePendulumStopS)) {
    throw std::runtime_error("the double pendulum's reference run failed: " +
                             reference.status.message);
  }
  const std::vector<double> phi1_ref = on_grid(reference.table, "phi1", kGridS);
  const std::vector<double> phi2_ref = on_grid(reference.table, "phi2", kGridS);
  p.error = [phi1_ref, phi2_ref](const SimulationResult& r) {
    if (!reached_stop(r, kDoublePendulumStopS)) return kNaN;
    return std::max(angle_error(on_grid(r.table, "phi1", kGridS), phi1_ref),
                    angle_error(on_grid(r.table, "phi2", kGridS), phi2_ref));
  };
  p.error_label = "max |phi1 - phi1_ref|, |phi2 - phi2_ref| (rad) on the 0.01 s grid over 2 s";
  p.conserves_energy = true;
  p.target_ratio = 5.0;
  return p;
}

/// One form at one tolerance: IDA's counters and the error (the same in every round), the
/// CPU seconds of one run in each round.
struct Measurement {
  double rel_tol = 0.0;
  Statistics statistics;
  bool finished = false;  ///< reached the stop time
  std::string status;     ///< how the run ended, with the time for a failure
  double error = kNaN;
  double energy_error = kNaN;  ///< max |energy| over the rows, J (exact value 0)
  std::size_t calls_per_sample = 1;
  std::vector<double> cpu_s;        ///< per run, one entry per round
  std::vector<double> build_cpu_s;  ///< constructing the model (for the reduced form: the
                                    ///< analysis and the reduction), per round

  [[nodiscard]] double least_cpu_s() const { return minimum(cpu_s); }
};

/// First run of a form at a tolerance: the counters, the error, and how many runs one timed
/// sample needs to last min_sample_s.
Measurement first_run(const Pair& pair, const ModelFactory& make, double rel_tol,
                      double min_sample_s) {
  Measurement m;
  m.rel_tol = rel_tol;
  auto model = make();
  const double start = thread_cpu_seconds();
  const SimulationResult r = simulate(*model, options_for(pair, rel_tol));
  const double once_s = std::max(thread_cpu_seconds() - start, 1e-9);
  m.statistics = r.statistics;
  m.finished = r.status.ok();
  m.status = m.finished
                 ? std::string(to_string(r.status.outcome))
                 : fmt::format("{} at t = {:.3g} s", to_string(r.status.outcome), r.status.t);
  m.error = pair.error(r);
  if (pair.conserves_energy && r.status.ok()) m.energy_error = max_abs(r.table.column("energy"));
  m.calls_per_sample = static_cast<std::size_t>(std::max(1.0, std::ceil(min_sample_s / once_s)));
  return m;
}

/// One timed sample: calls_per_sample fresh models (built outside the timer), each run once.
void timed_sample(const Pair& pair, const ModelFactory& make, Measurement& m) {
  std::vector<std::unique_ptr<SimulationModel>> models(m.calls_per_sample);
  const double build_start = thread_cpu_seconds();
  for (auto& model : models) model = make();
  m.build_cpu_s.push_back((thread_cpu_seconds() - build_start) /
                          static_cast<double>(m.calls_per_sample));
  const SimulationOptions o = options_for(pair, m.rel_tol);
  std::size_t runs = 0;
  const double start = thread_cpu_seconds();
  for (auto& model : models) {
    ++runs;
    // A failed run is the same every time: its time to the failure is timed once.
    if (!simulate(*model, o).status.ok()) break;
  }
  m.cpu_s.push_back((thread_cpu_seconds() - start) / static_cast<double>(runs));
}

struct Sweep {
  std::vector<Measurement> reduced;  ///< by tolerance, loosest first
  std::vector<Measurement> hand;
};

Sweep sweep(const Pair& pair, const std::vector<double>& tolerances, std::size_t rounds,
            double min_sample_s) {
  Sweep s;
  for (const double tol : tolerances) {
    s.reduced.push_back(first_run(pair, pair.reduced, tol, min_sample_s));
    s.hand.push_back(first_run(pair, pair.hand, tol, min_sample_s));
  }
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < tolerances.size(); ++k) {
      // The two forms alternate, the order swapped every round and every tolerance.
      if ((round + k) % 2 == 0) {
        timed_sample(pair, pair.reduced, s.reduced[k]);
        timed_sample(pair, pair.hand, s.hand[k]);
      } else {
        timed_sample(pair, pair.hand, s.hand[k]);
        timed_sample(pair, pair.reduced, s.reduced[k]);
      }
    }
  }
  return s;
}

/// The reduced form's CPU time at a given error, from its sweep.
struct AtEqualAccuracy {
  enum class Kind {
    kInterpolated,  ///< between two tolerances of the sweep whose errors bracket it
    kAtMost,        ///< the sweep's loosest run is already as accurate: its time bounds it
    kMoreThan,      ///< no run of the sweep is as accurate: more than the tightest run's time
    kNone,          ///< no finished run
  };
  Kind kind = Kind::kNone;
  double cpu_s = kNaN;
  double looser_tol = kNaN;  ///< the bracketing tolerances (kInterpolated)
  double tighter_tol = kNaN;
};

AtEqualAccuracy reduced_time_at(const std::vector<Measurement>& sweep, double error) {
  std::vector<const Measurement*> runs;
  for (const Measurement& m : sweep) {
    if (std::isfinite(m.error) && m.error > 0.0 && std::isfinite(m.least_cpu_s())) {
      runs.push_back(&m);
    }
  }
  AtEqualAccuracy a;
  if (runs.empty() || !(error > 0.0)) return a;
  if (runs.front()->error <= error) {
    a.kind = AtEqualAccuracy::Kind::kAtMost;
    a.cpu_s = runs.front()->least_cpu_s();
    return a;
  }
  // The first pair of neighbouring tolerances whose errors bracket the target: linear in
  // log(error) against log(CPU time) between them.
  for (std::size_t k = 0; k + 1 < runs.size(); ++k) {
    const Measurement& looser = *runs[k];
    const Measurement& tighter = *runs[k + 1];
    if (looser.error >= error && tighter.error <= error) {
      const double le0 = std::log(looser.error);
      const double le1 = std::log(tighter.error);
      const double lc0 = std::log(looser.least_cpu_s());
      const double lc1 = std::log(tighter.least_cpu_s());
      const double w = le0 == le1 ? 1.0 : (std::log(error) - le0) / (le1 - le0);
      a.kind = AtEqualAccuracy::Kind::kInterpolated;
      a.cpu_s = std::exp(lc0 + w * (lc1 - lc0));
      a.looser_tol = looser.rel_tol;
      a.tighter_tol = tighter.rel_tol;
      return a;
    }
  }
  a.kind = AtEqualAccuracy::Kind::kMoreThan;
  a.cpu_s = runs.back()->least_cpu_s();
  return a;
}

std::string format_tol(double tol) { return fmt::format("{:.0e}", tol); }

/// Ratios with two decimals, so that one just above a target does not print as the target.
std::string format_two_decimals(double r) {
  return std::isfinite(r) ? fmt::format("{:.2f}", r) : "n/a";
}

std::string format_error(double e) { return std::isfinite(e) ? fmt::format("{:.2e}", e) : "n/a"; }

std::string sweep_table(const Pair& pair, const Sweep& s) {
  std::vector<std::string> headers = {"rel_tol",
                                      "form",
                                      "steps",
                                      "residuals",
                                      "Jacobians",
                                      "error-test failures",
                                      "Newton convergence failures",
                                      "error",
                                      "CPU s"};
  if (pair.conserves_energy) headers.insert(headers.end() - 1, "max abs(energy) J");
  MarkdownTable table(std::move(headers));
  for (std::size_t k = 0; k < s.reduced.size(); ++k) {
    for (const auto* m : {&s.reduced[k], &s.hand[k]}) {
      std::vector<std::string> row = {format_tol(m->rel_tol),
                                      m == &s.reduced[k] ? pair.reduced_name : pair.hand_name,
                                      std::to_string(m->statistics.steps),
                                      std::to_string(m->statistics.residual_evaluations),
                                      std::to_string(m->statistics.jacobian_evaluations),
                                      std::to_string(m->statistics.error_test_failures),
                                      std::to_string(m->statistics.convergence_failures),
                                      m->finished ? format_error(m->error) : "failed: " + m->status,
                                      fmt::format("{:.5f}", m->least_cpu_s())};
      if (pair.conserves_energy) row.insert(row.end() - 1, format_error(m->energy_error));
      table.add_row(std::move(row));
    }
  }
  return table.str();
}

struct RatioRow {
  double hand_tol = 0.0;
  AtEqualAccuracy reduced;
  double ratio = kNaN;
};

std::vector<RatioRow> equal_accuracy(const Sweep& s) {
  std::vector<RatioRow> rows;
  for (const double tol : kEqualAccuracyTolerances) {
    const auto hand = std::find_if(s.hand.begin(), s.hand.end(),
                                   [tol](const Measurement& m) { return m.rel_tol == tol; });
    if (hand == s.hand.end()) continue;
    RatioRow row;
    row.hand_tol = tol;
    row.reduced = reduced_time_at(s.reduced, hand->error);
    row.ratio = row.reduced.cpu_s / hand->least_cpu_s();
    rows.push_back(row);
  }
  return rows;
}

/// "2.31", "<= 2.31" or "> 2.31" by how the reduced form's time was found.
std::string qualified(double value, AtEqualAccuracy::Kind kind,
                      const std::function<std::string(double)>& format) {
  switch (kind) {
    case AtEqualAccuracy::Kind::kInterpolated:
      return format(value);
    case AtEqualAccuracy::Kind::kAtMost:
      return "<= " + format(value);
    case AtEqualAccuracy::Kind::kMoreThan:
      return "> " + format(value);
    case AtEqualAccuracy::Kind::kNone:
      break;
  }
  return "n/a";
}

std::string how(const AtEqualAccuracy& a) {
  switch (a.kind) {
    case AtEqualAccuracy::Kind::kInterpolated:
      return fmt::format("interpolated between rel_tol {} and {}", format_tol(a.looser_tol),
                         format_tol(a.tighter_tol));
    case AtEqualAccuracy::Kind::kAtMost:
      return "reached at the loosest rel_tol already";
    case AtEqualAccuracy::Kind::kMoreThan:
      return "not reached in the sweep";
    case AtEqualAccuracy::Kind::kNone:
      break;
  }
  return "no finished run";
}

std::string ratio_table(const Sweep& s, const std::vector<RatioRow>& rows) {
  MarkdownTable table({"hand form's rel_tol", "its error", "its CPU s",
                       "reduced CPU s at that error", "reduced / hand", "how"});
  const auto seconds = [](double v) { return fmt::format("{:.5f}", v); };
  for (const RatioRow& row : rows) {
    const auto hand = std::find_if(s.hand.begin(), s.hand.end(), [&row](const Measurement& m) {
      return m.rel_tol == row.hand_tol;
    });
    table.add_row({format_tol(row.hand_tol), format_error(hand->error),
                   seconds(hand->least_cpu_s()),
                   qualified(row.reduced.cpu_s, row.reduced.kind, seconds),
                   qualified(row.ratio, row.reduced.kind, format_two_decimals), how(row.reduced)});
  }
  return table.str();
}

/// "car axis: worst reduced / hand at equal accuracy 1.8 (hand rel_tol 1e-10); target <= 3:
/// met; building the reduced model 4.1 ms (not in the CPU times)".
std::string summary_line(const Pair& pair, const Sweep& s, const std::vector<RatioRow>& rows) {
  const RatioRow* worst = nullptr;
  for (const RatioRow& row : rows) {
    if (!std::isfinite(row.ratio)) continue;
    if (worst == nullptr || row.ratio > worst->ratio) worst = &row;
  }
  std::vector<double> build;
  for (const Measurement& m : s.reduced)
    build.insert(build.end(), m.build_cpu_s.begin(), m.build_cpu_s.end());
  const std::string building = fmt::format(
      "building the reduced model (analysis, reduction, "
      "consistent start) {} CPU, not in the times above",
      format_seconds(minimum(build)));
  if (worst == nullptr) {
    return fmt::format("- {}: no equal-accuracy ratio (no finished run); {}.", pair.title,
                       building);
  }
  std::string verdict;
  const bool below = worst->ratio <= pair.target_ratio;
  switch (worst->reduced.kind) {
    case AtEqualAccuracy::Kind::kInterpolated:
      verdict = below ? "met" : "**not met**";
      break;
    case AtEqualAccuracy::Kind::kAtMost:
      verdict = below ? "met" : "not decided (an upper bound above the target)";
      break;
    case AtEqualAccuracy::Kind::kMoreThan:
      verdict = below ? "not decided (a lower bound below the target)" : "**not met**";
      break;
    case AtEqualAccuracy::Kind::kNone:
      break;
  }
  return fmt::format(
      "- {}: worst reduced / hand at equal accuracy {} (at the hand form's rel_tol {}); target "
      "<= {}: {}; {}.",
      pair.title, qualified(worst->ratio, worst->reduced.kind, format_two_decimals),
      format_tol(worst->hand_tol), format_ratio(pair.target_ratio), verdict, building);
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const auto rounds = static_cast<std::size_t>(args.number("--rounds", smoke ? 1 : 7));
  const double min_sample_s = args.number("--min-sample-s", smoke ? 0.0 : 0.05);
  const std::vector<double> tolerances =
      smoke ? std::vector<double>{1e-5, 1e-6}
            : std::vector<double>{1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  std::vector<std::string> summary;
  for (const auto make : {car_axis, andrews, pendulum, double_pendulum}) {
    const Pair pair = make();
    const Sweep s = sweep(pair, tolerances, rounds, min_sample_s);
    const std::vector<RatioRow> rows = equal_accuracy(s);
    std::cout << "### " << pair.title << "\n\n"
              << pair.reduced_name << " against " << pair.hand_name
              << "; error: " << pair.error_label << ".\n\n"
              << sweep_table(pair, s) << "\n"
              << ratio_table(s, rows) << "\n";
    summary.push_back(summary_line(pair, s, rows));
  }
  std::cout << "Summary:\n\n";
  for (const std::string& line : summary) std::cout << line << "\n";
  return 0;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-higher-index", argc, argv, hdae::bench::run);
}
