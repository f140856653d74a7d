// Recording of a run's rows (docs/design.md, "The data path"): a row is time, x, der_x and the
// model's outputs w, which are evaluated only for stored rows (the model is asked for outputs
// at no other call). The recorder assembles it in one buffer and hands it to every row sink.
#pragma once

#include <limits>
#include <span>
#include <vector>

#include "hdae/row_sink.hpp"
#include "model/model_calls.hpp"

namespace hdae::detail {

/// The columns of a model's rows: x, der(x) (or the declared derivative names), outputs.
[[nodiscard]] std::vector<ColumnInfo> columns_of(const ModelStructure& structure);

class RowRecorder {
 public:
  explicit RowRecorder(ModelCalls& model);

  void add_sink(RowSink& sink) { sinks_.push_back(&sink); }
  [[nodiscard]] const std::vector<ColumnInfo>& columns() const { return columns_; }
  /// Hands the columns to every sink.
  void begin();
  /// Stores (t, x, der_x, w(t, x, der_x)); the model is evaluated for w when it has outputs.
  void store(double t, std::span<const double> x, std::span<const double> der_x);
  /// Stores (t, x, der_x) with NaN outputs (where the model cannot evaluate them).
  void store_without_outputs(double t, std::span<const double> x, std::span<const double> der_x);
  /// Tells every sink that the run is over; the first exception of a sink is rethrown after
  /// all sinks were told.
  void end();
  [[nodiscard]] bool ended() const { return ended_; }
  /// Time of the last stored row; -infinity before the first.
  [[nodiscard]] double last_time() const { return last_time_; }

 private:
  void hand_out(double t, std::span<const double> x, std::span<const double> der_x);

  ModelCalls& model_;
  std::vector<ColumnInfo> columns_;
  std::vector<RowSink*> sinks_;
  std::vector<double> row_;
  std::vector<double> w_;
  std::vector<double> scratch_r_;
  bool ended_ = false;
  double last_time_ = -std::numeric_limits<double>::infinity();
};

}  // namespace hdae::detail
