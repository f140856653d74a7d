#include "hdae/models/transistor_amplifier.hpp"

#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = TransistorAmplifierParameters;
using detail::kPositive;
const std::array<detail::ParameterField<P>, 13> kFields = {{
    {{.name = "Ub", .unit = "V", .min = 0.0, .description = "operating voltage"},
     [](P& p) -> double& { return p.ub_v; }},
    {{.name = "UF", .unit = "V", .min = kPositive, .description = "transistor voltage scale"},
     [](P& p) -> double& { return p.uf_v; }},
    {{.name = "alpha", .min = 0.0, .max = 1.0, .description = "collector share of the current"},
     [](P& p) -> double& { return p.alpha; }},
    {{.name = "beta", .unit = "A", .min = 0.0, .description = "transistor current scale"},
     [](P& p) -> double& { return p.beta_a; }},
    {{.name = "R0", .unit = "Ohm", .min = kPositive, .description = "input resistor"},
     [](P& p) -> double& { return p.r0_ohm; }},
    {{.name = "R", .unit = "Ohm", .min = kPositive, .description = "resistors R1..R9"},
     [](P& p) -> double& { return p.r_ohm; }},
    {{.name = "C1", .unit = "F", .min = kPositive, .description = "capacitor 1 (input)"},
     [](P& p) -> double& { return p.c_f[0]; }},
    {{.name = "C2", .unit = "F", .min = kPositive, .description = "capacitor 2 (emitter 1)"},
     [](P& p) -> double& { return p.c_f[1]; }},
    {{.name = "C3", .unit = "F", .min = kPositive, .description = "capacitor 3 (coupling)"},
     [](P& p) -> double& { return p.c_f[2]; }},
    {{.name = "C4", .unit = "F", .min = kPositive, .description = "capacitor 4 (emitter 2)"},
     [](P& p) -> double& { return p.c_f[3]; }},
    {{.name = "C5", .unit = "F", .min = kPositive, .description = "capacitor 5 (output)"},
     [](P& p) -> double& { return p.c_f[4]; }},
    {{.name = "Ue_amplitude", .unit = "V", .description = "amplitude of the input voltage"},
     [](P& p) -> double& { return p.ue_amplitude_v; }},
    {{.name = "Ue_frequency", .unit = "Hz", .min = 0.0, .description = "input frequency"},
     [](P& p) -> double& { return p.ue_frequency_hz; }},
}};

const char* const kRowNames[8] = {
    "C1*(der(U2) - der(U1)) = (U1 - Ue)/R0",
    "C1*(der(U1) - der(U2)) = (2*U2 - Ub)/R + (1 - alpha)*g(U2 - U3)",
    "-C2*der(U3) = U3/R - g(U2 - U3)",
    "C3*(der(U5) - der(U4)) = (U4 - Ub)/R + alpha*g(U2 - U3)",
    "C3*(der(U4) - der(U5)) = (2*U5 - Ub)/R + (1 - alpha)*g(U5 - U6)",
    "-C4*der(U6) = U6/R - g(U5 - U6)",
    "C5*(der(U8) - der(U7)) = (U7 - Ub)/R + alpha*g(U5 - U6)",
    "C5*(der(U7) - der(U8)) = U8/R",
};

}  // namespace

TransistorAmplifier::TransistorAmplifier(TransistorAmplifierParameters p)
    : Model("transistor_amplifier"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  for (std::size_t k = 0; k < 8; ++k) {
    const std::string name = "U" + std::to_string(k + 1);
    u_[k] = declare_variable({.name = name, .unit = "V", .der_unit = "V/s"});
    rows_[k] = declare_equation(kRowNames[k]);
  }
  ue_ = declare_output("Ue", "V");
  set_start_values();
}

void TransistorAmplifier::set_start_values() {
  // The test set's consistent y(0): the operating point with Ue(0) = 0 and no transistor
  // current (U2 = U3, U5 = U6), the dividers R1, R2 and R5, R6 at Ub/2.
  const double half = p_.ub_v / 2.0;
  const double start[8] = {0.0, half, half, p_.ub_v, half, half, p_.ub_v, 0.0};
  for (std::size_t k = 0; k < 8; ++k) {
    set_start(u_[k], start[k]);
    if (p_.der_start) set_der_start(u_[k], (*p_.der_start)[k]);
  }
}

void TransistorAmplifier::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start_values();
}

double TransistorAmplifier::input_voltage(double t) const {
  return p_.ue_amplitude_v * std::sin(2.0 * std::numbers::pi * p_.ue_frequency_hz * t);
}

double TransistorAmplifier::transistor_current(double u) const {
  return p_.beta_a * std::expm1(u / p_.uf_v);
}

void TransistorAmplifier::evaluate(Evaluation& e) {
  std::array<double, 8> u{}, du{};
  for (std::size_t k = 0; k < 8; ++k) u[k] = e.x(u_[k]), du[k] = e.der(u_[k]);
  const double ue = input_voltage(e.t());
  const double r = p_.r_ohm, ub = p_.ub_v, a = p_.alpha;
  const double g1 = transistor_current(u[1] - u[2]), g2 = transistor_current(u[4] - u[5]);
  const std::array<double, 5>& c = p_.c_f;
  const double f[8] = {(u[0] - ue) / p_.r0_ohm,
                       (2.0 * u[1] - ub) / r + (1.0 - a) * g1,
                       u[2] / r - g1,
                       (u[3] - ub) / r + a * g1,
                       (2.0 * u[4] - ub) / r + (1.0 - a) * g2,
                       u[5] / r - g2,
                       (u[6] - ub) / r + a * g2,
                       u[7] / r};
  const double m_du[8] = {c[0] * (du[1] - du[0]), c[0] * (du[0] - du[1]), -c[1] * du[2],
                          c[2] * (du[4] - du[3]), c[2] * (du[3] - du[4]), -c[3] * du[5],
                          c[4] * (du[7] - du[6]), c[4] * (du[6] - du[7])};
  for (std::size_t k = 0; k < 8; ++k) e.set(rows_[k], m_du[k] - f[k]);
  e.set(ue_, ue);
}

void TransistorAmplifier::jacobian(double /*t*/, double cj, std::span<const double> x,
                                   std::span<const double> /*der_x*/, JacobianEntries& entries) {
  const auto add = [&](std::size_t row, std::size_t col, double v) {
    entries.add(rows_[row], u_[col], v);
  };
  // Each row is m(der(U)) - f(U): cj times the capacitances, minus f's derivatives, with
  // g'(u) = beta exp(u / UF) / UF.
  const std::array<double, 5>& c = p_.c_f;
  const std::array<std::array<std::size_t, 2>, 5> pairs = {
      {{1, 0}, {2, 2}, {4, 3}, {5, 5}, {7, 6}}};
  for (std::size_t m = 0; m < 5; ++m) {
    const auto [a, b] = pairs[m];
    if (a == b) {
      add(a, a, -cj * c[m]);  // -C2 der(U3), -C4 der(U6)
      continue;
    }
    add(b, a, cj * c[m]);  // rows (1, 2), (4, 5), (7, 8): C (der(U_a) - der(U_b)) and back
    add(b, b, -cj * c[m]);
    add(a, b, cj * c[m]);
    add(a, a, -cj * c[m]);
  }
  const double r = p_.r_ohm;
  const double al = p_.alpha;
  const auto u = [&](std::size_t k) { return x[u_[k].index]; };
  const double d1 = p_.beta_a * std::exp((u(1) - u(2)) / p_.uf_v) / p_.uf_v;
  const double d2 = p_.beta_a * std::exp((u(4) - u(5)) / p_.uf_v) / p_.uf_v;
  add(0, 0, -1.0 / p_.r0_ohm);
  add(1, 1, -2.0 / r - (1.0 - al) * d1), add(1, 2, (1.0 - al) * d1);
  add(2, 2, -1.0 / r - d1), add(2, 1, d1);
  add(3, 3, -1.0 / r), add(3, 1, -al * d1), add(3, 2, al * d1);
  add(4, 4, -2.0 / r - (1.0 - al) * d2), add(4, 5, (1.0 - al) * d2);
  add(5, 5, -1.0 / r - d2), add(5, 4, d2);
  add(6, 6, -1.0 / r), add(6, 4, -al * d2), add(6, 5, al * d2);
  add(7, 7, -1.0 / r);
}

}  // namespace hdae::models
