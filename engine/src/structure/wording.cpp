#include "structure/wording.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace hdae::structure {
namespace {

/// Names listed before the rest is only counted (as in the singular-J diagnosis).
constexpr std::size_t kMaxNames = 12;

template <typename NameOf>
std::string joined(const std::vector<std::size_t>& items, NameOf name_of) {
  std::string out;
  for (std::size_t k = 0; k < std::min(items.size(), kMaxNames); ++k) {
    if (k > 0) out += ", ";
    out += name_of(items[k]);
  }
  if (items.size() > kMaxNames) out += fmt::format(", ... ({} more)", items.size() - kMaxNames);
  return out;
}

std::string times(int k) {
  if (k == 1) return "once";
  if (k == 2) return "twice";
  return fmt::format("{} times", k);
}

std::string header(const IndexAnalysis& a) {
  if (a.mode.empty()) return fmt::format("model '{}'", a.model);
  return fmt::format("mode '{}' of model '{}'", a.mode, a.model);
}

/// "equation 'a'" or "equations 'a', 'b'".
std::string equations_phrase(const IndexAnalysis& a, const std::vector<std::size_t>& rows) {
  return fmt::format("equation{} {}", rows.size() == 1 ? "" : "s", equation_names(a, rows));
}

/// "variable x" or "variables x, y".
std::string variables_phrase(const IndexAnalysis& a, const std::vector<std::size_t>& cols) {
  return fmt::format("variable{} {}", cols.size() == 1 ? "" : "s", variable_names(a, cols));
}

/// "equation 'a' differentiated twice; equations 'b', 'c' differentiated once; ..."
std::string differentiations(const IndexAnalysis& a) {
  std::map<int, std::vector<std::size_t>, std::greater<>> by_offset;
  for (std::size_t i = 0; i < a.sigma_method.c.size(); ++i) {
    by_offset[a.sigma_method.c[i]].push_back(i);
  }
  std::string out;
  for (const auto& [c, rows] : by_offset) {
    out += fmt::format("; {} differentiated {}", equations_phrase(a, rows),
                       c == 0 ? "0 times" : times(c));
  }
  return out;
}

std::string regular(const IndexAnalysis& a) {
  std::vector<std::size_t> states, algebraic;
  for (std::size_t j = 0; j < a.sigma_method.d.size(); ++j) {
    (a.sigma_method.d[j] > 0 ? states : algebraic).push_back(j);
  }
  std::string out = fmt::format("{}: index {}, {} degree{} of freedom", header(a), a.index,
                                a.degrees_of_freedom, a.degrees_of_freedom == 1 ? "" : "s");
  out += differentiations(a);
  out += fmt::format("; state candidates: {}", states.empty() ? "none" : variable_names(a, states));
  if (!algebraic.empty()) out += fmt::format("; algebraic: {}", variable_names(a, algebraic));
  return out;
}

std::string structurally_singular(const IndexAnalysis& a) {
  const SigmaMethodResult& m = a.sigma_method;
  std::string out = fmt::format("{}: structurally singular (no transversal)", header(a));
  const auto& over_rows = m.overdetermined_rows;
  if (!over_rows.empty()) {
    out += m.overdetermined_cols.empty()
               ? fmt::format("; {} involve{} no unknown", equations_phrase(a, over_rows),
                             over_rows.size() == 1 ? "s" : "")
               : fmt::format("; over-determined: {} involve{} only {}",
                             equations_phrase(a, over_rows), over_rows.size() == 1 ? "s" : "",
                             variables_phrase(a, m.overdetermined_cols));
  }
  const auto& under_cols = m.underdetermined_cols;
  if (!under_cols.empty()) {
    out += m.underdetermined_rows.empty()
               ? fmt::format("; {} appear{} in no equation", variables_phrase(a, under_cols),
                             under_cols.size() == 1 ? "s" : "")
               : fmt::format("; under-determined: {} appear{} only in {}",
                             variables_phrase(a, under_cols), under_cols.size() == 1 ? "s" : "",
                             equations_phrase(a, m.underdetermined_rows));
  }
  return out;
}

std::string numerically_singular(const IndexAnalysis& a) {
  return fmt::format(
      "{}: structurally regular (transversal value {}) but the system Jacobian is singular at "
      "t = {}: equations {} are dependent; variables {} are not determined; Pryce's method "
      "does not apply",
      header(a), a.sigma_method.value, a.t, equation_names(a, a.dependent_rows),
      variable_names(a, a.undetermined_variables));
}

}  // namespace

std::string equation_names(const IndexAnalysis& a, const std::vector<std::size_t>& rows) {
  return joined(rows, [&](std::size_t i) { return "'" + a.equation_names[i] + "'"; });
}

std::string variable_names(const IndexAnalysis& a, const std::vector<std::size_t>& cols) {
  return joined(cols, [&](std::size_t j) { return a.variable_names[j]; });
}

std::string combination_text(const IndexAnalysis& a, const RowCombination& c) {
  std::string out;
  for (std::size_t k = 0; k < c.rows.size(); ++k) {
    const double u = c.coefficients[k];
    if (k > 0) out += u < 0 ? " - " : " + ";
    out += fmt::format("{}{:.6g}*'{}'", k == 0 && u < 0 ? "-" : "", std::abs(u),
                       a.equation_names[c.rows[k]]);
  }
  return out;
}

}  // namespace hdae::structure

namespace hdae {

std::string IndexAnalysis::describe() const {
  std::string out;
  switch (verdict) {
    case IndexVerdict::kRegular:
      out = structure::regular(*this);
      break;
    case IndexVerdict::kStructurallySingular:
      out = structure::structurally_singular(*this);
      break;
    case IndexVerdict::kNumericallySingular:
      out = structure::numerically_singular(*this);
      break;
  }
  for (const RowCombination& c : corrections) {
    out += fmt::format("; equation '{}' replaced by {}", equation_names[c.replaced_row],
                       structure::combination_text(*this, c));
  }
  if (mass_matrix_singular()) {
    out += fmt::format("; mass matrix dF/d(der_x) singular (rank {} of {})", mass_matrix_rank,
                       variable_names.size());
  }
  if (!constraint_rows_with_derivatives.empty()) {
    out += fmt::format("; equations {} are constraint rows but contain derivatives",
                       structure::equation_names(*this, constraint_rows_with_derivatives));
  }
  for (const std::string& note : notes) out += "; " + note;
  return out;
}

}  // namespace hdae
