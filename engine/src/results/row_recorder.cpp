#include "results/row_recorder.hpp"

#include <algorithm>
#include <exception>
#include <limits>

#include <fmt/format.h>

namespace hdae::detail {

std::vector<ColumnInfo> columns_of(const ModelStructure& s) {
  std::vector<ColumnInfo> columns;
  columns.reserve(2 * s.variables.size() + s.outputs.size());
  for (const VariableInfo& v : s.variables) columns.push_back({v.name, v.unit, ColumnKind::kState});
  for (const VariableInfo& v : s.variables) {
    columns.push_back({v.der_name.empty() ? fmt::format("der({})", v.name) : v.der_name, v.der_unit,
                       ColumnKind::kDerivative});
  }
  for (const OutputInfo& o : s.outputs) columns.push_back({o.name, o.unit, ColumnKind::kOutput});
  return columns;
}

RowRecorder::RowRecorder(ModelCalls& model)
    : model_(model),
      columns_(columns_of(model.structure())),
      row_(columns_.size()),
      w_(model.structure().outputs.size()),
      scratch_r_(model.structure().num_unknowns()) {}

void RowRecorder::begin() {
  for (RowSink* sink : sinks_) sink->begin(columns_);
}

void RowRecorder::store(double t, std::span<const double> x, std::span<const double> der_x) {
  if (!w_.empty()) {
    PhaseScope scope(model_, ModelPhase::kOutput);
    model_.evaluate(t, x, der_x, scratch_r_, w_, EvaluationPhase::kContinuous);
  }
  hand_out(t, x, der_x);
}

void RowRecorder::store_without_outputs(double t, std::span<const double> x,
                                        std::span<const double> der_x) {
  std::fill(w_.begin(), w_.end(), std::numeric_limits<double>::quiet_NaN());
  hand_out(t, x, der_x);
}

void RowRecorder::hand_out(double t, std::span<const double> x, std::span<const double> der_x) {
  const auto n = static_cast<std::ptrdiff_t>(x.size());
  std::copy(x.begin(), x.end(), row_.begin());
  std::copy(der_x.begin(), der_x.end(), row_.begin() + n);
  std::copy(w_.begin(), w_.end(), row_.begin() + 2 * n);
  last_time_ = t;
  for (RowSink* sink : sinks_) sink->append(t, row_);
}

void RowRecorder::end() {
  if (ended_) return;
  ended_ = true;
  std::exception_ptr first;
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
