// The result of a run (docs/design.md, "The data path"): a table of time plus named columns (x,
// der_x, outputs w) with units, two rows with the same time at every event (left limit x(t_e^-),
// then right limit x(t_e^+)), an event log, the status and the statistics.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/statistics.hpp"
#include "hdae/status.hpp"

namespace hdae {

enum class ColumnKind { kState, kDerivative, kOutput, kOther };

struct ColumnInfo {
  std::string name;
  std::string unit;
  ColumnKind kind = ColumnKind::kOther;
};

/// Time plus named columns, row-major. Rows with equal time are the two limits at an event.
class ResultTable {
 public:
  ResultTable() = default;
  explicit ResultTable(std::vector<ColumnInfo> columns);

  [[nodiscard]] const std::vector<ColumnInfo>& columns() const { return columns_; }
  [[nodiscard]] std::size_t num_columns() const { return columns_.size(); }
  [[nodiscard]] std::size_t num_rows() const { return time_.size(); }
  [[nodiscard]] const std::vector<double>& time() const { return time_; }
  [[nodiscard]] double time(std::size_t row) const { return time_[row]; }
  [[nodiscard]] std::span<const double> row(std::size_t row) const;
  [[nodiscard]] double value(std::size_t row, std::size_t column) const;
  /// Index of the column with this name (the first, should several carry it), found by hash
  /// in constant time; throws std::out_of_range naming it when absent.
  [[nodiscard]] std::size_t column_index(std::string_view name) const;
  /// Copy of one column over all rows.
  [[nodiscard]] std::vector<double> column(std::string_view name) const;
  /// Value of a named column in the last row.
  [[nodiscard]] double final_value(std::string_view name) const;

  /// Appends a row; values.size() must equal num_columns().
  void append(double t, std::span<const double> values);
  /// Makes room for this many rows in all, so that appending them allocates nothing more.
  void reserve_rows(std::size_t rows);

 private:
  /// Hashes std::string and std::string_view alike, so a view finds a name without a copy.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const noexcept {
      return std::hash<std::string_view>{}(name);
    }
  };

  /// The values, row-major: a growable array like std::vector<double>, but grown with
  /// realloc, so that the C library can move a large block's pages to a larger mapping (mremap
  /// on Linux) instead of copying them. A run of 10^4 masses records a quarter of a gigabyte;
  /// growing that by copying touched twice the memory and cost more than writing the values.
  class Values {
   public:
    Values() = default;
    Values(const Values& other);
    Values(Values&& other) noexcept;
    Values& operator=(const Values& other);
    Values& operator=(Values&& other) noexcept;
    ~Values();

    [[nodiscard]] const double* data() const { return data_; }
    [[nodiscard]] std::size_t size() const { return size_; }
    /// Makes room for `count` values in all.
    void reserve(std::size_t count);
    void append(std::span<const double> values);

   private:
    void swap(Values& other) noexcept;

    double* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
  };

  std::vector<ColumnInfo> columns_;
  /// Column name -> index of its first column; built once, as columns_ never changes.
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> index_;
  std::vector<double> time_;
  Values values_;
};

/// One variable whose value changed at an event.
struct JumpRecord {
  std::string variable;
  double before = 0.0;  ///< x(t_e^-)
  double after = 0.0;   ///< x(t_e^+)
};

/// The integral of a Dirac impulse an impact source carried at an event
/// (EventContext::impulse), e.g. the momentum two colliding bodies exchange.
struct ImpulseRecord {
  std::string variable;
  double integral = 0.0;  ///< in the variable's unit times seconds
};

/// One crossing whose Boolean flipped at an event.
struct CrossingRecord {
  std::string crossing;
  CrossingDirection direction = CrossingDirection::kRising;  ///< kRising or kFalling
};

/// How an event's time moves with one sensitivity of the run (SimulationOptions::sensitivities):
/// for a crossing, -(dg/dx s + dg/dp) / (dg/dt) at the event; for a time event, the derivative
/// of its scheduled time.
struct TimeSensitivity {
  std::string sensitivity;  ///< as the options name it: "J2", "start(w2)"
  double value = 0.0;       ///< d(t_event)/d(sensitivity)
};

struct EventRecord {
  double t = 0.0;
  EventKind kind = EventKind::kState;
  std::vector<CrossingRecord> crossings;  ///< flipped in any pass at this instant
  std::vector<std::string> time_events;   ///< time events that fired
  int iterations = 0;                     ///< event-iteration passes
  std::vector<JumpRecord> jumps;          ///< variables with x^+ != x^-
  std::vector<ImpulseRecord> impulses;    ///< impulses integrated in the jump solves
  std::string note;                       ///< e.g. the model's termination reason
  /// d(t_event)/d(p) for each sensitivity, at the state and time events of a run with
  /// sensitivities; empty otherwise.
  std::vector<TimeSensitivity> time_sensitivities;
};

struct SimulationResult {
  ResultTable table;
  std::vector<EventRecord> events;
  SimulationStatus status;
  Statistics statistics;
};

[[nodiscard]] std::string_view to_string(EventKind kind);
/// "state", "derivative", "output" or "other", as result files write the kind.
[[nodiscard]] std::string_view to_string(ColumnKind kind);

/// A few lines for people: status, rows, events with their jumps, statistics.
[[nodiscard]] std::string summary(const SimulationResult& result);

}  // namespace hdae
