// The events of an index-reduced model (hdae/index_reduction.hpp, step 6): the original's
// event handler on its own variables, an impact it marks integrated over the reduced
// equations (impact_jump.hpp), and a mode with other offsets laid out afresh.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "alias_rows.hpp"
#include "equation_derivatives.hpp"
#include "hdae/errors.hpp"
#include "impact_jump.hpp"
#include "reduced_model_state.hpp"

namespace hdae {

bool IndexReducedModel::Impl::forward_event(EventContext& event) {
  const std::size_t slots = structure.variables.size();
  std::vector<double> y(slots), x(layout.n), der_x(layout.n);
  for (std::size_t k = 0; k < slots; ++k) y[k] = event.x(Var{k});
  reduction::original_point(layout, y, x, der_x);
  const std::vector<double> before = x;
  std::vector<Var> sources;
  EventContext view = event.with_state(x, der_x, &sources);
  original->on_event(view);
  for (std::size_t j = 0; j < layout.n; ++j) {
    if (x[j] != before[j]) event.set(Var{layout.slot(j, 0)}, x[j]);
  }
  in_impact = !sources.empty();
  if (in_impact) {
    // The impact mode holds only for the jump: the structure is judged in the next pass.
    integrate_impact(event, sources, x, der_x);
    return false;
  }
  // The mode may have changed the equations: a new structure gets its own layout.
  const IndexAnalysis now = analyze_index(*original, event.t(), x, der_x, {}, {}, detection());
  check_analysis(now, event.t());
  std::vector<reduction::Alias> aliases =
      reduction::find_aliases(*original, now, event.t(), x, der_x);
  if (now.sigma_method.c != layout.c || now.sigma_method.d != layout.d ||
      aliases != layout.aliases) {
    relayout(event, now, std::move(aliases));
    return true;
  }
  // The mode's equations may read other unknowns than before: the Newton matrix follows them.
  if (exact) exact_jacobian = reduction::ReducedJacobian(layout, now.signature);
  mode = now;
  for (std::size_t k = 0; k < slots; ++k) y[k] = event.x(Var{k});
  reduction::StateSelection fresh = fresh_selection(event.t(), y);
  quality = 1.0;  // the selection is judged afresh here
  const bool other_states = fresh.states != selection.states;
  if (other_states) {
    selection = std::move(fresh);
    ++changes;
  }
  // The mode's equations may also read other unknowns: the pattern follows both.
  if (name_state_rows()) event.sparsity_changed();
  if (other_states) event.reformulated();
  return true;
}

std::vector<std::size_t> IndexReducedModel::Impl::run_numbering(
    const reduction::SlotLayout& fresh) const {
  const ModelStructure& s = original->structure();
  std::map<std::string, std::size_t> index;
  for (std::size_t u = 0; u < structure.variables.size(); ++u) {
    index[structure.variables.name(u)] = u;
  }
  std::vector<std::size_t> number;
  for (std::size_t u = 0; u < fresh.num_slots; ++u) {
    const auto [j, k] = fresh.logical(fresh.named_after[u]);
    const auto it = index.find(reduction::slot_name(s.variables.name(j), k));
    if (it == index.end()) return {};
    number.push_back(it->second);
    index.erase(it);
  }
  if (!index.empty()) return {};
  return number;
}

void IndexReducedModel::Impl::relayout(EventContext& event, const IndexAnalysis& now,
                                       std::vector<reduction::Alias> aliases) {
  reduction::SlotLayout fresh =
      reduction::make_layout(now.sigma_method.c, now.sigma_method.d, aliases);
  const std::vector<std::size_t> number = run_numbering(fresh);
  layout_since = event.t();
  ++changes;
  if (number.empty()) {
    new_unknowns(event, std::move(fresh));
    follow_layout(now, event.t(), structure.variables.starts());
    name_state_rows();
    return;
  }
  layout = reduction::renumbered(fresh, number);
  // The unknowns stay the run's (names, nominal values, error control); the rows are the mode's.
  ModelStructure rows = reduction::reduced_structure(original->structure(), layout);
  for (std::size_t r = 0; r < rows.equations.size(); ++r) {
    if (rows.equations.kind(r) != structure.equations.kind(r)) {
      event.set_row_kind(Eq{r}, rows.equations.kind(r));
    }
  }
  structure.equations = std::move(rows.equations);
  std::vector<double> y(structure.variables.size());
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = event.x(Var{k});
  follow_layout(now, event.t(), y);
  if (name_state_rows()) event.sparsity_changed();
  event.rows_changed();
}

void IndexReducedModel::Impl::follow_layout(const IndexAnalysis& now, double t,
                                            std::span<const double> y) {
  mode = now;
  exact = layout.max_c <= reduction::kMaxJacobianDepth && original->propagates_jets();
  if (exact) exact_jacobian = reduction::ReducedJacobian(layout, now.signature);
  choice = reduction::has_choice(layout);
  selection = fresh_selection(t, y);
  quality = 1.0;
}

void IndexReducedModel::Impl::new_unknowns(EventContext& event, reduction::SlotLayout fresh) {
  const std::size_t before = structure.variables.size();
  std::vector<double> y(before);
  for (std::size_t k = 0; k < before; ++k) y[k] = event.x(Var{k});
  std::vector<double> x(layout.n), der_x(layout.n);
  reduction::original_point(layout, y, x, der_x);
  ModelStructure now = reduction::reduced_structure(original->structure(), fresh);
  // The crossings stay the run's: the original's and the selection's.
  now.crossings = structure.crossings;
  const std::vector<std::size_t> previous = carried_unknowns(structure.variables, now.variables);
  for (std::size_t u = 0; u < fresh.num_slots; ++u) {
    VariableInfo info = now.variables.info(u);
    if (previous[u] != EventContext::kNewUnknown) {
      info.start = y[previous[u]];
      info.nominal = structure.variables.nominal(previous[u]);
    } else {
      const auto [j, k] = fresh.logical(fresh.named_after[u]);
      info.start = k == 0 ? x[j] : k == 1 ? der_x[j] : 0.0;
      info.nominal = std::max(info.nominal, std::abs(info.start));
    }
    now.variables.set(u, info);
  }
  layout = std::move(fresh);
  structure = std::move(now);
  event.unknowns_changed(previous);
}
void IndexReducedModel::Impl::integrate_impact(EventContext& event, std::span<const Var> sources,
                                               std::span<const double> x,
                                               std::span<const double> der_x) {
  std::vector<std::size_t> marked;
  for (const Var v : sources) marked.push_back(v.index);
  const SignatureMatrix now = detect_signature(*original, event.t(), x, der_x, detection());
  const reduction::ImpactStructure impact{.before = &mode.signature,
                                          .transversal = mode.sigma_method.transversal,
                                          .now = &now,
                                          .sources = marked};
  std::vector<double> y(structure.variables.size());
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = event.x(Var{k});
  reduction::ImpactJump jump;
  try {
    jump = reduction::integrate_impact(*original, layout, structure, impact, event.t(), y);
  } catch (const ModelError& e) {
    throw ModelError(fmt::format("model '{}': impact at t = {}: {}", original->structure().name,
                                 event.t(), e.what()));
  }
  for (std::size_t k = 0; k < y.size(); ++k) {
    if (jump.slots[k] != y[k]) event.set(Var{k}, jump.slots[k]);
  }
  std::vector<EventContext::IntegratedImpulse> impulses;
  for (const auto& [u, integral] : jump.impulses) impulses.push_back({Var{u}, integral});
  event.impulses_integrated(impulses);
}

namespace {

/// "x" or "der(x)" for an entry of the signature.
std::string term(const ModelStructure& s, const SignatureEntry& e) {
  const std::string& name = s.variables.name(e.col);
  return e.sigma >= 1 ? "der(" + name + ")" : name;
}

}  // namespace

std::string IndexReducedModel::failure_note(double t, std::span<const double> x,
                                            std::span<const double> /*der_x*/) {
  const Impl& m = *impl_;
  std::vector<double> xo(m.layout.n), der_xo(m.layout.n);
  reduction::original_point(m.layout, x, xo, der_xo);
  const SignatureMatrix now = detect_signature(*m.original, t, xo, der_xo, m.detection());
  const ModelStructure& s = m.original->structure();
  // Per equation, what it holds now that it did not hold where it was last analysed (at the
  // start or the last event): a derivative of higher order or an unknown it did not read.
  std::map<std::size_t, std::vector<std::string>> gained;
  for (const SignatureEntry& e : now.entries) {
    if (e.sigma > m.mode.signature.sigma(e.row, e.col)) gained[e.row].push_back(term(s, e));
  }
  if (gained.empty()) return {};
  std::vector<std::string> rows;
  rows.reserve(gained.size());
  for (const auto& [row, terms] : gained) {
    rows.push_back(fmt::format("'{}' now holds {}", s.equations.name(row), fmt::join(terms, ", ")));
  }
  return fmt::format(
      "the equations changed their structure without an event: {}, not held when the equations "
      "were last analysed (at the start or the last event); let a crossing or a time event mark "
      "the instant, where the reduced model analyses the equations afresh",
      fmt::join(rows, "; "));
}

}  // namespace hdae
