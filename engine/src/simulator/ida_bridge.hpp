// The model as IDA's problem (sundials::IdaProblem): residuals, crossing values and the
// model's own Jacobian, evaluated through ModelCalls with the crossing Booleans frozen. A
// residual or crossing value that is not finite, and a RecoverableError thrown by the model in
// a residual call, are recoverable failures for IDA (it retries with a smaller step); the
// non-finite values are remembered, so that a run that fails there can name the
// equations, crossings and variables involved. The stop conditions (stop_watch.hpp) are
// polled on every residual call.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "events/crossing_table.hpp"
#include "model/model_calls.hpp"
#include "simulator/stop_watch.hpp"
#include "sundials/ida_integrator.hpp"

namespace hdae::detail {

class IdaBridge final : public sundials::IdaProblem {
 public:
  IdaBridge(ModelCalls& model, CrossingTable& crossings, StopWatch& stop)
      : model_(model),
        crossings_(crossings),
        stop_(stop),
        scratch_r_(model.structure().num_unknowns()) {}

  int residual(double t, std::span<const double> y, std::span<const double> yp,
               std::span<double> r) override;
  int roots(double t, std::span<const double> y, std::span<const double> yp,
            std::span<double> g) override;
  bool newton_matrix_aged() override { return model_.model().newton_matrix_aged(); }
  int jacobian(double t, double cj, std::span<const double> y, std::span<const double> yp,
               sundials::MatrixEntries& entries) override;

  /// The model changed its unknowns: n of them from now on.
  void resize(std::size_t n) {
    scratch_r_.assign(n, 0.0);
    non_finite_rows_.clear();
    non_finite_vars_.clear();
  }

  /// IDA restarts at t: its first root-function call there fixes the crossing offsets
  /// (CrossingTable::align_with_booleans) from the values IDA sees.
  void restarting(double t) { align_at_ = t; }

  /// Names the equations whose residual, the crossings whose value and the variables whose
  /// value was not finite at the last such call ("" when none was).
  [[nodiscard]] std::string non_finite_report() const;

 private:
  void note_non_finite(double t, std::span<const double> y, std::span<const double> yp,
                       std::span<const double> r);

  ModelCalls& model_;
  CrossingTable& crossings_;
  StopWatch& stop_;
  std::vector<double> scratch_r_;
  std::optional<double> align_at_;
  double non_finite_t_ = 0.0;
  std::vector<std::size_t> non_finite_rows_;
  std::vector<std::size_t> non_finite_crossings_;
  std::vector<std::size_t> non_finite_vars_;
};

}  // namespace hdae::detail
