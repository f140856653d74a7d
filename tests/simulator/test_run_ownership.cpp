// Who may drive a run (hdae/simulator.hpp): one model object serves one run at a time, one
// Simulator is advanced by one thread at a time, and a run whose result was taken cannot go on.
// Each misuse is refused with a typed exception naming it; before, the second run reset the
// first run's modes (wrong numbers), two threads in one Simulator crashed, and advance_to after
// take_result did nothing forever.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <latch>
#include <stdexcept>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/simulator.hpp"
#include "support/test_models.hpp"

using namespace hdae;

namespace {

const char* const kInUse =
    "model 'pulsed_lag' is already in use by another run; a model object serves one run at a "
    "time (end the other run, or make a second model object)";

/// The message of the ModelError that constructing a Simulator over model throws.
std::string second_run_error(SimulationModel& model, const SimulationOptions& options) {
  try {
    Simulator second(model, options);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

/// x' = -x from x = 1, whose evaluation blocks once, when asked, until the test releases it:
/// a deterministic way of having one thread inside a Simulator while another calls it.
class BlockingDecay final : public Model {
 public:
  BlockingDecay() : Model("blocking_decay") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
  }
  void evaluate(Evaluation& e) override {
    if (block_.exchange(false)) {
      entered_.count_down();
      released_.wait();
    }
    e.set(eq_, e.der(x_) + e.x(x_));
  }
  void block_next_evaluation() { block_ = true; }
  void wait_until_blocked() { entered_.wait(); }
  void release() { released_.count_down(); }

 private:
  std::atomic<bool> block_{false};
  std::latch entered_{1};
  std::latch released_{1};
  Var x_;
  Eq eq_;
};

}  // namespace

TEST_CASE("a model in a run refuses a second run, which would reset its modes under the first") {
  // Pulses switch the input u between 0 and 1 every 0.25 s: the model's mode is on_, which a
  // second run's reset() would switch off under the first.
  test::PulsedLag model(1.0);
  SimulationOptions options;
  options.stop_s = 1.2;
  options.rel_tol = 1e-8;
  Simulator first(model, options);
  first.advance_to(0.6);  // inside a pulse: u = 1
  CHECK(model.in_simulation());
  CHECK_THROWS_WITH_AS(static_cast<void>(simulate(model, options)), kInUse, ModelError);
  CHECK(second_run_error(model, options) == kInUse);
  // Another thread sees the claim too (an atomic flag, not a counter of this thread's runs).
  std::string from_thread;
  std::thread other([&] { from_thread = second_run_error(model, options); });
  other.join();
  CHECK(from_thread == kInUse);

  CHECK(first.advance_to(1.2).outcome == Outcome::kReachedStopTime);
  // The first run goes on undisturbed: x follows the exact solution across the pulses. 1e-6:
  // a BDF run at rel_tol 1e-8 over five time constants stays within a hundred tolerances.
  CHECK(first.state()[0] == doctest::Approx(model.exact(1.2)).epsilon(1e-6));
  CHECK(model.in_simulation());  // until take_result or destruction
  const SimulationResult r = first.take_result();
  CHECK_FALSE(model.in_simulation());
  // The model is free again, also while the first Simulator still exists.
  const SimulationResult again = simulate(model, options);
  CHECK(again.status.outcome == Outcome::kReachedStopTime);
  CHECK(again.table.num_rows() == r.table.num_rows());
}

TEST_CASE("a Simulator's destruction, also by a failed construction, gives the model free") {
  test::PulsedLag model(1.0);
  SimulationOptions options;
  {
    Simulator sim(model, options);
    sim.advance_to(0.5);
  }
  CHECK_FALSE(model.in_simulation());
  SimulationOptions bad = options;
  bad.rel_tol = 2.0;
  CHECK_THROWS_AS(Simulator(model, bad), OptionError);
  CHECK_FALSE(model.in_simulation());
  CHECK(simulate(model, options).status.outcome == Outcome::kReachedStopTime);
}

TEST_CASE("a second thread calling a busy Simulator gets logic_error, and the run goes on") {
  BlockingDecay model;
  SimulationOptions options;
  options.rel_tol = 1e-8;
  Simulator sim(model, options);
  model.block_next_evaluation();
  Outcome first_outcome = Outcome::kNotRun;
  std::thread advancing([&] { first_outcome = sim.advance_to(0.5).outcome; });
  model.wait_until_blocked();  // the thread is inside initialize(), in the model
  const char* const busy =
      "Simulator is busy in another thread; one Simulator is advanced by one thread at a time";
  CHECK_THROWS_WITH_AS(sim.advance_to(1.0), busy, std::logic_error);
  CHECK_THROWS_WITH_AS(sim.initialize(), busy, std::logic_error);
  CHECK_THROWS_WITH_AS(static_cast<void>(sim.take_result()), busy, std::logic_error);
  model.release();
  advancing.join();
  CHECK(first_outcome == Outcome::kRunning);
  CHECK(sim.advance_to(1.0).outcome == Outcome::kReachedStopTime);
  // 1e-6: a BDF run at rel_tol 1e-8 over one time constant stays within a hundred tolerances.
  CHECK(sim.state()[0] == doctest::Approx(std::exp(-1.0)).epsilon(1e-6));
}

TEST_CASE(
    "advance_to after take_result on an unfinished run is a logic_error, not a silent no-op") {
  test::FirstOrderLag model(1.0, 1.0);
  SimulationOptions options;
  options.stop_s = 2.0;
  Simulator sim(model, options);
  sim.advance_to(0.5);
  const SimulationResult partial = sim.take_result();
  CHECK(partial.status.outcome == Outcome::kRunning);
  CHECK_THROWS_WITH_AS(sim.advance_to(1.0),
                       "Simulator::advance_to: the result was taken before the run ended "
                       "(take_result() ends the run; it cannot go on)",
                       std::logic_error);
  CHECK_THROWS_WITH_AS(sim.initialize(),
                       "Simulator::initialize: the result was taken before the run ended "
                       "(take_result() ends the run; it cannot go on)",
                       std::logic_error);
  // A run that had ended keeps answering with its status.
  Simulator done(model, options);
  done.advance_to(2.0);
  static_cast<void>(done.take_result());
  CHECK(done.advance_to(2.0).outcome == Outcome::kReachedStopTime);
}

TEST_CASE("status().t is the time reached while the run goes on") {
  test::FirstOrderLag model(1.0, 1.0);
  SimulationOptions options;
  options.start_s = 1.0;
  options.stop_s = 3.0;
  Simulator sim(model, options);
  CHECK(sim.initialize().t == 1.0);
  int advances = 0;
  // The stepping loop of docs/models.md, which ends because advance_to reaches stop_s.
  while (sim.status().outcome == Outcome::kRunning) {
    sim.advance_to(std::min(sim.time() + 0.3, options.stop_s));
    CHECK(sim.status().t == sim.time());
    ++advances;
  }
  CHECK(advances == 7);  // 1.3, 1.6, ..., 2.8, 3.0
  CHECK(sim.status().t == 3.0);
  const SimulationResult r = sim.take_result();
  CHECK(r.status.t == 3.0);
}
