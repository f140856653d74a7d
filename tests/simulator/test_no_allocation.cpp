// No heap allocation in the integration step path once a run is under way: between two
// output points IDA calls the residual, root and Jacobian callbacks many times, and none of
// the engine code on that path (Run::residual / roots / evaluate, the crossing table, the
// coloured difference-quotient Jacobian, the analytic-Jacobian collector) may allocate.
//
// The test binary replaces the global operator new with a counting one (a replacement is
// program-wide, so it lives in this one translation unit) that counts only while armed;
// the counter is armed around simulate(). The test model reads the count on every call of
// evaluate() and keeps a log (in storage reserved up front) of when each call happened and
// of what kind it was, so the allocations can be attributed to the stretches between calls:
//
//   step stretch     from the first call after an output row to the next output row, with no
//                    event in between: IDA's steps, callbacks and the return to the loop.
//                    Must not allocate at all.
//   output stretch   from an output row to the next call: storing the row. ResultTable
//                    grows its vectors geometrically (amortised constant append), so only
//                    O(log rows) of these may allocate; rows are not pre-reserved because
//                    the number of event rows is not known in advance. This stretch also
//                    holds the part of the first callback before it calls evaluate(); that
//                    same code runs before every later callback, so an allocation in it is
//                    caught by the step stretches of the many intervals with several calls.
//
// Event instants (event iteration, jump solve, integrator restart) may allocate: they are
// rare and their work is not bounded by a fixed size. Only operator new is counted, which is
// what the engine's own code uses. The C libraries allocate with malloc, which this test does
// not see: with SUNDIALS 6.4, IDA's built-in dense difference-quotient Jacobian clones an
// empty N_Vector on every Jacobian evaluation, and the KLU solver redoes its symbolic
// analysis in the first step after every restart (IDAReInit re-initializes the solver).
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
double* volatile g_escape = nullptr;

/// Counts operator new calls while armed (RAII).
class AllocationCounter {
 public:
  AllocationCounter() { g_counting.store(true); }
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;
  ~AllocationCounter() { g_counting.store(false); }
};

}  // namespace

namespace {

void* counted_allocation(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  return std::malloc(size == 0 ? 1 : size);
}

}  // namespace

// Every non-aligned form is replaced, so that new and delete always pair up in this file's
// malloc / free (under the address sanitizer, too, which supplies the forms left out).
void* operator new(std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}

void* operator new[](std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}

void* operator new(std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
  return counted_allocation(size);
}

void* operator new[](std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
  return counted_allocation(size);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t /*size*/) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t /*size*/) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t& /*tag*/) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t& /*tag*/) noexcept { std::free(p); }

using namespace hdae;

namespace {

enum class CallKind { kStep, kOutput, kEvent };

struct CallRecord {
  double t = 0.0;
  long allocations = 0;
  CallKind kind = CallKind::kStep;
};

enum class JacobianSource { kDifferenceQuotients, kAnalytic };

/// A ball with linear drag bouncing on the ground, written as an index-1 DAE so that IDA
/// sees a constraint row, a crossing and (with KLU) a coloured Jacobian:
///   der(h) = v,  der(v) = a,  0 = a + g + d v;  impact (h < 0): v := -e v.
class LoggedBall final : public Model {
 public:
  explicit LoggedBall(JacobianSource jacobian) : Model("logged_ball"), jacobian_(jacobian) {
    h_ = declare_variable({.name = "h", .unit = "m", .start = 1.0});
    v_ = declare_variable({.name = "v", .unit = "m/s"});
    a_ = declare_variable({.name = "a", .unit = "m/s2"});
    kinematics_ = declare_equation("der(h) = v");
    dynamics_ = declare_equation("der(v) = a");
    acceleration_ = declare_equation("0 = a + g + d*v", RowKind::kConstraint);
    energy_ = declare_output("E/m", "J/kg");
    below_ground_ = declare_crossing("h < 0", CrossingDirection::kRising);
    declare_dependency(kinematics_, h_);
    declare_dependency(kinematics_, v_);
    declare_dependency(dynamics_, v_);
    declare_dependency(dynamics_, a_);
    declare_dependency(acceleration_, a_);
    declare_dependency(acceleration_, v_);
    calls.reserve(kCapacity);
  }

  void evaluate(Evaluation& e) override {
    const double v = e.x(v_);
    e.set(kinematics_, e.der(h_) - v);
    e.set(dynamics_, e.der(v_) - e.x(a_));
    e.set(acceleration_, e.x(a_) + kGravity + kDrag * v);
    e.set(energy_, 0.5 * v * v + kGravity * e.x(h_));
    e.negative(below_ground_, e.x(h_));
    const CallKind kind = e.is_event()        ? CallKind::kEvent
                          : e.wants_outputs() ? CallKind::kOutput
                                              : CallKind::kStep;
    // Within the reserved capacity push_back does not allocate.
    if (calls.size() < calls.capacity()) {
      calls.push_back({e.t(), g_allocations.load(std::memory_order_relaxed), kind});
    } else {
      overflowed = true;
    }
  }

  void on_event(EventContext& event) override {
    if (event.rose(below_ground_)) event.set(v_, -kRestitution * event.x(v_));
  }

  bool provides_jacobian() const override { return jacobian_ == JacobianSource::kAnalytic; }
  void jacobian(double /*t*/, double cj, std::span<const double> /*x*/,
                std::span<const double> /*der_x*/, JacobianEntries& J) override {
    J.add(kinematics_, h_, cj);
    J.add(kinematics_, v_, -1.0);
    J.add(dynamics_, v_, cj);
    J.add(dynamics_, a_, -1.0);
    J.add(acceleration_, a_, 1.0);
    J.add(acceleration_, v_, kDrag);
  }

  void reset() override { calls.clear(); }

  static constexpr std::size_t kCapacity = 1 << 20;
  static constexpr double kGravity = 9.81;
  static constexpr double kDrag = 0.1;
  static constexpr double kRestitution = 0.8;
  std::vector<CallRecord> calls;
  bool overflowed = false;

 private:
  JacobianSource jacobian_;
  Var h_, v_, a_;
  Eq kinematics_, dynamics_, acceleration_;
  Out energy_;
  Crossing below_ground_;
};

struct Attribution {
  std::size_t step_stretches = 0;
  long step_allocations = 0;
  std::size_t output_stretches = 0;
  std::size_t allocating_output_stretches = 0;
  std::size_t event_stretches = 0;
};

/// Splits the call log at output rows (see the file comment) and sums allocations per kind of
/// stretch, ignoring everything before t_settle (set-up and the first steps).
Attribution attribute(const std::vector<CallRecord>& calls, double t_settle) {
  Attribution a;
  std::size_t open = calls.size();  // index of the output row that opened the current stretch
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].kind != CallKind::kOutput) continue;
    if (open < calls.size() && calls[open].t >= t_settle && open + 1 < i) {
      bool has_event = false;
      for (std::size_t k = open + 1; k < i; ++k) has_event |= calls[k].kind == CallKind::kEvent;
      if (has_event) {
        ++a.event_stretches;
      } else {
        ++a.step_stretches;
        a.step_allocations += calls[i].allocations - calls[open + 1].allocations;
        ++a.output_stretches;
        if (calls[open + 1].allocations != calls[open].allocations) ++a.allocating_output_stretches;
      }
    }
    open = i;
  }
  return a;
}

void check_no_step_allocation(LinearSolverKind solver, JacobianSource jacobian) {
  LoggedBall model(jacobian);
  SimulationOptions options;
  options.stop_s = 2.5;
  options.output_interval_s = 0.01;
  options.linear_solver = solver;
  SimulationResult result;
  {
    const AllocationCounter armed;
    result = simulate(model, options);
  }
  REQUIRE(result.status.outcome == Outcome::kReachedStopTime);
  REQUIRE_FALSE(model.overflowed);
  // The run must contain restarts so that steps after an event are measured too. Without drag
  // the impacts (e = 0.8, h0 = 1 m) fall at 0.45, 1.17, 1.75 and 2.22 s; drag only lowers the
  // rebound speeds and so shortens the flights, so at least four happen before 2.5 s.
  REQUIRE(result.statistics.state_events >= 4);

  // After 0.1 s the run has done its set-up and first steps (the first impact is at 0.45 s).
  const Attribution a = attribute(model.calls, 0.1);
  // IDA steps one at a time and the rows of the output points a step passed are stored one
  // after another, so a stretch with callbacks in it holds at least one step; the ball's steps
  // after 0.1 s (most of the run's) give far more than 50 such stretches.
  CHECK(a.step_stretches > 50);
  CHECK(a.event_stretches >= 4);
  CHECK(a.step_allocations == 0);
  // Geometric growth with factor >= 1.5 (which amortised constant append requires in
  // practice) reallocates each of the table's two vectors at most log_1.5(rows) + 1 times.
  const double rows = static_cast<double>(result.table.num_rows());
  const double bound = 2.0 * (std::log(rows) / std::log(1.5) + 1.0);
  CHECK(static_cast<double>(a.allocating_output_stretches) <= bound);
}

}  // namespace

TEST_CASE("no heap allocation between output points: dense LU, difference-quotient Jacobian") {
  check_no_step_allocation(LinearSolverKind::kDense, JacobianSource::kDifferenceQuotients);
}

TEST_CASE("no heap allocation between output points: KLU, coloured difference quotients") {
  check_no_step_allocation(LinearSolverKind::kKlu, JacobianSource::kDifferenceQuotients);
}

TEST_CASE("no heap allocation between output points: dense LU, analytic Jacobian") {
  check_no_step_allocation(LinearSolverKind::kDense, JacobianSource::kAnalytic);
}

TEST_CASE("no heap allocation between output points: KLU, analytic Jacobian") {
  check_no_step_allocation(LinearSolverKind::kKlu, JacobianSource::kAnalytic);
}

TEST_CASE("the allocation counter sees allocations made while armed and only then") {
  // Guards the test above against a counter that never counts.
  // The buffers escape through a volatile pointer so that no optimiser drops the allocations.
  const long before = g_allocations.load();
  {
    std::vector<double> unarmed(16);
    g_escape = unarmed.data();
    CHECK(g_allocations.load() == before);
  }
  {
    const AllocationCounter armed;
    std::vector<double> counted(16);
    g_escape = counted.data();
    CHECK(g_allocations.load() == before + 1);
  }
}
