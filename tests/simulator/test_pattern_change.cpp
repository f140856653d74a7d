// A model that replaces its sparsity pattern at an event (EventContext::sparsity_changed): the
// state row of u reads other unknowns after the switch, as an index-reduced model's state rows
// do when its choice of states changes. Checked against the closed-form solution, on the KLU
// path (analytic and coloured difference Jacobians), after a history shift, a restart and a
// continuation without restart, and on the dense path; and the misuses, with their messages.
#include <cmath>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// What the handler does at the switch.
enum class Change {
  kStateRow,     ///< the state row reads other unknowns: new pattern, reformulated()
  kWidenOnly,    ///< the rows stay, the pattern gains the entries of the other state row
  kOutOfRange,   ///< misuse: an entry beyond the residual
  kDropPattern,  ///< misuse: no pattern after one
  kGainPattern,  ///< misuse: a pattern after none
};

/// What announces the switch at t_switch.
enum class Trigger { kCrossing, kTimeEvent, kNever };

struct SwitchSetup {
  Change change = Change::kStateRow;
  Trigger trigger = Trigger::kCrossing;
  bool analytic_jacobian = false;
  /// The unknowns the state row reads after the switch (y[1] before it).
  std::vector<std::size_t> after = {1, 2};
};

constexpr std::size_t kDecays = 59;  // y[1] .. y[59]; with u, 60 unknowns
constexpr std::size_t kU = kDecays;  // u's index and its state row's
constexpr double kRate = 1.0;        // 1/s, of y[1], y[2] and y[3]
constexpr double kSwitchS = 1.0;
constexpr double kStopS = 3.0;

/// 59 decays y_k' = -a_k y_k, y_k(0) = y0_k, and u' = y_1, u(0) = 0. y[1], y[2] and y[3]
/// decay at one rate, so y_1 = c (y_2 + y_3) with c = y0_1 / (y0_2 + y0_3) at every t: the
/// state row der(u) = y[1] and der(u) = c (y[2] + y[3]) state the same solution, and the switch
/// between them is a reformulation. Exactly, y_k = y0_k exp(-a_k t) and
/// u = y0_1 (1 - exp(-a t)) / a on both sides of the switch.
class SwitchedStateRow final : public SimulationModel {
 public:
  explicit SwitchedStateRow(SwitchSetup setup) : setup_(std::move(setup)) {
    structure_.name = "switched_state_row";
    for (std::size_t k = 0; k < kDecays; ++k) {
      const std::string name = "y[" + std::to_string(k + 1) + "]";
      structure_.variables.add({.name = name, .start = start(k)});
      structure_.equations.add({"der(" + name + ") = -a*" + name, RowKind::kDifferential});
    }
    structure_.variables.add({.name = "u", .start = 0.0});
    structure_.equations.add({"der(u) = y[1], later another state row", RowKind::kDifferential});
    structure_.crossings.push_back({.name = "switch_crossing"});
    structure_.time_events.push_back({.name = "switch_time"});
    reset();
  }

  [[nodiscard]] const ModelStructure& structure() const override { return structure_; }

  static double rate(std::size_t k) { return k < 3 ? kRate : 0.2 + 0.05 * static_cast<double>(k); }
  static double start(std::size_t k) { return k == 1 ? 0.5 : k == 2 ? 1.5 : 1.0; }

  void evaluate(Evaluation& e) override {
    for (std::size_t k = 0; k < kDecays; ++k) {
      e.set(Eq{k}, e.der(Var{k}) + rate(k) * e.x(Var{k}));
    }
    double reads = 0.0;
    for (const auto& [j, weight] : state_row()) reads += weight * e.x(Var{j});
    e.set(Eq{kU}, e.der(Var{kU}) - reads);
    const double t_cross = setup_.trigger == Trigger::kCrossing ? kSwitchS : 100.0 * kStopS;
    e.positive(Crossing{0}, e.t() - t_cross);
  }

  void on_event(EventContext& event) override {
    if (event.is_initial()) {
      if (event.pass() == 1 && setup_.trigger == Trigger::kTimeEvent) {
        event.schedule(TimeEvent{0}, kSwitchS);
      }
      return;
    }
    const bool due =
        setup_.trigger == Trigger::kCrossing ? event.rose(Crossing{0}) : event.fired(TimeEvent{0});
    if (!due) return;
    switch (setup_.change) {
      case Change::kStateRow:
        switched_ = true;
        structure_.sparsity = pattern(state_row());
        event.reformulated();
        break;
      case Change::kWidenOnly:
        structure_.sparsity = pattern(both_state_rows());
        break;
      case Change::kOutOfRange:
        structure_.sparsity.add({kU, kU + 1});
        break;
      case Change::kDropPattern:
        structure_.sparsity.clear();
        break;
      case Change::kGainPattern:
        structure_.sparsity = pattern(state_row());
        break;
    }
    event.sparsity_changed();
  }

  [[nodiscard]] bool provides_jacobian() const override { return setup_.analytic_jacobian; }
  void jacobian(double /*t*/, double cj, std::span<const double> /*x*/,
                std::span<const double> /*der_x*/, JacobianEntries& entries) override {
    for (std::size_t k = 0; k < kDecays; ++k) entries.add(Eq{k}, Var{k}, cj + rate(k));
    entries.add(Eq{kU}, Var{kU}, cj);
    for (const auto& [j, weight] : state_row()) entries.add(Eq{kU}, Var{j}, -weight);
  }

  void reset() override {
    switched_ = false;
    structure_.sparsity = pattern(state_row());
    if (setup_.change == Change::kGainPattern) structure_.sparsity.clear();
  }

  /// The closed form (see the class comment).
  [[nodiscard]] static double exact_y(std::size_t k, double t) {
    return start(k) * std::exp(-rate(k) * t);
  }
  [[nodiscard]] static double exact_u(double t) {
    return start(0) * (1.0 - std::exp(-kRate * t)) / kRate;
  }

 private:
  using Reads = std::vector<std::pair<std::size_t, double>>;

  /// The unknowns the state row reads now, with their weights.
  [[nodiscard]] Reads state_row() const {
    if (!switched_) return {{0, 1.0}};
    double sum = 0.0;
    for (const std::size_t j : setup_.after) sum += start(j);
    Reads reads;
    for (const std::size_t j : setup_.after) reads.emplace_back(j, start(0) / sum);
    return reads;
  }
  [[nodiscard]] Reads both_state_rows() const {
    Reads reads{{0, 1.0}};
    for (const std::size_t j : setup_.after) reads.emplace_back(j, 1.0);
    return reads;
  }
  /// The decays' diagonal entries and u's row.
  [[nodiscard]] static SparsityTable pattern(const Reads& state_row) {
    SparsityTable s;
    for (std::size_t k = 0; k <= kDecays; ++k) s.add({k, k});
    for (const auto& [j, weight] : state_row) s.add({kU, j});
    return s;
  }

  SwitchSetup setup_;
  ModelStructure structure_;
  bool switched_ = false;
};

SimulationOptions switch_options(LinearSolverKind solver = LinearSolverKind::kKlu) {
  SimulationOptions o;
  o.stop_s = kStopS;
  o.rel_tol = 1e-8;
  o.output_interval_s = 0.05;
  o.linear_solver = solver;
  return o;
}

/// Every row of u and of the three decays the state row reads, against the closed form.
/// Tolerance: 100 rel_tol relative to the start values (1), the global error BDF leaves over
/// the 3 time constants of y[1], y[2], y[3] (errors of steps add up, each below rel_tol).
void check_closed_form(const SimulationResult& r) {
  const ResultTable& table = r.table;
  const std::vector<double> u = table.column("u");
  const std::size_t y[] = {0, 1, 2};
  for (std::size_t row = 0; row < table.num_rows(); ++row) {
    const double t = table.time(row);
    CHECK(u[row] == doctest::Approx(SwitchedStateRow::exact_u(t)).epsilon(1e-6).scale(1.0));
    for (const std::size_t k : y) {
      const double value = table.value(row, table.column_index("y[" + std::to_string(k + 1) + "]"));
      CHECK(value == doctest::Approx(SwitchedStateRow::exact_y(k, t)).epsilon(1e-6).scale(1.0));
    }
  }
  CHECK(table.time().back() == kStopS);
}

/// A run without the switch: what IDA's steps cost when nothing happens.
Statistics plain_run(bool analytic_jacobian) {
  SwitchedStateRow model({.trigger = Trigger::kNever, .analytic_jacobian = analytic_jacobian});
  const SimulationResult r = simulate(model, switch_options());
  REQUIRE(r.status.ok());
  return r.statistics;
}

/// SUNLinSol_KLUReInit freed KLU's factors of the old pattern; a Newton iteration that solved
/// without them would fail (klu_solve refuses) and count a convergence failure, after which
/// IDA sets up anyway. IDA sets up first (force_linear_setup): none beyond the run without
/// the switch.
void check_set_up_before_solving(const Statistics& run, const Statistics& plain) {
  CHECK(run.convergence_failures == plain.convergence_failures);
  CHECK(run.ida_nsetups > 0);
}

/// The ModelError a run ends with (nested in the RunError the run throws), or "".
std::string model_error_of(SwitchedStateRow& model, const SimulationOptions& options) {
  try {
    static_cast<void>(simulate(model, options));
  } catch (const RunError& e) {
    try {
      std::rethrow_if_nested(e);
    } catch (const ModelError& inner) {
      return inner.what();
    } catch (...) {
      return "not a ModelError";
    }
  }
  return "";
}

/// The state row's switch with the KLU path, the model's Jacobian or coloured differences.
void check_switch_keeps_history(bool analytic_jacobian) {
  SwitchedStateRow model({.analytic_jacobian = analytic_jacobian});
  const SimulationResult r = simulate(model, switch_options());
  REQUIRE(r.status.ok());
  check_closed_form(r);
  REQUIRE(r.events.size() == 2);  // t0 and the switch
  CHECK(r.events[1].kind == EventKind::kState);
  // IDA's root finder stops within about 100 unit roundoffs of t_switch (its ttol): 1e-10 is
  // far above that, far below any step.
  CHECK(r.events[1].t == doctest::Approx(kSwitchS).epsilon(1e-10));
  CHECK(r.events[1].note == "sparsity pattern changed");
  // KLU (colours are counted on the sparse path only), over the new pattern: u's row reads
  // y[2] and y[3], so u, y[2] and y[3] share a row and need three colours (two before).
  CHECK(r.statistics.jacobian_colors == 3);
  CHECK(r.statistics.restarts == 1);     // the start at t0 only: IDA kept its history
  CHECK(r.statistics.jump_solves == 1);  // at t0: the reformulation needs none
  // The step that found the root is taken again from the switch, and IDA grows its step from
  // that one: a few steps more than without the event, where a restart costs tens (order 1
  // and a tiny first step; docs/design.md, "Restarts").
  const Statistics plain = plain_run(analytic_jacobian);
  CHECK(r.statistics.steps <= plain.steps + 5);
  check_set_up_before_solving(r.statistics, plain);
}

}  // namespace

TEST_CASE("a switched state row with a new pattern keeps IDA's history: coloured differences") {
  check_switch_keeps_history(false);
}

TEST_CASE("a switched state row with a new pattern keeps IDA's history: analytic Jacobian") {
  // The model's entries of u's row after the switch lie outside the old pattern: IdaIntegrator
  // refuses them unless it took the new one.
  check_switch_keeps_history(true);
}

TEST_CASE("a new pattern with as many entries as the old one is taken over too") {
  // u's row reads y[2] instead of y[1]: KLU is re-analysed without a new matrix size.
  SwitchedStateRow model({.after = {1}});
  const SimulationResult r = simulate(model, switch_options());
  REQUIRE(r.status.ok());
  check_closed_form(r);
  CHECK(r.statistics.restarts == 1);
  CHECK(r.statistics.jacobian_colors == 2);
}

TEST_CASE("a new pattern at a time event that restarts IDA is the restarted IDA's") {
  // A reformulation at a time event restarts IDA (only state events shift its history), here
  // with the new pattern.
  SwitchedStateRow model({.trigger = Trigger::kTimeEvent, .analytic_jacobian = true});
  const SimulationResult r = simulate(model, switch_options());
  REQUIRE(r.status.ok());
  check_closed_form(r);
  CHECK(r.statistics.restarts == 2);
  CHECK(r.statistics.jacobian_colors == 3);
}

TEST_CASE("a time event that only widens the pattern lets IDA go on over the new one") {
  // The rows stay, so what IDA sees at the event is bit for bit what it saw before, and IDA
  // goes on without a restart and without a history shift, over the new pattern.
  SwitchedStateRow model({.change = Change::kWidenOnly, .trigger = Trigger::kTimeEvent});
  const SimulationResult r = simulate(model, switch_options());
  REQUIRE(r.status.ok());
  check_closed_form(r);
  CHECK(r.statistics.restarts == 1);
  CHECK(r.statistics.jacobian_colors == 4);  // u's row reads y[1], y[2] and y[3]
  check_set_up_before_solving(r.statistics, plain_run(false));
}

TEST_CASE("a new pattern on the dense path is only checked") {
  SwitchedStateRow model({.analytic_jacobian = true});
  const SimulationResult r = simulate(model, switch_options(LinearSolverKind::kDense));
  REQUIRE(r.status.ok());
  check_closed_form(r);
  CHECK(r.statistics.jacobian_colors == 0);  // no KLU
  CHECK(r.statistics.restarts == 1);
}

TEST_CASE("a new pattern with an entry outside the residual is a ModelError naming the model") {
  for (const LinearSolverKind solver : {LinearSolverKind::kKlu, LinearSolverKind::kDense}) {
    SwitchedStateRow model({.change = Change::kOutOfRange, .trigger = Trigger::kTimeEvent});
    CHECK(model_error_of(model, switch_options(solver)) ==
          "model 'switched_state_row' changed its sparsity pattern at t = 1: entry (row 59, "
          "column 60) is outside the 60x60 residual Jacobian");
  }
}

TEST_CASE("a model that declared a pattern cannot drop it at an event") {
  SwitchedStateRow model({.change = Change::kDropPattern, .trigger = Trigger::kTimeEvent});
  CHECK(model_error_of(model, switch_options()) ==
        "model 'switched_state_row' changed its sparsity pattern at t = 1: it declared one "
        "before and none now; a run keeps its dense or sparse path, so a pattern can be "
        "replaced but not added or removed");
}

TEST_CASE("a model that declared no pattern cannot declare one at an event") {
  SwitchedStateRow model({.change = Change::kGainPattern, .trigger = Trigger::kTimeEvent});
  CHECK(model_error_of(model, switch_options(LinearSolverKind::kAuto)) ==
        "model 'switched_state_row' changed its sparsity pattern at t = 1: it declared none "
        "before and one now; a run keeps its dense or sparse path, so a pattern can be "
        "replaced but not added or removed");
}
