// The events of an index-reduced model (hdae/index_reduction.hpp, step 6): the original's
// event handler on its own variables, an impact it marks integrated over the reduced
// equations (impact_jump.hpp), and a mode with other offsets laid out afresh.
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
  if (fresh.states != selection.states) {
    selection = std::move(fresh);
    ++changes;
    name_state_rows();
    event.reformulated();
  }
  return true;
}

std::vector<std::size_t> IndexReducedModel::Impl::run_numbering(const reduction::SlotLayout& fresh,
                                                                double t) const {
  const ModelStructure& s = original->structure();
  std::map<std::string, std::size_t> index;
  for (std::size_t u = 0; u < structure.variables.size(); ++u) {
    index[structure.variables.name(u)] = u;
  }
  std::vector<std::size_t> number;
  std::vector<std::string> missing;
  for (std::size_t u = 0; u < fresh.num_slots; ++u) {
    const auto [j, k] = fresh.logical(fresh.named_after[u]);
    const std::string name = reduction::slot_name(s.variables.name(j), k);
    const auto it = index.find(name);
    if (it == index.end()) {
      missing.push_back(name);
    } else {
      number.push_back(it->second);
      index.erase(it);
    }
  }
  if (missing.empty() && index.empty()) return number;
  std::vector<std::string> what;
  if (!missing.empty()) {
    what.push_back(fmt::format("needs the unknowns {{{}}}", fmt::join(missing, ", ")));
  }
  std::vector<std::string> left;
  left.reserve(index.size());
  for (const auto& [name, u] : index) left.push_back(name);
  if (!left.empty()) what.push_back(fmt::format("drops {{{}}}", fmt::join(left, ", ")));
  throw ModelError(fmt::format(
      "model '{}': at t = {} the event changed the structure so that the reduced system {}; "
      "the unknowns of a run stay those it started with",
      s.name, t, fmt::join(what, " and ")));
}

void IndexReducedModel::Impl::relayout(EventContext& event, const IndexAnalysis& now,
                                       std::vector<reduction::Alias> aliases) {
  const reduction::SlotLayout fresh =
      reduction::make_layout(now.sigma_method.c, now.sigma_method.d, aliases);
  layout = reduction::renumbered(fresh, run_numbering(fresh, event.t()));
  // The unknowns stay the run's (names, nominal values, error control); the rows are the mode's.
  ModelStructure rows = reduction::reduced_structure(original->structure(), layout);
  for (std::size_t r = 0; r < rows.equations.size(); ++r) {
    if (rows.equations.kind(r) != structure.equations.kind(r)) {
      event.set_row_kind(Eq{r}, rows.equations.kind(r));
    }
  }
  structure.equations = std::move(rows.equations);
  mode = now;
  exact = layout.max_c <= reduction::kMaxJacobianDepth && original->propagates_jets();
  if (exact) exact_jacobian = reduction::ReducedJacobian(layout, now.signature);
  std::vector<double> y(structure.variables.size());
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = event.x(Var{k});
  choice = reduction::has_choice(layout);
  layout_since = event.t();
  selection = fresh_selection(event.t(), y);
  quality = 1.0;
  ++changes;
  name_state_rows();
  event.rows_changed();
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
