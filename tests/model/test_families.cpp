// Indexed families (hdae/declarations.hpp): one declaration for many unknowns, rows or pattern
// entries, with names made on demand and handles that compute indices.
#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"

using namespace hdae;

namespace {

/// The mass-spring chain of models/ declared one unknown, row and entry at a time, as it was
/// written before families existed: the same equations in the same order.
class ChainOneByOne final : public Model {
 public:
  explicit ChainOneByOne(std::size_t n) : Model("mass_spring_chain"), n_(n) {
    const models::MassSpringChainParameters p;
    const double f0 = p.stiffness_npm * p.end_displacement_m / static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string k = std::to_string(i + 1);
      s_.push_back(declare_variable(
          {.name = "s[" + k + "]",
           .unit = "m",
           .start = p.end_displacement_m * static_cast<double>(i + 1) / static_cast<double>(n)}));
      v_.push_back(declare_variable({.name = "v[" + k + "]", .unit = "m/s"}));
      f_.push_back(declare_variable(
          {.name = "f[" + k + "]", .unit = "N", .start = f0, .nominal = std::max(f0, 1e-3)}));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::string k = std::to_string(i + 1);
      kin_.push_back(declare_equation("der(s[" + k + "]) = v[" + k + "]"));
      dyn_.push_back(declare_equation("m*der(v[" + k + "]) = f[" + std::to_string(i + 2) +
                                      "] - f[" + k + "] - d*v[" + k + "]"));
      spring_.push_back(
          declare_equation("0 = f[" + k + "] - k*(s[" + k + "] - s[" + std::to_string(i) + "])",
                           RowKind::kConstraint));
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (const Var v : {s_[i], v_[i]}) declare_dependency(kin_[i], v);
      for (const Var v : {v_[i], f_[i]}) declare_dependency(dyn_[i], v);
      if (i + 1 < n) declare_dependency(dyn_[i], f_[i + 1]);
      for (const Var v : {f_[i], s_[i]}) declare_dependency(spring_[i], v);
      if (i > 0) declare_dependency(spring_[i], s_[i - 1]);
    }
    energy_ = declare_output("energy", "J");
  }
  void evaluate(Evaluation& e) override {
    const models::MassSpringChainParameters p;
    double energy = 0.0;
    for (std::size_t i = 0; i < n_; ++i) {
      const double f_next = i + 1 < n_ ? e.x(f_[i + 1]) : 0.0;
      const double s_prev = i > 0 ? e.x(s_[i - 1]) : 0.0;
      const double v = e.x(v_[i]);
      const double f = e.x(f_[i]);
      e.set(kin_[i], e.der(s_[i]) - v);
      e.set(dyn_[i], p.mass_kg * e.der(v_[i]) + f - f_next + p.damping_nspm * v);
      e.set(spring_[i], f - p.stiffness_npm * (e.x(s_[i]) - s_prev));
      energy += 0.5 * p.mass_kg * v * v + f * f / (2.0 * p.stiffness_npm);
    }
    e.set(energy_, energy);
  }

 private:
  std::size_t n_;
  std::vector<Var> s_, v_, f_;
  std::vector<Eq> kin_, dyn_, spring_;
  Out energy_;
};

/// A model the test declares through a function of its own (declarations are protected).
class Declared final : public Model {
 public:
  template <class Declare>
  explicit Declared(Declare&& declare) : Model("declared") {
    declare(*this);
  }
  void evaluate(Evaluation& e) override {
    for (std::size_t j = 0; j < structure().num_unknowns(); ++j) {
      e.set(Eq{j}, e.der(Var{j}) + e.x(Var{j}));
    }
  }
  using Model::declare_dependency;
  using Model::declare_equation;
  using Model::declare_equation_families;
  using Model::declare_equations;
  using Model::declare_output;
  using Model::declare_variable;
  using Model::declare_variable_families;
  using Model::declare_variables;
  using Model::set_nominal;
  using Model::set_start;
};

std::string validation_error(const Model& m) {
  try {
    m.structure().validate();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("families declared together lie element by element and are named per element") {
  Vars s, v;
  Declared m([&](Declared& d) {
    const auto [s_family, v_family] = d.declare_variable_families(
        3, {{.name = "s", .unit = "m", .start = 1.0},
            {.name = "v", .unit = "m/s", .nominal = 2.0, .der_name = "a"}});
    s = s_family;
    v = v_family;
    d.set_start(s[2], 5.0);
    d.declare_equations(6, "der(x[{i}]) = -x[{i}]");
  });
  const VariableTable& t = m.structure().variables;
  REQUIRE(t.size() == 6);
  CHECK(s[1].index == 2);
  CHECK(v[1].index == 3);
  std::vector<std::size_t> v_indices;
  for (const Var x : v) v_indices.push_back(x.index);
  CHECK(v_indices == std::vector<std::size_t>{1, 3, 5});
  CHECK(t.name(4) == "s[3]");
  CHECK(t.name(5) == "v[3]");
  CHECK(t.der_name(2) == "der(s[2])");
  CHECK(t.der_name(3) == "a[2]");
  CHECK(t.start(0) == 1.0);
  CHECK(t.start(4) == 5.0);
  CHECK(t.nominal(5) == 2.0);
  const VariableInfo info = t.info(3);
  CHECK(info.name == "v[2]");
  CHECK(info.unit == "m/s");
  CHECK(info.der_name == "a[2]");
  CHECK(validation_error(m) == "no error");
}

TEST_CASE("an equation family fills the placeholders of its template for each member") {
  Declared m([](Declared& d) {
    d.declare_variables(12, {.name = "x"});
    d.declare_equations(12, "{i}: y[{i+1}] - y[{i-1}] + z[{i+10}] {x} {i-} {i+}");
  });
  const EquationTable& e = m.structure().equations;
  CHECK(e.name(0) == "1: y[2] - y[0] + z[11] {x} {i-} {i+}");
  CHECK(e.name(11) == "12: y[13] - y[11] + z[22] {x} {i-} {i+}");
  CHECK(e.kind(3) == RowKind::kDifferential);
  CHECK(validation_error(m) == "no error");
}

TEST_CASE("a family dependency stands for the entries whose column exists") {
  Declared m([](Declared& d) {
    const Vars x = d.declare_variables(4, {.name = "x"});
    const Eqs e = d.declare_equations(4, "der(x[{i}]) = x[{i-1}] - x[{i+2}]");
    d.declare_dependency(e, x);
    d.declare_dependency(e, x, -1);
    d.declare_dependency(e, x, +2);
  });
  std::set<std::pair<std::size_t, std::size_t>> entries;
  m.structure().sparsity.for_each([&](std::size_t r, std::size_t c) { entries.insert({r, c}); });
  const std::set<std::pair<std::size_t, std::size_t>> expected{
      {0, 0}, {1, 1}, {2, 2}, {3, 3}, {1, 0}, {2, 1}, {3, 2}, {0, 2}, {1, 3}};
  CHECK(entries == expected);
  CHECK(m.structure().sparsity.size() == 9);
}

TEST_CASE("the chain declared in families runs exactly as the chain declared one by one") {
  // Both declare the same unknowns, rows, pattern and output in the same order, so the
  // simulator solves the same problem and every number of the two results agrees bit for bit.
  models::MassSpringChain families({.masses = 20});
  ChainOneByOne singles(20);
  SimulationOptions o;
  o.stop_s = 2.0;
  o.output_interval_s = 0.1;
  o.linear_solver = LinearSolverKind::kKlu;
  const SimulationResult a = simulate(families, o);
  const SimulationResult b = simulate(singles, o);
  REQUIRE(a.status.ok());
  REQUIRE(b.status.ok());
  CHECK(a.statistics.steps == b.statistics.steps);
  REQUIRE(a.table.num_columns() == b.table.num_columns());
  for (std::size_t c = 0; c < a.table.num_columns(); ++c) {
    CHECK(a.table.columns()[c].name == b.table.columns()[c].name);
    CHECK(a.table.columns()[c].unit == b.table.columns()[c].unit);
  }
  REQUIRE(a.table.num_rows() == b.table.num_rows());
  for (std::size_t r = 0; r < a.table.num_rows(); ++r) {
    CHECK(a.table.time(r) == b.table.time(r));
    const auto x = a.table.row(r);
    const auto y = b.table.row(r);
    CHECK(std::equal(x.begin(), x.end(), y.begin(), y.end()));
  }
  for (std::size_t i = 0; i < 60; ++i) {
    CHECK(families.structure().equations.name(i) == singles.structure().equations.name(i));
  }
}

TEST_CASE("names that families share with each other or with single declarations are rejected") {
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(3, {.name = "v"});
          d.declare_variable({.name = "v[2]"});
          d.declare_equations(4, "e{i}");
        })) == "model 'declared': variable name 'v[2]' is declared twice");
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variable_families(2, {{.name = "v"}, {.name = "v"}});
          d.declare_equations(4, "e{i}");
        })) == "model 'declared': variable name 'v[1]' is declared twice");
  // Different templates, one name: a{i} at 3 is a{i+1} at 2.
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(6, {.name = "x"});
          d.declare_equations(3, "a{i}");
          d.declare_equations(3, "a{i+1}");
        })) == "model 'declared': equation name 'a2' is declared twice");
  // a[1..3] and a[4..6] share no name.
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(6, {.name = "x"});
          d.declare_equations(3, "a[{i}]");
          d.declare_equations(3, "a[{i+3}]");
        })) == "no error");
  // A template without a placeholder names every member alike.
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(2, {.name = "x"});
          d.declare_equations(2, "x = 0");
        })) == "model 'declared': equation name 'x = 0' is declared twice");
  // The digits in the text count as they read: "07" is no member number.
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(12, {.name = "x"});
          d.declare_equations(10, "r{i}s");
          d.declare_equation("r07s");
          d.declare_equation("r11s");
        })) == "no error");
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(11, {.name = "x"});
          d.declare_equations(10, "r{i}s");
          d.declare_equation("r7s");
        })) == "model 'declared': equation name 'r7s' is declared twice");
  // A placeholder next to a digit: the names are made and compared one by one.
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(12, {.name = "x"});
          d.declare_equations(11, "r{i}0");
          d.declare_equation("r100");
        })) == "model 'declared': equation name 'r100' is declared twice");
}

TEST_CASE("result columns of families must not meet other columns") {
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(3, {.name = "x"});
          d.declare_variable({.name = "y", .der_name = "x[2]"});
          d.declare_equations(4, "e{i}");
        })) ==
        "model 'declared': result column 'x[2]' would appear twice (variable 'x[2]' and "
        "the derivative of variable 'y')");
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(3, {.name = "x"});
          d.declare_variable({.name = "der(x[3])"});
          d.declare_equations(4, "e{i}");
        })) ==
        "model 'declared': result column 'der(x[3])' would appear twice (variable "
        "'der(x[3])' and the derivative of variable 'x[3]')");
}

TEST_CASE("a result column named with a control character is refused, naming its owner") {
  // A CSV header cannot hold a line break inside a name: written, it could not be read back.
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variable({.name = "a"});
          d.declare_output("x\ny");
          d.declare_equation("e");
        })) ==
        "model 'declared': the name of output 'x\ny' holds the control character 0x0a (a line "
        "break); result columns are named without control characters");
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variable({.name = "a", .der_name = "a\trate"});
          d.declare_equation("e");
        })) ==
        "model 'declared': the name of the derivative of variable 'a' holds the control "
        "character 0x09 (a tab); result columns are named without control characters");
}

TEST_CASE("family declarations that cannot work are reported with the offending member") {
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variable({.name = "a"});
          d.declare_variable_families(2, {{.name = "s"}, {.name = ""}});
          d.declare_equations(5, "e{i}");
        })) == "model 'declared': variable 2 has an empty name");
  CHECK(validation_error(Declared([](Declared& d) {
          d.declare_variables(2, {.name = "s", .start = 0.5, .min = 1.0});
          d.declare_equations(2, "e{i}");
        })) ==
        "model 'declared': start value 0.5 of variable 's[1]' lies outside its feasible "
        "region [1, inf]");
  CHECK(validation_error(Declared([](Declared& d) {
          const Vars x = d.declare_variables(2, {.name = "x"});
          d.set_start(x[1], std::numeric_limits<double>::infinity());
          d.declare_equations(2, "e{i}");
        })) == "model 'declared': start value of variable 'x[2]' is not finite (inf)");
  // Handles of a larger model: the family's entries leave the 2x2 Jacobian.
  Vars big;
  Eqs big_rows;
  Declared larger([&](Declared& d) {
    big = d.declare_variables(3, {.name = "x"});
    big_rows = d.declare_equations(3, "e{i}");
  });
  CHECK(validation_error(Declared([&](Declared& d) {
          d.declare_variables(2, {.name = "x"});
          d.declare_equations(2, "e{i}");
          d.declare_dependency(big_rows, big, 0);
        })) ==
        "model 'declared': sparsity entry (row 2, column 2) is outside the 2x2 residual "
        "Jacobian");
  CHECK_THROWS_WITH_AS(Declared([](Declared& d) {
                         const Vars x = d.declare_variables(2, {.name = "x"});
                         d.set_nominal(x[0], 2.0);
                       }),
                       "model 'declared': variable 'x[1]' shares its nominal value with its "
                       "family 'x'",
                       ModelError);
}

#ifndef NDEBUG
TEST_CASE("an element beyond a family is refused in builds that check handles") {
  const Vars x{.first = 4, .count = 3, .stride = 2};
  CHECK(x[2].index == 8);
  CHECK_THROWS_WITH_AS(static_cast<void>(x[3]),
                       "element 3 of a family of 3 does not exist (elements count from 0 to 2)",
                       ModelError);
  CHECK_THROWS_WITH_AS(static_cast<void>(Vars{}[0]), "element 0 of an empty family does not exist",
                       ModelError);
}
#endif
