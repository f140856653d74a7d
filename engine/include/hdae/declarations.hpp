// What a model declares about its unknowns and residual rows: the descriptions (VariableInfo,
// EquationInfo), the typed handles that address them (Var, Eq, and Vars, Eqs for indexed
// families) and the tables ModelStructure (model.hpp) keeps them in, with the sparsity pattern.
//
// A large model declares its unknowns in indexed families: declare_variables(N, {.name = "v"})
// (model_builder.hpp) stands for v[1] ... v[N], which share one description. The tables store
// a family as its description and its place, and make names ("v[7]") when asked for them, so
// a chain of 10^6 masses costs its start values and a few descriptions, not 3 10^6 records of
// strings. The handles of a family compute indices (first + i * stride) instead of storing
// them, and one dependency declaration stands for the pattern entries of a whole family.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hdae {

/// Whether an unknown takes part in IDA's local error test.
enum class ErrorControl { kIncluded, kExcluded };

/// Kind of a residual row (docs/design.md, "The problem class" and "General rows and singular
/// mass matrices"):
///   kDifferential  a row that may hold der_x in any way: affine, M_d(x,t) der_x + b_d(x,t)
///                  (the usual case, and the one impulses are integrated for), or nonlinear
///                  (der(x)^3 = 27 x^2). The consistent derivatives solve such rows by Newton's
///                  method; their mass matrix dF/d(der_x) may be singular when the rows whose
///                  derivatives cancel imply constraints that determine der_x once
///                  differentiated (index 1), like M der(y) = f(y) of the transistor amplifier.
///   kConstraint    a row without der_x (f_c): the consistent derivatives differentiate it.
/// A row without der_x may be declared kDifferential too (it then counts as a hidden
/// constraint); a kConstraint row must not hold der_x (analyze_index reports one that does).
enum class RowKind { kDifferential, kConstraint };

/// Description of one unknown x[i], or of every member of an indexed family (then name is the
/// family's name, member i is called "<name>[i]", and start is where every member starts
/// unless set otherwise).
struct VariableInfo {
  std::string name;      ///< unique, non-empty; used in results and messages
  std::string unit;      ///< free text, e.g. "rad/s"; may be empty
  double start = 0.0;    ///< start value x(t0^-); finite
  bool fixed = false;    ///< keep the start value at t0 (ITI paper section 4)
  double nominal = 1.0;  ///< typical magnitude (> 0): scales tolerances and jump solves
  ErrorControl error_control = ErrorControl::kIncluded;  ///< excluded: no local error test
  /// column name of der_x[i]; "der(<name>)" when empty (for a family: "<der_name>[i]")
  std::string der_name;
  std::string der_unit;  ///< unit of der_x[i]; may be empty
  /// IDA's absolute tolerance of x[i] when set (> 0, finite); unset: abs_tol_factor *
  /// rel_tol * nominal (SimulationOptions). IDA's error weight is 1/(rel_tol |x_i| + abs_tol_i).
  std::optional<double> abs_tol;
  /// Start value of der_x[i] (finite when set; unset: 0). A guess, like a Modelica start value
  /// of der(x), not a fixed value: it is der_x(t0^-), what the first pass of the initial event
  /// iteration sees (crossing conditions, EventContext::der) and the t0 left-limit row holds;
  /// the consistent derivatives at t0 then replace it (docs/design.md, "The jump solve").
  std::optional<double> der_start;
  /// Feasible region (ITI paper section 6): bounds the jump solves keep x[i] within (an
  /// absolute pressure >= 0, a level <= the rim). A Newton step that would leave the region
  /// goes parallel to its border instead when the equations leave room (a minimum-norm step
  /// with this unknown held), and is otherwise shortened to at most 90 % of the way to the
  /// border, so the model is never evaluated outside it there. Finite, min < max, and the
  /// start value within. Integration between events does not enforce them.
  std::optional<double> min;
  std::optional<double> max;
};

/// Description of one residual row r[i], or of every member of an indexed family: then name is
/// a template in which "{i}" stands for the member's number (1, 2, ...) and "{i+1}", "{i-1}"
/// (any offset) for its neighbours' ("m*der(v[{i}]) = f[{i+1}] - f[{i}]").
struct EquationInfo {
  std::string name;                       ///< e.g. "J1*der(w1) = tau1 - tau"
  RowKind kind = RowKind::kDifferential;  ///< row kind at t0; may change at events
};

/// One structurally non-zero entry of dF/dx + c dF/d(der_x).
struct SparsityEntry {
  std::size_t row = 0;
  std::size_t col = 0;
};

/// Typed handles into a ModelStructure (the modelling layer hands these out): an unknown, a
/// residual row, an output, a crossing, a time event, a parameter.
struct Var {
  std::size_t index = 0;
};
struct Eq {
  std::size_t index = 0;
};
struct Out {
  std::size_t index = 0;
};
struct Crossing {
  std::size_t index = 0;
};
struct TimeEvent {
  std::size_t index = 0;
};
struct Param {
  std::size_t index = 0;
};

namespace detail {
/// Throws ModelError: a handle (Var, Eq, Out, Crossing, TimeEvent) whose index lies outside
/// the model's declarations, e.g. one kept from another model.
[[noreturn]] void throw_bad_handle(const char* kind, std::size_t index, std::size_t count);
/// index when it is below count, else throw_bad_handle.
inline std::size_t checked(const char* kind, std::size_t index, std::size_t count) {
  if (index >= count) throw_bad_handle(kind, index, count);
  return index;
}
/// Throws ModelError: element i of a family of count elements does not exist.
[[noreturn]] void throw_bad_element(std::size_t i, std::size_t count);
}  // namespace detail

/// The handles of an indexed family (Model::declare_variables, declare_equations): element i
/// (counted from 0, as in C++) is the one whose name carries the number i + 1 (v[i + 1], as in
/// Modelica). Families declared together lie element by element, so stride is their number.
template <class Handle>
struct Family {
  std::size_t first = 0;   ///< index of element 0
  std::size_t count = 0;   ///< number of elements
  std::size_t stride = 1;  ///< distance between the indices of neighbouring elements

  [[nodiscard]] std::size_t size() const { return count; }
  /// Element i. Builds without NDEBUG check i < size() (like an assert).
  [[nodiscard]] Handle operator[](std::size_t i) const {
#ifndef NDEBUG
    if (i >= count) detail::throw_bad_element(i, count);
#endif
    return Handle{first + i * stride};
  }

  struct iterator {  // NOLINT(readability-identifier-naming): the standard library's name
    using value_type = Handle;
    using difference_type = std::ptrdiff_t;
    std::size_t index = 0;
    std::size_t stride = 1;
    Handle operator*() const { return Handle{index}; }
    iterator& operator++() {
      index += stride;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      index += stride;
      return before;
    }
    bool operator==(const iterator&) const = default;
  };
  [[nodiscard]] iterator begin() const { return {first, stride}; }
  [[nodiscard]] iterator end() const { return {first + count * stride, stride}; }
};
using Vars = Family<Var>;
using Eqs = Family<Eq>;

namespace detail {

/// One declaration of a table: `count` elements of `width` members each, member k of element
/// i at index first + i * width + k. A family declaration (indexed) shares one description per
/// member among all elements; a run of single declarations (not indexed, width 1) has one
/// description per element, so a model declared one unknown at a time has one run in all.
struct DeclarationGroup {
  std::size_t first = 0;        ///< index of its first entry
  std::size_t count = 0;        ///< elements
  std::size_t width = 1;        ///< members per element
  std::size_t description = 0;  ///< position of its first description in the table
  bool indexed = false;         ///< a family: names carry the element number

  [[nodiscard]] std::size_t size() const { return count * width; }
};

/// Where entry j of a table lies: its group, element and member, and its description.
struct DeclarationPlace {
  const DeclarationGroup* group = nullptr;
  std::size_t element = 0;
  std::size_t member = 0;
  std::size_t description = 0;
};

/// The groups of a table in index order.
class DeclarationIndex {
 public:
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::span<const DeclarationGroup> groups() const { return groups_; }
  /// The place of entry j < size().
  [[nodiscard]] DeclarationPlace locate(std::size_t j) const;
  /// Calls visit(j, d) for every entry j in index order, d the position of its description.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const DeclarationGroup& g : groups_) {
      for (std::size_t k = 0; k < g.size(); ++k) {
        visit(g.first + k, g.description + (g.indexed ? k % g.width : k));
      }
    }
  }
  /// Appends one entry with its own description (extending the last run of such entries).
  void append_single(std::size_t description);
  /// Appends a family group; returns its first index.
  std::size_t append_family(std::size_t count, std::size_t width, std::size_t description);
  void clear();

 private:
  std::vector<DeclarationGroup> groups_;
  std::size_t size_ = 0;
};

}  // namespace detail

/// The unknowns of a model: their descriptions, shared within families, and their start
/// values, one per unknown.
class VariableTable {
 public:
  VariableTable() = default;
  /// Unknowns declared one by one.
  VariableTable(std::initializer_list<VariableInfo> variables);

  [[nodiscard]] std::size_t size() const { return start_.size(); }
  [[nodiscard]] bool empty() const { return start_.empty(); }

  /// Appends one unknown named info.name; returns its index.
  std::size_t add(VariableInfo info);
  /// Appends count elements of the families described by members, element by element: member
  /// k of element i (from 0) at the returned index + i * members.size() + k, named
  /// "<members[k].name>[i + 1]" and starting at members[k].start.
  std::size_t add_families(std::size_t count, std::span<const VariableInfo> members);
  void set_start(std::size_t j, double start) { start_[j] = start; }
  /// Replaces the description of unknown j, which must have been declared on its own (not in
  /// a family; std::invalid_argument otherwise); its start value becomes info.start.
  void set(std::size_t j, VariableInfo info);
  /// Removes every unknown and gives the memory back.
  void clear();

  /// The name of unknown j: its own, or "<family>[i]".
  [[nodiscard]] std::string name(std::size_t j) const;
  /// The result column name of der_x[j]: der_name ("<der_name>[i]" in a family), else
  /// "der(<name>)".
  [[nodiscard]] std::string der_name(std::size_t j) const;
  [[nodiscard]] double start(std::size_t j) const { return start_[j]; }
  [[nodiscard]] std::span<const double> starts() const { return start_; }
  /// The description unknown j was declared with: its own, or its family's (whose name is the
  /// family's name and whose start is the family's; start(j) is the unknown's own).
  [[nodiscard]] const VariableInfo& declared(std::size_t j) const {
    return descriptions_[index_.locate(j).description];
  }
  /// The same for changing it: a change of a family member's description changes every
  /// member's.
  [[nodiscard]] VariableInfo& declared(std::size_t j) {
    return descriptions_[index_.locate(j).description];
  }
  [[nodiscard]] double nominal(std::size_t j) const { return declared(j).nominal; }
  /// The nominal value of every unknown, in one pass.
  [[nodiscard]] std::vector<double> nominals() const;
  /// Everything about unknown j in one record: its description with its own name and start.
  [[nodiscard]] VariableInfo info(std::size_t j) const;

  /// Calls visit(j, declared(j)) for every unknown j in index order, in one pass.
  template <class Visit>
  void for_each_declared(Visit&& visit) const {
    index_.for_each([&](std::size_t j, std::size_t d) { visit(j, descriptions_[d]); });
  }
  /// The declarations in index order, and the descriptions they refer to.
  [[nodiscard]] const detail::DeclarationIndex& layout() const { return index_; }
  [[nodiscard]] std::span<const VariableInfo> descriptions() const { return descriptions_; }

 private:
  detail::DeclarationIndex index_;
  std::vector<VariableInfo> descriptions_;
  std::vector<double> start_;
};

/// The residual rows of a model: their descriptions, shared within families.
class EquationTable {
 public:
  EquationTable() = default;
  /// Rows declared one by one.
  EquationTable(std::initializer_list<EquationInfo> equations);

  [[nodiscard]] std::size_t size() const { return index_.size(); }
  [[nodiscard]] bool empty() const { return index_.size() == 0; }

  /// Appends one row named info.name (taken literally); returns its index.
  std::size_t add(EquationInfo info);
  /// Appends count elements of the families described by members, element by element (as
  /// VariableTable::add_families); their names are templates (EquationInfo).
  std::size_t add_families(std::size_t count, std::span<const EquationInfo> members);
  /// Replaces the description of row j, which must have been declared on its own (not in a
  /// family; std::invalid_argument otherwise).
  void set(std::size_t j, EquationInfo info);
  /// Removes every row and gives the memory back.
  void clear();

  /// The name of row j: its own, or its family's template filled in for its number.
  [[nodiscard]] std::string name(std::size_t j) const;
  /// The kind row j has at t0.
  [[nodiscard]] RowKind kind(std::size_t j) const {
    return descriptions_[index_.locate(j).description].kind;
  }
  /// The kind of every row at t0, in one pass.
  [[nodiscard]] std::vector<RowKind> kinds() const;
  /// Row j in one record: its name and kind.
  [[nodiscard]] EquationInfo info(std::size_t j) const { return {name(j), kind(j)}; }

  /// Calls visit(j, description of row j) for every row j in index order, in one pass.
  template <class Visit>
  void for_each_declared(Visit&& visit) const {
    index_.for_each([&](std::size_t j, std::size_t d) { visit(j, descriptions_[d]); });
  }
  [[nodiscard]] const detail::DeclarationIndex& layout() const { return index_; }
  [[nodiscard]] std::span<const EquationInfo> descriptions() const { return descriptions_; }

 private:
  detail::DeclarationIndex index_;
  std::vector<EquationInfo> descriptions_;
};

/// The entries of a family dependency (Model::declare_dependency(Eqs, Vars, offset)): row
/// first_row + i * row_stride depends on column first_col + (i + offset) * col_stride, for
/// every i < rows with 0 <= i + offset < cols.
struct FamilyDependency {
  std::size_t first_row = 0;
  std::size_t row_stride = 1;
  std::size_t rows = 0;
  std::size_t first_col = 0;
  std::size_t col_stride = 1;
  std::size_t cols = 0;
  std::ptrdiff_t offset = 0;

  /// The range of i that has entries: [begin, end).
  [[nodiscard]] std::size_t begin() const {
    // -offset without negating PTRDIFF_MIN
    return offset < 0 ? static_cast<std::size_t>(-(offset + 1)) + 1 : 0;
  }
  [[nodiscard]] std::size_t end() const;
};

/// The declared sparsity pattern: single entries and family dependencies.
class SparsityTable {
 public:
  SparsityTable() = default;
  SparsityTable(std::initializer_list<SparsityEntry> entries) : entries_(entries) {}

  /// No entry declared: the pattern is "dense / unknown".
  [[nodiscard]] bool empty() const { return entries_.empty() && families_.empty(); }
  /// The number of entries (a repeated one counted each time).
  [[nodiscard]] std::size_t size() const;
  void add(SparsityEntry entry) { entries_.push_back(entry); }
  void add_family(const FamilyDependency& family) { families_.push_back(family); }
  /// Removes every entry and gives the memory back.
  void clear();

  /// Calls visit(row, col) for every entry: the single ones, then each family's.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const SparsityEntry& e : entries_) visit(e.row, e.col);
    for (const FamilyDependency& f : families_) {
      for (std::size_t i = f.begin(); i < f.end(); ++i) {
        visit(f.first_row + i * f.row_stride,
              f.first_col + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + f.offset) *
                                f.col_stride);
      }
    }
  }
  [[nodiscard]] std::span<const SparsityEntry> entries() const { return entries_; }
  [[nodiscard]] std::span<const FamilyDependency> families() const { return families_; }

 private:
  std::vector<SparsityEntry> entries_;
  std::vector<FamilyDependency> families_;
};

}  // namespace hdae
