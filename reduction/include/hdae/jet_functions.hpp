// The elementary functions' value and first three derivatives at a point, from which a Taylor
// jet of the function follows (hdae/jet.hpp). Each derivative is written through the function's
// own value where that keeps it short (tan' = 1 + tan^2).
#pragma once

#include <array>
#include <cmath>

namespace hdae::jet_functions {

/// f(x), f'(x), f''(x), f'''(x).
using Derivatives = std::array<double, 4>;

inline Derivatives sin(double x) {
  const double s = std::sin(x);
  const double c = std::cos(x);
  return {s, c, -s, -c};
}
inline Derivatives cos(double x) {
  const double s = std::sin(x);
  const double c = std::cos(x);
  return {c, -s, -c, s};
}
inline Derivatives tan(double x) {
  const double t = std::tan(x);
  const double d = 1.0 + t * t;
  return {t, d, 2.0 * t * d, 2.0 * d * (1.0 + 3.0 * t * t)};
}
/// asin' = g = 1 / sqrt(1 - x^2), asin'' = x g^3, asin''' = g^3 (1 + 3 x^2 g^2).
inline Derivatives asin(double x) {
  const double g = 1.0 / std::sqrt(1.0 - x * x);
  const double g3 = g * g * g;
  return {std::asin(x), g, x * g3, g3 * (1.0 + 3.0 * x * x * g * g)};
}
inline Derivatives acos(double x) {
  const Derivatives a = asin(x);
  return {std::acos(x), -a[1], -a[2], -a[3]};
}
/// atan' = q = 1 / (1 + x^2), atan'' = -2 x q^2, atan''' = (6 x^2 - 2) q^3.
inline Derivatives atan(double x) {
  const double q = 1.0 / (1.0 + x * x);
  return {std::atan(x), q, -2.0 * x * q * q, (6.0 * x * x - 2.0) * q * q * q};
}
inline Derivatives exp(double x) {
  const double e = std::exp(x);
  return {e, e, e, e};
}
inline Derivatives log(double x) {
  const double i = 1.0 / x;
  return {std::log(x), i, -i * i, 2.0 * i * i * i};
}
/// sqrt' = 1 / (2 r), sqrt'' = -1 / (4 r^3), sqrt''' = 3 / (8 r^5), r = sqrt(x).
inline Derivatives sqrt(double x) {
  const double r = std::sqrt(x);
  const double i = 1.0 / r;
  const double i3 = i * i * i;
  return {r, 0.5 * i, -0.25 * i3, 0.375 * i3 * i * i};
}
inline Derivatives sinh(double x) {
  const double s = std::sinh(x);
  const double c = std::cosh(x);
  return {s, c, s, c};
}
inline Derivatives cosh(double x) {
  const double s = std::sinh(x);
  const double c = std::cosh(x);
  return {c, s, c, s};
}
/// tanh' = u = 1 - tanh^2, tanh'' = -2 tanh u, tanh''' = -2 u (1 - 3 tanh^2).
inline Derivatives tanh(double x) {
  const double t = std::tanh(x);
  const double u = 1.0 - t * t;
  return {t, u, -2.0 * t * u, -2.0 * u * (1.0 - 3.0 * t * t)};
}
/// x^p and p x^(p-1), p (p-1) x^(p-2), p (p-1) (p-2) x^(p-3).
inline Derivatives pow(double x, double p) {
  return {std::pow(x, p), p * std::pow(x, p - 1.0), p * (p - 1.0) * std::pow(x, p - 2.0),
          p * (p - 1.0) * (p - 2.0) * std::pow(x, p - 3.0)};
}

}  // namespace hdae::jet_functions
