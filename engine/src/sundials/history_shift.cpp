#include "sundials/history_shift.hpp"

#include <array>
#include <cmath>
#include <limits>

#include <ida/ida_impl.h>
#include <sundials/sundials_config.h>

static_assert(SUNDIALS_VERSION_MAJOR == 6,
              "history_shift.cpp writes IDA's memory as SUNDIALS 6 lays it out (ida_impl.h)");

namespace hdae::sundials {
namespace {

using Terms = std::array<double, MXORDP1>;

/// c_m(s) of IDA's Newton form of its history, P(s) = sum_m c_m(s) phi[m] for m <= kused:
/// c_0 = 1, c_m = c_{m-1} (s - tn + psi[m-2]) / psi[m-1] with psi[-1] = 0 (IDAGetDky's form).
Terms newton_terms(const IDAMemRec& ida, double s) {
  Terms c{};
  c[0] = 1.0;
  double psi_before = 0.0;
  const auto used = static_cast<std::size_t>(ida.ida_kused);
  for (std::size_t m = 1; m <= used; ++m) {
    c[m] = c[m - 1] * (s - ida.ida_tn + psi_before) / ida.ida_psi[m - 1];
    psi_before = ida.ida_psi[m - 1];
  }
  return c;
}

/// (-1)^i binomial(j, i): the weights of the j-th backward difference.
double difference_weight(int j, int i) {
  double w = 1.0;
  for (int l = 1; l <= i; ++l) w = w * static_cast<double>(j - l + 1) / static_cast<double>(l);
  return i % 2 == 0 ? w : -w;
}

bool has_history_at(const IDAMemRec& ida, double t, double h) {
  if (ida.ida_nst == 0 || ida.ida_kused < 1 || !(h > 0.0) || !std::isfinite(h)) return false;
  // IDAGetDky's own bounds of the last step: [tn - hused, tn] within round-off.
  const double fuzz = 100.0 * ida.ida_uround * (std::abs(ida.ida_tn) + std::abs(ida.ida_hh));
  return t >= ida.ida_tn - ida.ida_hused - fuzz && t <= ida.ida_tn + fuzz;
}

/// The root functions afresh at t, on the right limit, where the next step's search begins.
/// IDA's own way, after a root it returned, is the flag irfnd: its check before the next step
/// evaluates them at t, but it leaves the flag set, so that every later step evaluates them
/// twice (at its start, where the previous step already did, and at its end). They are
/// evaluated here instead; only a function that stands exactly at zero at t is left to IDA's
/// check, which decides from a point just after t whether it is a root to report.
void fresh_roots(IDAMemRec& ida, const RightLimit& limit) {
  ida.ida_tlo = limit.t;
  ida.ida_irfnd = 1;
  if (ida.ida_gfun(limit.t, limit.y, limit.yp, ida.ida_glo, ida.ida_user_data) != 0) return;
  ++ida.ida_nge;
  for (int i = 0; i < ida.ida_nrtfn; ++i) {
    if (ida.ida_gactive[i] && ida.ida_glo[i] == 0.0) return;
  }
  ida.ida_irfnd = 0;
}

}  // namespace

bool shift_history(void* ida_mem, const RightLimit& limit, double h, N_Vector work,
                   N_Vector work2) {
  auto* ida = static_cast<IDAMemRec*>(ida_mem);
  const double t = limit.t;
  if (ida == nullptr || !has_history_at(*ida, t, h)) return false;
  const int k = ida->ida_kused;
  // work = y'+ - P'(t), the jump of the slope, and work2 = y''+ - P''(t), that of the
  // curvature, while P is still IDA's.
  if (IDAGetDky(ida_mem, t, 1, work) != IDA_SUCCESS) return false;
  N_VLinearSum(1.0, limit.yp, -1.0, work, work);
  const bool curvature = limit.ypp != nullptr && k >= 2;
  if (curvature) {
    if (IDAGetDky(ida_mem, t, 2, work2) != IDA_SUCCESS) return false;
    N_VLinearSum(1.0, limit.ypp, -1.0, work2, work2);
  }
  // The j-th backward difference of P over t, t - h, ..., t - j h is
  // sum_m (sum_i (-1)^i binomial(j, i) c_m(t - i h)) phi[m], where only m >= j contribute (the
  // j-th difference of a polynomial of lower degree vanishes). So phi[j] is rewritten from
  // phi[j..k] in increasing j, in place.
  std::array<Terms, MXORDP1> c{};
  const auto at = [](int i) { return static_cast<std::size_t>(i); };
  for (int i = 0; i <= k; ++i) c[at(i)] = newton_terms(*ida, t - i * h);
  for (int j = 1; j <= k; ++j) {
    Terms a{};
    for (int m = j; m <= k; ++m) {
      for (int i = 0; i <= j; ++i) a[at(m)] += difference_weight(j, i) * c[at(i)][at(m)];
    }
    N_VLinearCombination(k - j + 1, a.data() + j, ida->ida_phi + j, ida->ida_phi[j]);
  }
  // The shift adds a constant (all differences but the zeroth vanish), a line of slope
  // y'+ - P'(t) (first difference h times it) and a parabola c (s - t)^2 / 2 with
  // c = y''+ - P''(t), whose values at t, t - h, t - 2h are 0, c h^2 / 2, 2 c h^2: first
  // difference -c h^2 / 2, second c h^2, higher ones 0.
  N_VLinearSum(1.0, ida->ida_phi[1], h, work, ida->ida_phi[1]);
  if (curvature) {
    N_VLinearSum(1.0, ida->ida_phi[1], -0.5 * h * h, work2, ida->ida_phi[1]);
    N_VLinearSum(1.0, ida->ida_phi[2], h * h, work2, ida->ida_phi[2]);
  }
  N_VScale(1.0, limit.y, ida->ida_phi[0]);
  // IDA keeps its last local error in phi[k + 1] for deciding on a higher order; that error
  // belongs to the old history. The next step overwrites it before an order rise is weighed.
  if (k < ida->ida_maxord) N_VConst(0.0, ida->ida_phi[k + 1]);
  for (int i = 0; i <= k; ++i) ida->ida_psi[i] = (i + 1) * h;
  ida->ida_tn = t;
  ida->ida_tretlast = t;
  ida->ida_hh = h;
  ida->ida_hused = h;
  ida->ida_kk = k;
  // ns = 0 makes IDA recompute its coefficients from psi and count steps at this step size
  // afresh before it considers a higher order; ss = 100 forgets the Newton rate measured on
  // the old history (IDA's own value after a change of cj).
  ida->ida_ns = 0;
  ida->ida_ss = 100.0;
  if (ida->ida_nrtfn > 0) fresh_roots(*ida, limit);
  return true;
}

bool force_linear_setup(void* ida_mem) {
  auto* ida = static_cast<IDAMemRec*>(ida_mem);
  if (ida == nullptr) return false;
  // SUNDIALS 6.4 has no call that asks IDA for a setup. IDANls (ida.c) sets one up before
  // the first step and whenever cj / cjold leaves [(1 - dcj) / (1 + dcj), its inverse];
  // idaNlsLSetup (ida_nls.c) then sets cjold = cj and cjratio = 1. With cjold infinite the
  // ratio is 0 (of either sign), below that range for any cj, so the next nonlinear solve,
  // and the retries of a failed step until one setup happened, set up first: no solve ever
  // uses a factorisation of the old pattern. The linear solve's scaling by cjratio
  // (idaLsSolve, ida_ls.c) comes only after that setup.
  ida->ida_cjold = std::numeric_limits<double>::infinity();
  return true;
}

}  // namespace hdae::sundials
