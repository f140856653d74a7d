#include "hdae/models/elastic_slider_crank.hpp"

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = ElasticSliderCrankParameters;
const std::array<detail::ParameterField<P>, 12> kFields = {{
    {{.name = "r", .unit = "m", .min = detail::kPositive, .description = "length of the crank"},
     [](P& p) -> double& { return p.crank_length_m; }},
    {{.name = "l",
      .unit = "m",
      .min = detail::kPositive,
      .description = "length of the undeformed connecting rod (> r)"},
     [](P& p) -> double& { return p.rod_length_m; }},
    {{.name = "m_crank",
      .unit = "kg",
      .min = 0.0,
      .description = "mass of the crank, centre at r/2 (its weight)"},
     [](P& p) -> double& { return p.crank_mass_kg; }},
    {{.name = "J_crank",
      .unit = "kg.m2",
      .min = detail::kPositive,
      .description = "moment of inertia of the crank about its pivot"},
     [](P& p) -> double& { return p.crank_inertia_kgm2; }},
    {{.name = "m_rod",
      .unit = "kg",
      .min = detail::kPositive,
      .description = "mass of the connecting rod, uniform"},
     [](P& p) -> double& { return p.rod_mass_kg; }},
    {{.name = "EA", .unit = "N", .min = detail::kPositive, .description = "axial stiffness"},
     [](P& p) -> double& { return p.axial_stiffness_n; }},
    {{.name = "EI", .unit = "N.m2", .min = detail::kPositive, .description = "bending stiffness"},
     [](P& p) -> double& { return p.bending_stiffness_nm2; }},
    {{.name = "m_slider",
      .unit = "kg",
      .min = detail::kPositive,
      .description = "mass of the slider"},
     [](P& p) -> double& { return p.slider_mass_kg; }},
    {{.name = "tau", .unit = "N.m", .description = "torque on the crank"},
     [](P& p) -> double& { return p.torque_nm; }},
    {{.name = "g", .unit = "m/s2", .description = "gravitational acceleration (along -y)"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "omega0", .unit = "rad/s", .description = "crank speed at t0"},
     [](P& p) -> double& { return p.omega0_radps; }},
    {{.name = "theta0", .unit = "rad", .description = "crank angle at t0"},
     [](P& p) -> double& { return p.theta0_rad; }},
}};

}  // namespace

ElasticSliderCrank::ElasticSliderCrank(ElasticSliderCrankParameters p)
    : PhysicsModelOf("elastic_slider_crank"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  theta_ = declare_variable({.name = "theta", .unit = "rad", .der_unit = "rad/s"});
  w_ = declare_variable({.name = "w", .unit = "rad/s", .der_unit = "rad/s2"});
  xA_ = declare_variable({.name = "xA", .unit = "m", .der_unit = "m/s"});
  yA_ = declare_variable({.name = "yA", .unit = "m", .der_unit = "m/s"});
  uA_ = declare_variable({.name = "uA", .unit = "m/s", .der_unit = "m/s2"});
  vA_ = declare_variable({.name = "vA", .unit = "m/s", .der_unit = "m/s2"});
  phi_ = declare_variable({.name = "phi", .unit = "rad", .der_unit = "rad/s"});
  om_ = declare_variable({.name = "Omega", .unit = "rad/s", .der_unit = "rad/s2"});
  qa_ = declare_variable({.name = "qa", .unit = "m", .der_unit = "m/s"});
  pa_ = declare_variable({.name = "pa", .unit = "m/s", .der_unit = "m/s2"});
  for (int i = 0; i < kBendingModes; ++i) {
    q_[i] = declare_variable({.name = fmt::format("q{}", i + 1), .unit = "m", .der_unit = "m/s"});
    p_rate_[i] =
        declare_variable({.name = fmt::format("p{}", i + 1), .unit = "m/s", .der_unit = "m/s2"});
  }
  xB_ = declare_variable({.name = "xB", .unit = "m", .der_unit = "m/s"});
  uB_ = declare_variable({.name = "uB", .unit = "m/s", .der_unit = "m/s2"});
  FAx_ = declare_variable({.name = "FAx", .unit = "N", .der_unit = "N/s"});
  FAy_ = declare_variable({.name = "FAy", .unit = "N", .der_unit = "N/s"});
  FBx_ = declare_variable({.name = "FBx", .unit = "N", .der_unit = "N/s"});
  FBy_ = declare_variable({.name = "FBy", .unit = "N", .der_unit = "N/s"});

  crank_kinematics_ = declare_equation("der(theta) = w");
  kinematics_xA_ = declare_equation("der(xA) = uA");
  kinematics_yA_ = declare_equation("der(yA) = vA");
  rod_kinematics_ = declare_equation("der(phi) = Omega");
  axial_kinematics_ = declare_equation("der(qa) = pa");
  for (int i = 0; i < kBendingModes; ++i) {
    bending_kinematics_[i] = declare_equation(fmt::format("der(q{0}) = p{0}", i + 1));
  }
  kinematics_xB_ = declare_equation("der(xB) = uB");
  crank_ = declare_equation("J1*der(w) = tau - m1*g*(r/2)*cos(theta) - (xA*FAy - yA*FAx)");
  rod_x_ = declare_equation("rod, x: m*der(uA) + (R*loc)_x = FAx + FBx");
  rod_y_ = declare_equation("rod, y: m*der(vA) + (R*loc)_y = FAy + FBy - m*g");
  rod_phi_ = declare_equation(
      "rod, rotation: M_phi(q)*[a_A; der(Omega); der(pa); der(p)] + "
      "(velocity terms) = (l + qa)*(-sin(phi)*FBx + cos(phi)*FBy) - "
      "(weight)");
  axial_ = declare_equation(
      "rod, axial mode: M_a(q)*[a_A; der(Omega); der(pa)] + (velocity terms) + EA/l*qa = "
      "cos(phi)*FBx + sin(phi)*FBy - (weight)");
  for (int i = 0; i < kBendingModes; ++i) {
    bending_[i] = declare_equation(
        fmt::format("rod, bending mode {0}: c{0}*a_Ay + d{0}*(1 + qa/l)*der(Omega) + m/2*der(p{0}) "
                    "+ (velocity terms) + K{0}*q{0} = -(weight)",
                    i + 1));
  }
  slider_ = declare_equation("m3*der(uB) = -FBx");
  pin_x_ = declare_equation("0 = xA - r*cos(theta)");
  pin_y_ = declare_equation("0 = yA - r*sin(theta)");
  end_x_ = declare_equation("0 = xB - xA - (l + qa)*cos(phi)");
  end_y_ = declare_equation("0 = yA + (l + qa)*sin(phi)");
  energy_ = declare_output("energy", "J");
  set_starts();
}

void ElasticSliderCrank::parameters_changed() {
  const P p = detail::read_fields<P>(kFields, structure(), p_);
  if (!(p.rod_length_m > p.crank_length_m)) {
    throw ModelError(fmt::format(
        "model 'elastic_slider_crank': the rod must be longer than the crank: parameter l must "
        "be > r, got l = {}, r = {}",
        p.rod_length_m, p.crank_length_m));
  }
  p_ = p;
  set_starts();
}

ElasticSliderCrank::Shape ElasticSliderCrank::shape() const {
  const double m = p_.rod_mass_kg;
  const double l = p_.rod_length_m;
  Shape k;
  k.S0 = m * l / 2;
  k.I0 = m * l * l / 3;
  k.axial = p_.axial_stiffness_n / l;
  for (int i = 0; i < kBendingModes; ++i) {
    const double n = i + 1;
    const double sign = i % 2 == 0 ? 1.0 : -1.0;  // (-1)^(n+1)
    k.c[i] = m * (1 + sign) / (n * std::numbers::pi);
    k.d[i] = m * l * sign / (n * std::numbers::pi);
    const double wave = n * std::numbers::pi / l;
    k.bending[i] = p_.bending_stiffness_nm2 * wave * wave * wave * wave * l / 2;
  }
  return k;
}

// The rigid mechanism's positions and velocities at theta0 turning at omega0, undeformed:
// consistent with the constraints and their first derivatives. The forces start at 0.
void ElasticSliderCrank::set_starts() {
  const double r = p_.crank_length_m;
  const double l = p_.rod_length_m;
  const double theta = p_.theta0_rad;
  const double omega = p_.omega0_radps;
  const double xA = r * std::cos(theta), yA = r * std::sin(theta);
  const double uA = -r * omega * std::sin(theta), vA = r * omega * std::cos(theta);
  const double phi = -std::asin(yA / l);  // yA + l sin(phi) = 0
  const double om = -vA / (l * std::cos(phi));
  set_start(theta_, theta);
  set_start(w_, omega);
  set_start(xA_, xA);
  set_start(yA_, yA);
  set_start(uA_, uA);
  set_start(vA_, vA);
  set_start(phi_, phi);
  set_start(om_, om);
  set_start(xB_, xA + l * std::cos(phi));
  set_start(uB_, uA - l * std::sin(phi) * om);
}

void ElasticSliderCrank::outputs(Evaluation& e) const {
  const Shape k = shape();
  const double l = p_.rod_length_m;
  const double m = p_.rod_mass_kg;
  const double g = p_.gravity_mps2;
  const double phi = e.x(phi_), om = e.x(om_), qa = e.x(qa_), pa = e.x(pa_);
  const double uA = e.x(uA_), vA = e.x(vA_);
  const double c = std::cos(phi), s = std::sin(phi);
  const double stretch = 1 + qa / l;
  double Qc = 0, Qc_rate = 0, Qd = 0, Qd_rate = 0, q_squares = 0, rate_squares = 0, bending = 0;
  for (int i = 0; i < kBendingModes; ++i) {
    const double q = e.x(q_[i]), qr = e.x(p_rate_[i]);
    Qc += k.c[i] * q;
    Qc_rate += k.c[i] * qr;
    Qd += k.d[i] * q;
    Qd_rate += k.d[i] * qr;
    q_squares += q * q;
    rate_squares += qr * qr;
    bending += 0.5 * k.bending[i] * q * q;
  }
  // T_rod = 1/2 int mu |v|^2 with v = A' + phi' R J p + R p' (header): the terms of |v|^2
  // integrated one by one.
  const auto global = [c, s](double x, double y) {
    return std::array<double, 2>{c * x - s * y, s * x + c * y};
  };
  const auto JP = global(-Qc, k.S0 * stretch);         // R J P, P = int mu p
  const auto P_rate = global(k.S0 * pa / l, Qc_rate);  // R P'
  const double rod_kinetic = 0.5 * m * (uA * uA + vA * vA) +
                             0.5 * om * om * (stretch * stretch * k.I0 + m / 2 * q_squares) +
                             0.5 * (k.I0 * pa * pa / (l * l) + m / 2 * rate_squares) +
                             om * (uA * JP[0] + vA * JP[1]) + (uA * P_rate[0] + vA * P_rate[1]) +
                             om * (-pa / l * Qd + stretch * Qd_rate);
  const double w = e.x(w_), uB = e.x(uB_);
  const double kinetic =
      0.5 * p_.crank_inertia_kgm2 * w * w + rod_kinetic + 0.5 * p_.slider_mass_kg * uB * uB;
  const double potential = p_.crank_mass_kg * g * p_.crank_length_m / 2 * std::sin(e.x(theta_)) +
                           g * (m * e.x(yA_) + s * k.S0 * stretch + c * Qc);
  const double elastic = 0.5 * k.axial * qa * qa + bending;
  e.set(energy_, kinetic + potential + elastic);
}

}  // namespace hdae::models
