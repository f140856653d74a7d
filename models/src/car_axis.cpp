#include "hdae/models/car_axis.hpp"

#include <array>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = CarAxisParameters;
const std::array<detail::ParameterField<P>, 7> kFields = {{
    {{.name = "eps",
      .unit = "-",
      .min = detail::kPositive,
      .description = "small parameter: the end masses are eps^2 M / 2"},
     [](P& p) -> double& { return p.eps; }},
    {{.name = "M", .unit = "-", .min = detail::kPositive, .description = "mass scale of the axis"},
     [](P& p) -> double& { return p.M; }},
    {{.name = "L", .unit = "-", .min = detail::kPositive, .description = "length of the axis"},
     [](P& p) -> double& { return p.L; }},
    {{.name = "L0", .unit = "-", .min = 0.0, .description = "rest length of the springs"},
     [](P& p) -> double& { return p.L0; }},
    {{.name = "r", .unit = "-", .min = 0.0, .description = "amplitude of the bump (< L)"},
     [](P& p) -> double& { return p.r; }},
    {{.name = "w", .unit = "-", .description = "angular frequency of the bump"},
     [](P& p) -> double& { return p.w; }},
    {{.name = "g", .unit = "-", .description = "gravity"}, [](P& p) -> double& { return p.g; }},
}};

/// The ten unknowns in the test set's order, with its start values (header): the axis level
/// at height L0, both ends moving at -L0/L along x (the test set's start velocities).
std::array<VariableInfo, 10> variables(const P& p) {
  return {{
      {.name = "xl", .start = 0.0},
      {.name = "yl", .start = p.L0},
      {.name = "xr", .start = p.L},
      {.name = "yr", .start = p.L0},
      {.name = "ul", .start = -p.L0 / p.L},
      {.name = "vl", .start = 0.0},
      {.name = "ur", .start = -p.L0 / p.L},
      {.name = "vr", .start = 0.0},
      {.name = "lambda1", .start = 0.0},
      {.name = "lambda2", .start = 0.0},
  }};
}

P checked(const ModelStructure& s, const P& current, const char* model) {
  const P p = detail::read_fields<P>(kFields, s, current);
  if (!(p.r < p.L)) {
    throw ModelError(fmt::format(
        "model '{}': the bump must be lower than the axis is long: parameter r must be < L, got "
        "r = {}, L = {}",
        model, p.r, p.L));
  }
  return p;
}

/// The unknowns and the rows both forms share, declared through the model's own functions.
template <class DeclareVariable, class DeclareEquation>
CarAxisMotion declare_motion(const P& p, DeclareVariable&& variable, DeclareEquation&& equation) {
  CarAxisMotion m;
  const auto infos = variables(p);
  for (std::size_t j = 0; j < infos.size(); ++j) m.v[j] = variable(infos[j]);
  m.kinematics = {equation("der(xl) = ul"), equation("der(yl) = vl"), equation("der(xr) = ur"),
                  equation("der(yr) = vr")};
  m.motion = {equation("K*der(ul) = (L0 - Ll)*xl/Ll + lambda1*xb + 2*lambda2*(xl - xr)"),
              equation("K*der(vl) = (L0 - Ll)*yl/Ll + lambda1*yb + 2*lambda2*(yl - yr) - K*g"),
              equation("K*der(ur) = (L0 - Lr)*(xr - xb)/Lr - 2*lambda2*(xl - xr)"),
              equation("K*der(vr) = (L0 - Lr)*(yr - yb)/Lr - 2*lambda2*(yl - yr) - K*g")};
  return m;
}

/// The start values of the parameters p (they depend on L0 and L).
template <class SetStart>
void set_starts(const P& p, const CarAxisMotion& m, SetStart&& set_start) {
  const auto infos = variables(p);
  for (std::size_t j = 0; j < infos.size(); ++j) set_start(m.v[j], infos[j].start);
}

}  // namespace

CarAxis::CarAxis(CarAxisParameters p) : PhysicsModelOf("car_axis"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  m_ = declare_motion(
      p_, [this](const VariableInfo& v) { return declare_variable(v); },
      [this](const std::string& name) { return declare_equation(name); });
  wheel_axis_ = declare_equation("0 = xl*xb + yl*yb", RowKind::kConstraint);
  bar_ = declare_equation("0 = (xl - xr)^2 + (yl - yr)^2 - L^2", RowKind::kConstraint);
}

void CarAxis::parameters_changed() {
  p_ = checked(structure(), p_, "car_axis");
  set_starts(p_, m_, [this](Var v, double start) { set_start(v, start); });
}

CarAxisIndex1::CarAxisIndex1(CarAxisParameters p) : PhysicsModelOf("car_axis_index1"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  m_ = declare_motion(
      p_, [this](const VariableInfo& v) { return declare_variable(v); },
      [this](const std::string& name) { return declare_equation(name); });
  wheel_axis_acceleration_ =
      declare_equation("0 = xb''*xl + 2*xb'*ul + xb*der(ul) + yb''*yl + 2*yb'*vl + yb*der(vl)");
  bar_acceleration_ = declare_equation(
      "0 = (ul - ur)^2 + (vl - vr)^2 + (xl - xr)*(der(ul) - der(ur)) + (yl - yr)*(der(vl) - "
      "der(vr))");
}

void CarAxisIndex1::parameters_changed() {
  p_ = checked(structure(), p_, "car_axis_index1");
  set_starts(p_, m_, [this](Var v, double start) { set_start(v, start); });
}

std::unique_ptr<IndexReducedModel> make_car_axis(CarAxisParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<CarAxis>(p));
}

}  // namespace hdae::models
