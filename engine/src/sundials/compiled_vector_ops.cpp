#include "sundials/compiled_vector_ops.hpp"

#include <algorithm>
#include <cmath>

namespace hdae::sundials {
namespace {

struct Data {
  double* v;
  sunindextype n;
};

Data data(N_Vector x) { return {NV_DATA_S(x), NV_LENGTH_S(x)}; }

// y = y + a x, as SUNDIALS adds with a = +-1 (no product).
void add_multiple(double a, N_Vector x, N_Vector y) {
  const auto [xd, n] = data(x);
  double* yd = NV_DATA_S(y);
  if (a == 1.0) {
    for (sunindextype i = 0; i < n; ++i) yd[i] += xd[i];
  } else if (a == -1.0) {
    for (sunindextype i = 0; i < n; ++i) yd[i] -= xd[i];
  } else {
    for (sunindextype i = 0; i < n; ++i) yd[i] += a * xd[i];
  }
}

// z = f(x_i, y_i) entry by entry.
template <typename F>
void combine(N_Vector x, N_Vector y, N_Vector z, F f) {
  const auto [xd, n] = data(x);
  const double* yd = NV_DATA_S(y);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = f(xd[i], yd[i]);
}

// z = a x + b y with the cases of N_VLinearSum_Serial, in its order: they differ from the
// plain formula in the sign of zero results (y - x against -(x - y)) and in factoring the
// coefficient out where a = +-b.
void linear_sum(double a, N_Vector x, double b, N_Vector y, N_Vector z) {
  if (b == 1.0 && z == y) return add_multiple(a, x, y);
  if (a == 1.0 && z == x) return add_multiple(b, y, x);
  if (a == 1.0 && b == 1.0) return combine(x, y, z, [](double u, double v) { return u + v; });
  if (a == 1.0 && b == -1.0) return combine(x, y, z, [](double u, double v) { return u - v; });
  if (a == -1.0 && b == 1.0) return combine(y, x, z, [](double u, double v) { return u - v; });
  if (a == 1.0 || b == 1.0) {
    const double c = a == 1.0 ? b : a;
    return combine(a == 1.0 ? y : x, a == 1.0 ? x : y, z,
                   [c](double u, double v) { return (c * u) + v; });
  }
  if (a == -1.0 || b == -1.0) {
    const double c = a == -1.0 ? b : a;
    return combine(a == -1.0 ? y : x, a == -1.0 ? x : y, z,
                   [c](double u, double v) { return (c * u) - v; });
  }
  if (a == b) return combine(x, y, z, [a](double u, double v) { return a * (u + v); });
  if (a == -b) return combine(x, y, z, [a](double u, double v) { return a * (u - v); });
  combine(x, y, z, [a, b](double u, double v) { return (a * u) + (b * v); });
}

void constant(double c, N_Vector z) {
  const auto [zd, n] = data(z);
  std::fill(zd, zd + n, c);
}

void product(N_Vector x, N_Vector y, N_Vector z) {
  const auto [xd, n] = data(x);
  const double* yd = NV_DATA_S(y);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i] * yd[i];
}

void quotient(N_Vector x, N_Vector y, N_Vector z) {
  const auto [xd, n] = data(x);
  const double* yd = NV_DATA_S(y);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i] / yd[i];
}

void scale(double c, N_Vector x, N_Vector z) {
  const auto [xd, n] = data(x);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = c * xd[i];
}

void absolute(N_Vector x, N_Vector z) {
  const auto [xd, n] = data(x);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = std::abs(xd[i]);
}

void inverse(N_Vector x, N_Vector z) {
  const auto [xd, n] = data(x);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = 1.0 / xd[i];
}

void add_constant(N_Vector x, double b, N_Vector z) {
  const auto [xd, n] = data(x);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i] + b;
}

double dot(N_Vector x, N_Vector y) {
  const auto [xd, n] = data(x);
  const double* yd = NV_DATA_S(y);
  double sum = 0.0;
  for (sunindextype i = 0; i < n; ++i) sum += xd[i] * yd[i];
  return sum;
}

double max_norm(N_Vector x) {
  const auto [xd, n] = data(x);
  double max = 0.0;
  for (sunindextype i = 0; i < n; ++i) max = std::abs(xd[i]) > max ? std::abs(xd[i]) : max;
  return max;
}

double weighted_square_sum(N_Vector x, N_Vector w) {
  const auto [xd, n] = data(x);
  const double* wd = NV_DATA_S(w);
  double sum = 0.0;
  for (sunindextype i = 0; i < n; ++i) {
    const double p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

double wrms_norm(N_Vector x, N_Vector w) {
  return std::sqrt(weighted_square_sum(x, w) / static_cast<double>(NV_LENGTH_S(x)));
}

double wrms_norm_mask(N_Vector x, N_Vector w, N_Vector id) {
  const auto [xd, n] = data(x);
  const double* wd = NV_DATA_S(w);
  const double* idd = NV_DATA_S(id);
  double sum = 0.0;
  for (sunindextype i = 0; i < n; ++i) {
    if (idd[i] > 0.0) {
      const double p = xd[i] * wd[i];
      sum += p * p;
    }
  }
  return std::sqrt(sum / static_cast<double>(n));
}

double weighted_l2_norm(N_Vector x, N_Vector w) { return std::sqrt(weighted_square_sum(x, w)); }

double l1_norm(N_Vector x) {
  const auto [xd, n] = data(x);
  double sum = 0.0;
  for (sunindextype i = 0; i < n; ++i) sum += std::abs(xd[i]);
  return sum;
}

void compare(double c, N_Vector x, N_Vector z) {
  const auto [xd, n] = data(x);
  double* zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; ++i) zd[i] = std::abs(xd[i]) >= c ? 1.0 : 0.0;
}

// z = sum_k c_k X_k as SUNDIALS' fallback computes it: z = c_0 X_0, then z = z + c_k X_k in k's
// order, one pass over the entries for each term (passes of one loop each, which the compiler
// vectorises, cost less here than one pass that branches on c_k for every entry).
int linear_combination(int count, double* c, N_Vector* x, N_Vector z) {
  scale(c[0], x[0], z);
  for (int k = 1; k < count; ++k) add_multiple(c[k], x[k], z);
  return 0;
}

// Z_k = a_k x + Y_k, vector by vector as the fallback does (each of its linear sums has b = 1).
int scale_add_multi(int count, double* a, N_Vector x, N_Vector* y, N_Vector* z) {
  for (int k = 0; k < count; ++k) linear_sum(a[k], x, 1.0, y[k], z[k]);
  return 0;
}

int dot_multi(int count, N_Vector x, N_Vector* y, double* d) {
  for (int k = 0; k < count; ++k) d[k] = dot(x, y[k]);
  return 0;
}

}  // namespace

void use_compiled_operations(N_Vector v) {
  N_Vector_Ops ops = v->ops;
  ops->nvlinearsum = linear_sum;
  ops->nvconst = constant;
  ops->nvprod = product;
  ops->nvdiv = quotient;
  ops->nvscale = scale;
  ops->nvabs = absolute;
  ops->nvinv = inverse;
  ops->nvaddconst = add_constant;
  ops->nvdotprod = dot;
  ops->nvmaxnorm = max_norm;
  ops->nvwrmsnorm = wrms_norm;
  ops->nvwrmsnormmask = wrms_norm_mask;
  ops->nvwl2norm = weighted_l2_norm;
  ops->nvl1norm = l1_norm;
  ops->nvcompare = compare;
  ops->nvlinearcombination = linear_combination;
  ops->nvscaleaddmulti = scale_add_multi;
  ops->nvdotprodmulti = dot_multi;
  ops->nvdotprodlocal = dot;
  ops->nvmaxnormlocal = max_norm;
  ops->nvl1normlocal = l1_norm;
  ops->nvwsqrsumlocal = weighted_square_sum;
}

}  // namespace hdae::sundials
