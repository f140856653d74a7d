// Structure and index of one mode of a model (docs/design.md, "Structure and index").
//
// A model written the way the physics reads (positions constrained, forces as unknowns) is a
// DAE of higher index: some rows must be differentiated before the system determines every
// derivative. This header finds which rows, and how often, from the model alone:
//
// 1. The signature matrix Sigma of the mode (detect_signature): sigma_ij = 1 when der(x_j)
//    appears in row i, 0 when only x_j does, -inf (no entry) when neither does. It is found
//    numerically, by perturbing each x_j and each der(x_j) at two random points near the given
//    one, because a declared sparsity pattern is the union of both and cannot tell them apart.
// 2. Pryce's Sigma-method (J. D. Pryce, "A simple structural analysis method for DAEs", BIT
//    2001): a highest-value transversal T (one entry per row and column, the sum of its sigma
//    largest), then the smallest offsets c_i, d_j >= 0 with d_j - c_i >= sigma_ij for every
//    entry and equality on T. Row i is differentiated c_i times, x_j appears up to its d_j-th
//    derivative. The method succeeds when the system Jacobian J_ij = d f_i / d x_j^(d_j - c_i)
//    (zero where d_j - c_i > sigma_ij) is non-singular; then the structural index is
//    max_i c_i, plus 1 when some d_j is 0 (an algebraic variable), and the number of degrees
//    of freedom is sum d_j - sum c_i.
// 3. When J is singular although Sigma has a transversal, the structure overestimates what
//    the equations determine (the transistor amplifier written as M der_y = f with a singular
//    M). A left null vector u of J names the dependent rows; when those rows share one offset,
//    the row among them is replaced by the combination sum u_i f_i, which cancels their
//    leading derivatives (the linear-combination correction of Tan, Nedialkov and Pryce), and
//    the analysis starts again. Combinations that need differentiated rows are not formed: the
//    result then stays "numerically singular" and names the rows.
// 4. No transversal at all: the system is structurally singular; the result names the
//    equations that compete for too few variables and the variables no equation is left for
//    (the over- and under-determined parts of a Dulmage-Mendelsohn decomposition).
//
// analyze_index is a pure function of (model, t, x, der_x, row kinds): the model is only
// evaluated, its discrete state (mode) is whatever it is at the call. Refreshing the analysis
// after an event is the caller's business.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae {

/// One entry of a signature matrix: der(x_col) appears in row `row` (sigma = 1) or only x_col
/// does (sigma = 0). Higher values arise only in hand-made matrices (second-order forms).
struct SignatureEntry {
  std::size_t row = 0;
  std::size_t col = 0;
  int sigma = 0;
};

/// A sparse n x n signature matrix; absent entries are -inf. Entries sorted by (row, col),
/// at most one per position.
struct SignatureMatrix {
  std::size_t n = 0;
  std::vector<SignatureEntry> entries;

  static constexpr int kAbsent = std::numeric_limits<int>::min();
  /// sigma_ij, or kAbsent.
  [[nodiscard]] int sigma(std::size_t row, std::size_t col) const;
  /// Sorts the entries and keeps the largest sigma of duplicated positions.
  void normalize();
};

/// Settings of the numerical structure detection (see detect_signature).
struct SignatureDetection {
  /// Random points are x_j + spread * u * max(|x_j|, nominal_j), u uniform in [-1, 1] (and
  /// likewise for der_x), at t + spread * |u| * max(|t|, 1 s): far enough from the point that
  /// a factor vanishing there (x = 0 in lambda x, sin(w t) at t = 0) does not hide an entry,
  /// near enough to stay in the model's domain.
  double spread = 1e-2;
  /// A dependence counts when the change of a row for a nominal-sized change of the unknown
  /// follows the size of the step (rounding does not) and exceeds this fraction of the
  /// geometric mean of the row's largest such change and the largest change that unknown (or
  /// derivative) causes in any row: negligible beside both its row and its column. Judged
  /// against both, a stiff term does not hide an inertial one (docs/design.md, "Structure and
  /// index").
  double threshold = 1e-7;
  /// Seed of the random points: the same seed gives the same points, hence the same result.
  unsigned long long seed = 20010601;
};

/// Sigma of the model's current mode near (t, x, der_x): each x_j and each der(x_j) is
/// perturbed on its own (or, when the model declares a sparsity pattern, by colour groups of
/// that pattern) at two random points near the given one, at two step sizes, and an entry is
/// kept when the change of the row follows the step and exceeds the relative threshold at
/// either point. Throws ModelError for an
/// invalid structure or spans of the wrong size, when a residual is not finite at a probe
/// point, or when a row changes outside the declared pattern.
[[nodiscard]] SignatureMatrix detect_signature(SimulationModel& model, double t,
                                               std::span<const double> x,
                                               std::span<const double> der_x,
                                               const SignatureDetection& settings = {});

/// Outcome of the index analysis.
enum class IndexVerdict {
  kRegular,               ///< Pryce's method succeeded (possibly after corrections)
  kStructurallySingular,  ///< Sigma has no transversal
  kNumericallySingular,   ///< transversal found, but the system Jacobian stays singular
};

/// A row replaced by a linear combination of rows (the correction of step 3 above).
struct RowCombination {
  std::size_t replaced_row = 0;
  std::vector<std::size_t> rows;     ///< rows combined (replaced_row among them)
  std::vector<double> coefficients;  ///< u_i, largest magnitude 1
};

/// Pryce's offsets for a signature matrix with a transversal (see offsets below).
struct SigmaMethodResult {
  bool has_transversal = false;
  /// transversal[i] is the column matched to row i; unmatched rows hold n (singular only).
  std::vector<std::size_t> transversal;
  int value = 0;          ///< sum of sigma over the transversal (when it exists)
  std::vector<int> c, d;  ///< smallest offsets (when a transversal exists)
  /// Structurally singular: rows of the over-determined part (more equations than variables
  /// among them) and columns of the under-determined part. Empty otherwise.
  std::vector<std::size_t> overdetermined_rows, overdetermined_cols;
  std::vector<std::size_t> underdetermined_rows, underdetermined_cols;
};

/// The Sigma-method on a given signature matrix: a highest-value transversal (the sparse
/// Hungarian method in phases) and the smallest offsets (the limit of Pryce's fixed-point
/// iteration, as longest paths from the transversal's dual offsets). Pure structure; no model
/// involved.
[[nodiscard]] SigmaMethodResult sigma_method(const SignatureMatrix& sigma);

/// Pryce's structural index for offsets c, d: max c_i, plus 1 when some d_j is 0.
[[nodiscard]] int structural_index(std::span<const int> c, std::span<const int> d);

struct IndexAnalysis {
  IndexVerdict verdict = IndexVerdict::kRegular;
  std::string model;                        ///< the model's name
  std::string mode;                         ///< caller's name for the mode, "" when none was given
  double t = 0.0;                           ///< where the analysis was made
  SignatureMatrix signature;                ///< of the final (possibly corrected) system
  SigmaMethodResult sigma_method;           ///< of the final system
  int index = 0;                            ///< structural index (valid for kRegular)
  int degrees_of_freedom = 0;               ///< sum d_j - sum c_i (valid for kRegular)
  std::vector<RowCombination> corrections;  ///< applied in order
  /// kNumericallySingular: rows in the left null space of the system Jacobian (strongest
  /// first) and variables in its right null space.
  std::vector<std::size_t> dependent_rows, undetermined_variables;
  /// dF/d(der_x) of the original model at the point: its numerical rank (n when regular) for
  /// models of up to 500 unknowns, its structural rank (a maximum matching) above.
  std::size_t mass_matrix_rank = 0;
  /// Rows whose declared or given kind is kConstraint but in which some der(x_j) appears.
  std::vector<std::size_t> constraint_rows_with_derivatives;
  std::vector<std::string> equation_names, variable_names;  ///< copied from the structure
  /// Why a correction was not tried or was given up, in words (part of describe()).
  std::vector<std::string> notes;

  [[nodiscard]] bool mass_matrix_singular() const {
    return mass_matrix_rank < variable_names.size();
  }
  /// The analysis in words, e.g. "mode 'engaged' of model 'ideal_clutch': index 1, 2 degrees
  /// of freedom; equation '0 = w2 - w1' differentiated once; equations ... differentiated 0
  /// times; state candidates: w1, w2, tau_int", followed by the corrections made, a singular
  /// mass matrix, constraint rows that hold derivatives, and the notes.
  [[nodiscard]] std::string describe() const;
};

/// Structure and index of the model's current mode at (t, x, der_x). row_kinds holds the
/// current kind of every row (empty: the kinds declared in the structure); they are checked
/// against the detected structure. mode names the mode in describe(). Throws ModelError for
/// an invalid structure (ModelStructure::validate), spans of the wrong size and what
/// detect_signature throws; exceptions of the model's evaluate() pass through unchanged.
[[nodiscard]] IndexAnalysis analyze_index(SimulationModel& model, double t,
                                          std::span<const double> x, std::span<const double> der_x,
                                          std::span<const RowKind> row_kinds = {},
                                          std::string mode = {},
                                          const SignatureDetection& settings = {});

}  // namespace hdae
