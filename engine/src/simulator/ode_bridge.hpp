// The model as CVODE's or ARKODE's problem (sundials::OdeProblem) in a mode that is an explicit
// ODE (explicit_form.hpp): f(t, x) from the residual at der_x = 0, divided by the rows'
// coefficients, and the crossings through the IdaBridge, which keeps its checks of non-finite
// values and of stop requests.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "simulator/explicit_form.hpp"
#include "simulator/ida_bridge.hpp"
#include "sundials/ode_integrator.hpp"

namespace hdae::detail {

class OdeBridge final : public sundials::OdeProblem {
 public:
  explicit OdeBridge(IdaBridge& residuals) : residuals_(residuals) {}

  /// The explicit form of the mode from now on.
  void use(ExplicitForm form);

  [[nodiscard]] std::size_t size() const { return r0_.size(); }
  int rhs(double t, std::span<const double> y, std::span<double> ydot) override;
  int roots(double t, std::span<const double> y, std::span<double> g) override;

 private:
  IdaBridge& residuals_;
  ExplicitForm form_;
  /// Row i holds der(x_i) with coefficient 1 everywhere: f = -F(t, y, 0), written in place.
  bool unit_rows_ = false;
  std::vector<double> zero_;
  std::vector<double> ones_;
  std::vector<double> r0_;
  std::vector<double> r1_;
  std::vector<double> ydot_;
};

}  // namespace hdae::detail
