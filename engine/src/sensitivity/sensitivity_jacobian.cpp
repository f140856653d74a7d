// The Newton matrix of the sensitivity model from the model's own Jacobian (docs/design.md,
// "Sensitivities"). Row i of source k is the path derivative of F_i, so its entries are those
// of dF/dx + cj dF/d(der_x) on s_k and, on x, the derivative of that matrix along the path
// eps -> (x + eps s_k, x' + eps s_k', p_k + eps): the same stencil as the rows, on the
// model's matrices. The difference quotients IDA would take of the sensitivity rows instead
// divide the rows' rounding by the quotient's step and then by the unknowns' increments: for a
// mechanism's large forces that noise reaches the entries themselves, and the sensitivities'
// Newton iterations stall where the model's converge.
#include <vector>

#include "sensitivity/sensitivity_model.hpp"

namespace hdae::detail {
namespace {

/// The entries one call of the model's jacobian() adds, in its order.
class CollectedEntries final : public JacobianEntries {
 public:
  struct Entry {
    std::size_t row = 0;
    std::size_t col = 0;
    double value = 0.0;
  };
  void add(Eq row, Var col, double value) override {
    entries.push_back({row.index, col.index, value});
  }
  std::vector<Entry> entries;
};

}  // namespace

void SensitivityModel::jacobian(double t, double cj, std::span<const double> x,
                                std::span<const double> der_x, JacobianEntries& entries) {
  CollectedEntries moved;
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const Stencil& st = stencils_[k];
    const std::size_t shift = n_ * (k + 1);
    for (std::size_t m = 0; m < st.points; ++m) {
      if (st.offset[m] == 0 || st.weight[m] == 0.0) continue;
      const double eps = st.offset[m] * steps_[k];
      for (std::size_t j = 0; j < n_; ++j) {
        x_[j] = x[j] + eps * x[shift + j];
        der_x_[j] = der_x[j] + eps * der_x[shift + j];
      }
      moved.entries.clear();
      vary(k, eps);
      try {
        model_.jacobian(t, cj, x_, der_x_, moved);
      } catch (...) {
        vary(k, 0.0);
        throw;
      }
      vary(k, 0.0);
      const double w = st.weight[m] / steps_[k];
      for (const auto& e : moved.entries) entries.add(Eq{shift + e.row}, Var{e.col}, w * e.value);
    }
  }
  // The point itself last: a model that keeps what its last matrix saw keeps the point's.
  CollectedEntries base;
  model_.jacobian(t, cj, x.first(n_), der_x.first(n_), base);
  for (const auto& e : base.entries) {
    entries.add(Eq{e.row}, Var{e.col}, e.value);
    for (std::size_t k = 0; k < sources_.size(); ++k) {
      const Stencil& st = stencils_[k];
      const std::size_t shift = n_ * (k + 1);
      entries.add(Eq{shift + e.row}, Var{shift + e.col}, e.value);
      for (std::size_t m = 0; m < st.points; ++m) {
        if (st.offset[m] != 0 || st.weight[m] == 0.0) continue;
        entries.add(Eq{shift + e.row}, Var{e.col}, st.weight[m] / steps_[k] * e.value);
      }
    }
  }
}

}  // namespace hdae::detail
