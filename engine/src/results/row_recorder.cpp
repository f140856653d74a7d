#include "results/row_recorder.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <string>
#include <unordered_map>

#include "results/column_selection.hpp"

namespace hdae::detail {

namespace {

/// The columns of a model's rows, made when asked for: x, der(x) (or the declared derivative
/// names), outputs.
class ModelColumns final : public ColumnSource {
 public:
  explicit ModelColumns(const ModelStructure& s) : s_(s), n_(s.num_unknowns()) {}
  [[nodiscard]] std::size_t size() const override { return 2 * n_ + s_.outputs.size(); }
  [[nodiscard]] ColumnKind kind(std::size_t c) const override {
    return c < n_ ? ColumnKind::kState : c < 2 * n_ ? ColumnKind::kDerivative : ColumnKind::kOutput;
  }
  [[nodiscard]] ColumnInfo column(std::size_t c) const override {
    if (c < n_) return {s_.variables.name(c), s_.variables.declared(c).unit, ColumnKind::kState};
    if (c < 2 * n_) {
      const std::size_t j = c - n_;
      return {s_.variables.der_name(j), s_.variables.declared(j).der_unit, ColumnKind::kDerivative};
    }
    const OutputInfo& o = s_.outputs[c - 2 * n_];
    return {o.name, o.unit, ColumnKind::kOutput};
  }

 private:
  const ModelStructure& s_;
  std::size_t n_;
};

}  // namespace

RowRecorder::RowRecorder(ModelCalls& model, const SimulationOptions& options)
    : model_(model),
      rows_(options.record_rows),
      every_(std::max<std::size_t>(options.record_every, 1)),
      n_(model.structure().num_unknowns()),
      outputs_(model.structure().outputs.size()),
      scratch_r_(model.structure().num_unknowns()) {
  const ModelColumns all(model.structure());
  selected_ =
      select_columns(all, options.record_columns, options.record_kinds, model.structure().name);
  all_columns_ = selected_.size() == all.size();
  columns_.reserve(selected_.size());
  for (const std::size_t c : selected_) columns_.push_back(all.column(c));
  outputs_recorded_ = std::any_of(columns_.begin(), columns_.end(), [](const ColumnInfo& c) {
    return c.kind == ColumnKind::kOutput;
  });
  row_.resize(all.size());
  selected_row_.resize(all_columns_ ? 0 : selected_.size());
}

void RowRecorder::begin() {
  for (RowSink* sink : sinks_) sink->begin(columns_);
}

void RowRecorder::change_unknowns(const ModelStructure& now) {
  const ModelColumns all(now);
  std::unordered_map<std::string, std::size_t> index;
  index.reserve(all.size());
  const auto key = [](ColumnKind kind, const std::string& name) {
    return std::to_string(static_cast<int>(kind)) + ':' + name;
  };
  for (std::size_t c = 0; c < all.size(); ++c) {
    const ColumnInfo info = all.column(c);
    index.emplace(key(info.kind, info.name), c);
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const auto it = index.find(key(columns_[i].kind, columns_[i].name));
    selected_[i] = it != index.end() ? it->second : all.size();
  }
  n_ = now.num_unknowns();
  outputs_ = now.outputs.size();
  row_.assign(all.size() + 1, std::numeric_limits<double>::quiet_NaN());
  scratch_r_.assign(n_, 0.0);
  all_columns_ = false;
  selected_row_.resize(selected_.size());
}

bool RowRecorder::keeps_grid_row(std::size_t k) const {
  return rows_ == RecordedRows::kGrid && k % every_ == 0;
}

void RowRecorder::store(double t, std::span<const double> x, std::span<const double> der_x) {
  holding_ = false;  // a later row: the held one is not the last
  place(x, der_x);
  evaluate_outputs(t);
  hand_out(t);
}

void RowRecorder::store_grid(std::size_t k, double t) {
  if (keeps_grid_row(k)) {
    holding_ = false;
    evaluate_outputs(t);
    hand_out(t);
    return;
  }
  holding_ = true;
  held_.t = t;
  held_.x.assign(grid_x().begin(), grid_x().end());
  held_.der_x.assign(grid_der_x().begin(), grid_der_x().end());
  last_time_ = t;
}

void RowRecorder::store_without_outputs(double t, std::span<const double> x,
                                        std::span<const double> der_x) {
  holding_ = false;
  place(x, der_x);
  fill_outputs_with_nan();
  hand_out(t);
}

void RowRecorder::place(std::span<const double> x, std::span<const double> der_x) {
  std::copy(x.begin(), x.end(), row_.begin());
  std::copy(der_x.begin(), der_x.end(), row_.begin() + static_cast<std::ptrdiff_t>(n_));
}

void RowRecorder::evaluate_outputs(double t) {
  if (outputs_ == 0) return;       // the model declares no outputs
  if (!outputs_recorded_) return;  // the w part stays as it is, nobody sees it
  PhaseScope scope(model_, ModelPhase::kOutput);
  // An output row is no root function's: IDA evaluates the crossings on its own; and it
  // reads the outputs alone.
  model_.evaluate(t, grid_x(), grid_der_x(), scratch_r_, outputs(), EvaluationPhase::kContinuous,
                  CrossingValues::kUnused, ResidualValues::kUnused);
}

void RowRecorder::fill_outputs_with_nan() {
  const std::span<double> w = outputs();
  std::fill(w.begin(), w.end(), std::numeric_limits<double>::quiet_NaN());
}

void RowRecorder::hand_out(double t) {
  last_time_ = t;
  if (!all_columns_) {
    for (std::size_t i = 0; i < selected_.size(); ++i) selected_row_[i] = row_[selected_[i]];
  }
  const std::span<const double> row = all_columns_ ? row_ : selected_row_;
  for (RowSink* sink : sinks_) sink->append(t, row);
}

void RowRecorder::store_held_row() {
  holding_ = false;
  place(held_.x, held_.der_x);
  // The run is over: the model may be past helping (after a failure), so outputs it cannot
  // compute here are recorded as NaN rather than losing the row.
  try {
    evaluate_outputs(held_.t);
  } catch (...) {
    fill_outputs_with_nan();
  }
  hand_out(held_.t);
}

void RowRecorder::end() {
  if (ended_) return;
  ended_ = true;
  std::exception_ptr first;
  if (holding_) {
    try {
      store_held_row();
    } catch (...) {
      first = std::current_exception();
    }
  }
  for (RowSink* sink : sinks_) {
    try {
      sink->end();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace hdae::detail
