// analyze_index: the rounds of detection, Sigma-method, rank check and correction
// (hdae/structure.hpp; docs/design.md, "Structure and index").
#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "structure/leading_jacobian.hpp"
#include "structure/signature_detection.hpp"
#include "structure/system_residual.hpp"
#include "structure/transversal.hpp"
#include "structure/wording.hpp"

namespace hdae {
namespace {

using structure::SystemResidual;

/// One round on the current system: Sigma, transversal, offsets, rank of J.
struct Round {
  SignatureMatrix sigma;
  SigmaMethodResult method;
  std::vector<double> partials;
  std::optional<structure::RankCheck> jacobian;
};

Round run_round(const SystemResidual& f, double t, std::span<const double> x,
                std::span<const double> der_x, const SignatureDetection& settings) {
  Round r;
  r.sigma = structure::detect(f, t, x, der_x, settings);
  r.method = sigma_method(r.sigma);
  r.partials = structure::leading_partials(f, r.sigma, t, x, der_x);
  if (r.method.has_transversal) {
    r.jacobian = structure::check_rank(f.structure(),
                                       structure::system_jacobian(r.sigma, r.partials, r.method));
  }
  return r;
}

void all_when_empty(std::vector<std::size_t>& items, std::size_t n) {
  if (!items.empty()) return;
  items.resize(n);
  std::iota(items.begin(), items.end(), std::size_t{0});
}

void take_round(Round&& r, IndexAnalysis& a) {
  a.signature = std::move(r.sigma);
  a.sigma_method = std::move(r.method);
  a.dependent_rows.clear();
  a.undetermined_variables.clear();
  if (!a.sigma_method.has_transversal) {
    a.verdict = IndexVerdict::kStructurallySingular;
  } else if (r.jacobian->singular()) {
    a.verdict = IndexVerdict::kNumericallySingular;
    a.dependent_rows = r.jacobian->deficiency.dependent_rows;
    a.undetermined_variables = r.jacobian->deficiency.undetermined_columns;
    // A verdict always names rows: when the null directions could not be isolated (shares
    // drowned in noise), every row and variable is a suspect.
    all_when_empty(a.dependent_rows, a.equation_names.size());
    all_when_empty(a.undetermined_variables, a.variable_names.size());
  } else {
    a.verdict = IndexVerdict::kRegular;
    a.index = structural_index(a.sigma_method.c, a.sigma_method.d);
    a.degrees_of_freedom = 0;
    for (const int d : a.sigma_method.d) a.degrees_of_freedom += d;
    for (const int c : a.sigma_method.c) a.degrees_of_freedom -= c;
  }
}

/// The correction for a singular J, or why there is none (a note for describe()).
std::optional<RowCombination> correction_for(const Round& r, IndexAnalysis& a) {
  auto combination = structure::dependent_combination(*r.jacobian);
  if (!combination) {
    a.notes.push_back("no correction tried: the system is larger than the dense analysis");
    return std::nullopt;
  }
  const int offset = r.method.c[combination->replaced_row];
  for (const std::size_t i : combination->rows) {
    if (r.method.c[i] != offset) {
      a.notes.push_back(fmt::format(
          "no correction tried: the dependent equations {} have different offsets, and their "
          "combination would need differentiated equations",
          structure::equation_names(a, combination->rows)));
      return std::nullopt;
    }
  }
  return combination;
}

/// Largest connected block of the mass matrix whose rank is found numerically; with a larger
/// one the rank is the structural one. A singular mass matrix is the rule for models of
/// higher index (every algebraic unknown), and a rank-revealing sparse factorisation of one
/// fills in: the rod chain of 10^3 unknowns took a third of a second, 10^4 unknowns minutes.
/// Its blocks are small for mechanisms (one per body and coordinate).
constexpr std::size_t kNumericalMassRankLimit = 500;

/// Rank of dF/d(der_x): numerical, block by block, while its blocks have at most
/// kNumericalMassRankLimit rows and columns, else the size of a maximum matching of its
/// entries (an upper bound that equals the numerical rank unless entries cancel).
std::size_t mass_matrix_rank(const Round& round, const ModelStructure& s) {
  if (const auto rank = structure::rank_by_blocks(
          s, structure::mass_matrix(round.sigma, round.partials), kNumericalMassRankLimit)) {
    return *rank;
  }
  SignatureMatrix derivatives;
  derivatives.n = round.sigma.n;
  for (const SignatureEntry& e : round.sigma.entries) {
    if (e.sigma == 1) derivatives.entries.push_back(e);
  }
  const std::vector<std::size_t> match =
      structure::maximum_matching(structure::RowAdjacency(derivatives));
  return static_cast<std::size_t>(
      std::count_if(match.begin(), match.end(), [&](std::size_t c) { return c < derivatives.n; }));
}

/// The original model's mass matrix rank and the constraint rows that hold derivatives.
void note_original(const Round& round, const ModelStructure& s, std::span<const RowKind> kinds,
                   IndexAnalysis& a) {
  a.mass_matrix_rank = mass_matrix_rank(round, s);
  auto& listed = a.constraint_rows_with_derivatives;
  for (const SignatureEntry& e : round.sigma.entries) {
    const RowKind kind = kinds.empty() ? s.equations.kind(e.row) : kinds[e.row];
    if (kind == RowKind::kConstraint && e.sigma == 1 &&
        (listed.empty() || listed.back() != e.row)) {
      listed.push_back(e.row);
    }
  }
}

/// Where the analysis is made.
struct Point {
  double t;
  std::span<const double> x, der_x;
  const SignatureDetection& settings;
};

/// One correction of a singular J, kept when the next round has a transversal of lower
/// value; false (with a note saying why) when the rounds end here.
bool correct_once(SystemResidual& f, Round& round, const Point& p, IndexAnalysis& a) {
  if (!round.method.has_transversal || !round.jacobian->singular()) return false;
  const std::optional<RowCombination> combination = correction_for(round, a);
  if (!combination) return false;
  f.add_correction(*combination);
  Round next = run_round(f, p.t, p.x, p.der_x, p.settings);
  const std::string combined = structure::combination_text(a, *combination);
  if (!next.method.has_transversal) {
    const bool empty =
        std::none_of(next.sigma.entries.begin(), next.sigma.entries.end(),
                     [&](const SignatureEntry& e) { return e.row == combination->replaced_row; });
    a.notes.push_back(fmt::format("the combination {} of the dependent equations {}", combined,
                                  empty ? "depends on no unknown: they repeat or contradict "
                                          "each other"
                                        : "leaves the system structurally singular"));
  } else if (next.method.value >= round.method.value) {
    a.notes.push_back(
        fmt::format("the combination {} did not lower the transversal value "
                    "({} -> {}): not a constant combination",
                    combined, round.method.value, next.method.value));
  } else {
    round = std::move(next);
    return true;
  }
  f.drop_last_correction();
  return false;
}

}  // namespace

IndexAnalysis analyze_index(SimulationModel& model, double t, std::span<const double> x,
                            std::span<const double> der_x, std::span<const RowKind> row_kinds,
                            std::string mode, const SignatureDetection& settings) {
  const ModelStructure& s = model.structure();
  structure::check_sizes(s, x, der_x, row_kinds, "analyze_index");
  IndexAnalysis a;
  a.mode = std::move(mode);
  a.model = s.name;
  a.t = t;
  for (std::size_t i = 0; i < s.equations.size(); ++i) {
    a.equation_names.push_back(s.equations.name(i));
  }
  for (std::size_t j = 0; j < s.variables.size(); ++j) {
    a.variable_names.push_back(s.variables.name(j));
  }

  SystemResidual f(model);
  const Point p{t, x, der_x, settings};
  Round round = run_round(f, t, x, der_x, settings);
  note_original(round, s, row_kinds, a);
  // Each correction lowers the transversal value by at least one, so n rounds suffice.
  for (std::size_t k = 0; k <= s.num_unknowns() && correct_once(f, round, p, a); ++k) {
    // each round's work is done by correct_once
  }
  a.corrections = f.corrections();
  take_round(std::move(round), a);
  return a;
}

}  // namespace hdae
