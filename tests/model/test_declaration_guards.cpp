// Misuses of the modelling layer (hdae/model_builder.hpp) that used to read or write out of
// bounds: a parameter, output or crossing handle outside the declarations, declarations made
// while the model is in a run (the run sized its tables from the old ones), and family sizes
// and dependency offsets whose arithmetic overflows. Each is a ModelError naming it, in every
// build.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/simulator.hpp"
#include "support/callback_failure.hpp"

using namespace hdae;

namespace {

/// What evaluate() or on_event() does wrong.
enum class Misuse { kNone, kParameter, kOutput, kDeclareInEvaluate, kDeclareInEvent };

/// x' = -x / T with one parameter, one output and one crossing.
class Decay final : public Model {
 public:
  explicit Decay(Misuse misuse = Misuse::kNone) : Model("decay"), misuse_(misuse) {
    T_ = declare_parameter({.name = "T", .value = 1.0});
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("T*der(x) = -x");
    w_ = declare_output("x2");
    low_ = declare_crossing("x < 0.5");
  }
  void evaluate(Evaluation& e) override {
    const double T = value(misuse_ == Misuse::kParameter ? Param{3} : T_);
    e.set(eq_, T * e.der(x_) + e.x(x_));
    e.set(misuse_ == Misuse::kOutput ? Out{5} : w_, e.x(x_) * e.x(x_));
    e.negative(low_, e.x(x_) - 0.5);
    if (misuse_ == Misuse::kDeclareInEvaluate && e.t() > 0.1) declare_variable({.name = "y"});
  }
  void on_event(EventContext& event) override {
    if (misuse_ == Misuse::kDeclareInEvent && event.rose(low_)) declare_output("late");
  }

  // The protected declarations, for the tests.
  using Model::clear_declarations;
  using Model::declare_dependency;
  using Model::declare_equations;
  using Model::declare_variable;
  using Model::declare_variables;
  using Model::set_start;
  using Model::value;
  Var x_;

 private:
  Misuse misuse_;
  Param T_;
  Eq eq_;
  Out w_;
  Crossing low_;
};

std::string failure_of(Misuse misuse) {
  Decay model(misuse);
  return test::callback_failure(model);
}

template <class F>
std::string model_error(F&& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a parameter handle outside the declarations is named, in every build") {
  Decay model;
  CHECK(model.value(Param{0}) == 1.0);
  CHECK(model_error([&] { static_cast<void>(model.value(Param{3})); }) ==
        "parameter handle 3 is out of range: the model declares 1 parameter (a handle of another "
        "model, or one made by hand?)");
  CHECK(failure_of(Misuse::kParameter) ==
        "model 'decay' failed in event evaluation at t = 0: parameter handle 3 is out of range: "
        "the model declares 1 parameter (a handle of another model, or one made by hand?)");
}

TEST_CASE("an output handle outside the outputs declared at the run's start is named") {
  CHECK(failure_of(Misuse::kOutput) ==
        "model 'decay' failed in output at t = 0: output handle 5 is out of range: the model "
        "declares 1 output (a handle of another model, or one made by hand?)");
}

TEST_CASE("declarations while the model is in a run are refused naming the call") {
  // The first residual IDA asks for after t = 0.1, at a time of IDA's choosing.
  const std::string in_evaluate = failure_of(Misuse::kDeclareInEvaluate);
  CHECK(in_evaluate.starts_with("model 'decay' failed in integration at t = 0.1"));
  CHECK(in_evaluate.ends_with(
      ": model 'decay': cannot call declare_variable while the model is in a run (the run holds "
      "the declarations from its Simulator's construction to take_result(); declare in the "
      "constructor or in parameters_changed(), between runs)"));
  const std::string in_event = failure_of(Misuse::kDeclareInEvent);
  CHECK(in_event.starts_with("model 'decay' failed in event handler at t = 0.69"));
  CHECK(in_event.find("cannot call declare_output while the model is in a run") !=
        std::string::npos);

  // From outside the run (another thread would see the same atomic flag).
  Decay model;
  Simulator sim(model, SimulationOptions{});
  sim.advance_to(0.5);
  CHECK(model_error([&] { model.clear_declarations(); }) ==
        "model 'decay': cannot call clear_declarations while the model is in a run (the run "
        "holds the declarations from its Simulator's construction to take_result(); declare in "
        "the constructor or in parameters_changed(), between runs)");
  CHECK(model_error([&] {
          model.set_start(model.x_, 2.0);
        }).starts_with("model 'decay': cannot call set_start while the model is in a run"));
  CHECK(model_error([&] {
          model.declare_variables(3, {.name = "v"});
        }).starts_with("model 'decay': cannot call declare_variables while the model is in a run"));
  CHECK(model.structure().variables.size() == 1);  // nothing was declared
  CHECK(sim.advance_to(1.0).outcome == Outcome::kReachedStopTime);
  static_cast<void>(sim.take_result());
  // The run is over: the model may change again.
  model.set_start(model.x_, 2.0);
  CHECK(model.structure().variables.start(0) == 2.0);
}

TEST_CASE("family sizes and dependency offsets that overflow are refused naming the call") {
  Decay model;
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
  const std::string too_many = model_error([&] { model.declare_variables(huge, {.name = "v"}); });
  CHECK(too_many.starts_with(
      "model 'decay': declare_variables: 9223372036854775807 elements of 1 member are more than "
      "a model can hold"));
  CHECK(model_error([&] {
          model.declare_equations(huge, "v[{i}] = 0");
        }).starts_with("model 'decay': declare_equations: 9223372036854775807 elements"));
  CHECK(model.structure().variables.size() == 1);

  const Vars v = model.declare_variables(3, {.name = "v"});
  const Eqs e = model.declare_equations(3, "der(v[{i}]) = v[{i-1}]");
  const std::ptrdiff_t min = std::numeric_limits<std::ptrdiff_t>::min();
  CHECK(model_error([&] { model.declare_dependency(e, v, min); }) ==
        "model 'decay': declare_dependency: offset -9223372036854775808 is outside [-3, 3] (the "
        "larger family's size), where it pairs no elements");
  CHECK(model_error([&] { model.declare_dependency(e, v, min + 1); }) ==
        "model 'decay': declare_dependency: offset -9223372036854775807 is outside [-3, 3] (the "
        "larger family's size), where it pairs no elements");
  CHECK(model_error([&] {
          model.declare_dependency(e, v, 4);
        }).starts_with("model 'decay': declare_dependency: offset 4 is outside [-3, 3]"));
  model.declare_dependency(e, v, -1);  // e[i] holds v[i-1]: elements 1 and 2
  CHECK(model.structure().sparsity.size() == 2);
}

TEST_CASE("a family dependency made by hand with an extreme offset has no entries") {
  // The table is public: its arithmetic must hold for every offset, also without the model
  // layer's check.
  for (const std::ptrdiff_t offset :
       {std::numeric_limits<std::ptrdiff_t>::min(), std::numeric_limits<std::ptrdiff_t>::min() + 1,
        std::numeric_limits<std::ptrdiff_t>::max()}) {
    CAPTURE(offset);
    const FamilyDependency f{.rows = 3, .cols = 3, .offset = offset};
    CHECK(f.end() <= f.begin());
    SparsityTable table;
    table.add_family(f);
    CHECK(table.size() == 0);
  }
  const FamilyDependency behind{.rows = 3, .cols = 3, .offset = -1};
  CHECK(behind.begin() == 1);
  CHECK(behind.end() == 3);
}
