// Recording of a run's rows (docs/design.md, "The data path"): a row is time, x, der_x and the
// model's outputs w, which are evaluated only for stored rows (the model is asked for outputs
// at no other call). The recorder assembles it in one buffer and hands it to every row sink.
//
// What is recorded follows SimulationOptions::record_* (column_selection.hpp for the columns):
// every sink sees the selected columns only, and the outputs are not evaluated at all when no
// output column is selected. Rows come in two sorts. Instant rows (t0, both limits at an event,
// the stop time, the last row of a run that ends early) are always recorded. Grid rows (output
// points) are recorded when the row selection keeps their grid index; a grid row it drops is
// held back instead, and recorded after all when the run ends without a later row, so every
// selection ends with the run's last row.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "hdae/options.hpp"
#include "hdae/row_sink.hpp"
#include "model/model_calls.hpp"

namespace hdae::detail {

class RowRecorder {
 public:
  /// Throws OptionError when options.record_columns names no column of the model.
  RowRecorder(ModelCalls& model, const SimulationOptions& options);

  void add_sink(RowSink& sink) { sinks_.push_back(&sink); }
  /// The recorded columns.
  [[nodiscard]] const std::vector<ColumnInfo>& columns() const { return columns_; }
  /// Hands the columns to every sink.
  void begin();
  /// The model changed its unknowns (EventContext::unknowns_changed): the columns stay, each
  /// filled from the new rows by its kind and name, NaN where the new rows have no such
  /// variable, derivative or output.
  void change_unknowns(const ModelStructure& now);
  /// Stores the instant row (t, x, der_x, w(t, x, der_x)); the model is evaluated for w when
  /// an output column is recorded.
  void store(double t, std::span<const double> x, std::span<const double> der_x);
  /// Where the row of an output point is written before store_grid(): the x and der_x parts
  /// of the row buffer, so that the simulator interpolates a grid row straight into it and
  /// the row is not copied once more on its way to the sinks.
  [[nodiscard]] std::span<double> grid_x() { return std::span(row_).first(n_); }
  [[nodiscard]] std::span<double> grid_der_x() { return std::span(row_).subspan(n_, n_); }
  /// The row of output point k (t = t0 + k dt), its x and der_x already in grid_x() and
  /// grid_der_x(): stored when the row selection keeps it, held back otherwise.
  void store_grid(std::size_t k, double t);
  /// Stores (t, x, der_x) with NaN outputs (where the model cannot evaluate them).
  void store_without_outputs(double t, std::span<const double> x, std::span<const double> der_x);
  /// Stores a grid row held back as the last row, then tells every sink that the run is over;
  /// the first exception of a sink is rethrown after all sinks were told.
  void end();
  [[nodiscard]] bool ended() const { return ended_; }
  /// Time of the last row offered (stored or held back); -infinity before the first.
  [[nodiscard]] double last_time() const { return last_time_; }

 private:
  struct HeldRow {
    double t = 0.0;
    std::vector<double> x;
    std::vector<double> der_x;
  };

  [[nodiscard]] bool keeps_grid_row(std::size_t k) const;
  /// Copies x and der_x into the row buffer (the instant rows, a held row).
  void place(std::span<const double> x, std::span<const double> der_x);
  /// The outputs at the row buffer's (t, x, der_x), into its w part.
  void evaluate_outputs(double t);
  void fill_outputs_with_nan();
  [[nodiscard]] std::span<double> outputs() { return std::span(row_).subspan(2 * n_, outputs_); }
  /// The row buffer (its selected columns) to every sink.
  void hand_out(double t);
  void store_held_row();

  ModelCalls& model_;
  std::vector<std::size_t> selected_;  ///< indices into the full row [x, der_x, w]
  std::vector<ColumnInfo> columns_;    ///< the selected columns
  bool all_columns_ = true;
  bool outputs_recorded_ = true;
  RecordedRows rows_;
  std::size_t every_;
  std::vector<RowSink*> sinks_;
  std::size_t n_;        ///< unknowns
  std::size_t outputs_;  ///< outputs w
  /// The full row [x, der_x, w], and after a change of unknowns one NaN after it, which the
  /// columns the new rows do not have read.
  std::vector<double> row_;
  std::vector<double> selected_row_;
  std::vector<double> scratch_r_;
  HeldRow held_;  ///< its vectors keep their memory from one held row to the next
  bool holding_ = false;
  bool ended_ = false;
  double last_time_ = -std::numeric_limits<double>::infinity();
};

}  // namespace hdae::detail
