#include "hdae/index_reduction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "alias_rows.hpp"
#include "consistent_start.hpp"
#include "equation_derivatives.hpp"
#include "hdae/errors.hpp"
#include "reduced_jacobian.hpp"
#include "reduced_model_state.hpp"
#include "reduced_pattern.hpp"
#include "slot_layout.hpp"
#include "state_selection.hpp"
#include "system_jacobian.hpp"

namespace hdae {

using reduction::SlotLayout;

std::string IndexReducedModel::Impl::alias_words() const {
  if (layout.aliases.empty()) return {};
  const ModelStructure& s = original->structure();
  std::vector<std::string> pairs;
  for (std::size_t l = 0; l < layout.num_logical(); ++l) {
    const std::size_t u = layout.unknown_of[l];
    if (layout.named_after[u] == l) continue;
    const auto [j, k] = layout.logical(l);
    pairs.push_back(reduction::slot_name(s.variables.name(j), k) + " is " +
                    structure.variables.name(u));
  }
  std::vector<std::string> rows;
  for (const reduction::Alias& a : layout.aliases)
    rows.push_back("'" + s.equations.name(a.row) + "'");
  return fmt::format("\nslots named by equations {}: {}", fmt::join(rows, ", "),
                     fmt::join(pairs, ", "));
}

void IndexReducedModel::Impl::check_analysis(const IndexAnalysis& a, double t) const {
  const ModelStructure& s = original->structure();
  const std::string where = &a == &analysis
                                ? "model '" + s.name + "'"
                                : fmt::format("model '{}' in its mode at t = {}", s.name, t);
  if (a.verdict != IndexVerdict::kRegular) {
    throw ModelError(where + " cannot be reduced: " + a.describe());
  }
  if (!a.corrections.empty()) {
    throw ModelError(where +
                     ": its structure needs rows replaced by combinations of rows (a singular "
                     "leading matrix), which the index reduction does not form: " +
                     a.describe());
  }
  const auto& c = a.sigma_method.c;
  const auto worst = std::max_element(c.begin(), c.end());
  if (worst != c.end() && *worst > 3) {
    throw ModelError(where + ": equation '" +
                     s.equations.name(static_cast<std::size_t>(worst - c.begin())) +
                     "' would have to be differentiated " + std::to_string(*worst) +
                     " times; index reduction goes up to 3");
  }
}

void IndexReducedModel::Impl::build() {
  const ModelStructure& s = original->structure();
  s.validate();
  const std::vector<double> x(s.variables.starts().begin(), s.variables.starts().end());
  std::vector<double> der_x(x.size());
  s.variables.for_each_declared(
      [&der_x](std::size_t j, const VariableInfo& v) { der_x[j] = v.der_start.value_or(0.0); });
  analysis = analyze_index(*original, kReductionAnalysisTime, x, der_x, {}, {}, detection());
  check_analysis(analysis, kReductionAnalysisTime);
  mode = analysis;
  in_impact = false;
  layout_since.reset();
  layout = reduction::make_layout(
      analysis.sigma_method.c, analysis.sigma_method.d,
      reduction::find_aliases(*original, analysis, kReductionAnalysisTime, x, der_x));
  structure = reduction::reduced_structure(s, layout);
  exact = layout.max_c <= reduction::kMaxJacobianDepth && original->propagates_jets();
  if (exact) exact_jacobian = reduction::ReducedJacobian(layout, analysis.signature);
  scale = s.variables.nominals();
  find_consistent_start();
  const std::vector<double> slots(structure.variables.starts().begin(),
                                  structure.variables.starts().end());
  equation_names.clear();
  for (std::size_t i = 0; i < s.equations.size(); ++i)
    equation_names.push_back(s.equations.name(i));
  start.selection = fresh_selection(kReductionAnalysisTime, slots);
  selection = start.selection;
  quality = 1.0;
  changes = 0;
  choice = reduction::has_choice(layout);
  watch_selection = choice || has_events();
  start.layout = layout;
  if (watch_selection) {
    selection_crossing = Crossing{structure.crossings.size()};
    structure.crossings.push_back(
        {"state selection: 1/(largest determinant growth by an exchange) - switch_ratio",
         CrossingDirection::kFalling, 1.0});
  }
  name_state_rows();
  start.structure = structure;
  start.original_x.clear();
  start.original_der.clear();
  for (std::size_t j = 0; j < layout.n; ++j) {
    start.original_x.push_back(s.variables.start(j));
    start.original_der.push_back(s.variables.declared(j).der_start);
  }
}

void IndexReducedModel::Impl::follow_original_starts() {
  const VariableTable& now = original->structure().variables;
  const VariableTable& base = start.structure.variables;
  for (std::size_t j = 0; j < start.original_x.size(); ++j) {
    const std::size_t u = start.layout.slot(j, 0);
    structure.variables.set_start(u, base.start(u) + (now.start(j) - start.original_x[j]));
    const std::optional<double>& der = now.declared(j).der_start;
    if (!der || !start.original_der[j] || start.layout.d[j] < 1) continue;
    const std::size_t v = start.layout.slot(j, 1);
    structure.variables.set_start(v, base.start(v) + (*der - *start.original_der[j]));
  }
  // The start of a run with the varied parameter: the slots nearest to those that satisfy the
  // equations as the parameter now makes them (a set point that moves an error signal), each as
  // firm as at the start. Where none is found the engine's consistent start does what it can.
  const reduction::StartResult r = reduction::consistent_start(start_problem());
  if (!r.converged) return;
  for (std::size_t k = 0; k < r.y.size(); ++k) structure.variables.set_start(k, r.y[k]);
}

bool IndexReducedModel::Impl::name_state_rows() {
  for (std::size_t m = 0; m < selection.states.size(); ++m) {
    const std::size_t row = layout.num_equation_rows + m;
    structure.equations.set(row, {"der(" + structure.variables.name(selection.states[m]) +
                                      ") = " + structure.variables.name(selection.next[m]),
                                  structure.equations.kind(row)});
  }
  SparsityTable pattern = reduction::reduced_pattern(layout, mode.signature, selection);
  if (reduction::same_pattern(pattern, structure.sparsity)) return false;
  structure.sparsity = std::move(pattern);
  return true;
}

void IndexReducedModel::Impl::jacobian(double t, double cj, std::span<const double> x,
                                       JacobianEntries& entries) {
  const auto add = [&entries](std::size_t row, std::size_t slot, double v) {
    entries.add(Eq{row}, Var{slot}, v);
  };
  if (exact) {
    exact_jacobian.evaluate(*original, t, x, add);
  } else {
    reduction::difference_jacobian(*original, layout, mode.signature, t, x,
                                   structure.variables.nominals(), add);
  }
  // What the step ends compare with (quality_now); from the jets just evaluated where exact.
  if (choice && exact) exact_jacobian.system_of_last(at_setup);
  if (choice && !exact) system_at(t, x, at_setup);
  watch.newton_matrix(t);
  for (std::size_t k = 0; k < selection.states.size(); ++k) {
    const std::size_t row = layout.num_equation_rows + k;
    entries.add(Eq{row}, Var{selection.states[k]}, cj);
    entries.add(Eq{row}, Var{selection.next[k]}, -1.0);
  }
}

void IndexReducedModel::Impl::forward_outputs(Evaluation& e) const {
  // At every output row: the buffers are kept between calls (one set per thread).
  thread_local std::vector<double> x, der_x, r, w;
  x.resize(layout.n), der_x.resize(layout.n), r.assign(layout.n, 0.0);
  w.assign(original->structure().outputs.size(), 0.0);
  reduction::original_point(layout, e.x(), x, der_x);
  Evaluation inner(e.t(), x, der_x, r, w, nullptr, EvaluationPhase::kContinuous);
  original->write_outputs(inner);
  for (std::size_t k = 0; k < w.size(); ++k) e.set(Out{k}, w[k]);
}

IndexReducedModel::IndexReducedModel(std::unique_ptr<PhysicsModel> original,
                                     ReductionOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!original) throw ModelError("index reduction: no model given");
  if (!(options.switch_ratio > 0.0 && options.switch_ratio < 1.0)) {
    throw ModelError(
        fmt::format("index reduction: ReductionOptions::switch_ratio must lie in "
                    "(0, 1), got {:g}",
                    options.switch_ratio));
  }
  if (!(options.structure_threshold > 0.0 && options.structure_threshold < 1.0)) {
    throw ModelError(
        fmt::format("index reduction: ReductionOptions::structure_threshold must lie "
                    "in (0, 1), got {:g}",
                    options.structure_threshold));
  }
  impl_->original = std::move(original);
  impl_->options = options;
  impl_->build();
}

IndexReducedModel::~IndexReducedModel() = default;

const ModelStructure& IndexReducedModel::structure() const { return impl_->structure; }

void IndexReducedModel::evaluate(Evaluation& e) {
  Impl& m = *impl_;
  m.evaluated = true;
  const std::span<const double> x = e.x();
  const std::span<const double> der_x = e.der_x();
  std::span<double> r = e.residuals();
  if (m.has_events()) {
    // First: the jets below branch on the Booleans this records.
    thread_local std::vector<double> xo, der_xo;  // kept between calls, as in forward_outputs
    xo.resize(m.layout.n), der_xo.resize(m.layout.n);
    reduction::original_point(m.layout, x, xo, der_xo);
    m.original->evaluate_crossings(e, xo, der_xo);
  }
  if (e.wants_residuals()) {
    // In the engine's jump solves: the original's left limits from the slots' (left_limit).
    thread_local std::vector<double> left, der_left;
    std::span<const double> left_limits;
    if (!e.left_limits().empty()) {
      left.resize(m.layout.n), der_left.resize(m.layout.n);
      reduction::original_point(m.layout, e.left_limits(), left, der_left);
      left_limits = left;
    }
    reduction::equation_derivatives(*m.original, m.layout, e.t(), x,
                                    r.subspan(0, m.layout.num_equation_rows), left_limits);
    for (std::size_t k = 0; k < m.selection.states.size(); ++k) {
      r[m.layout.num_equation_rows + k] = der_x[m.selection.states[k]] - x[m.selection.next[k]];
    }
  }
  if (m.watch_selection) {
    if (e.wants_crossings() && !m.in_impact && m.choice) {
      m.quality = m.quality_now(e.t(), x, e.is_event());
    }
    e.positive(m.selection_crossing, m.quality - m.options.switch_ratio);
  }
  if (e.wants_outputs()) m.forward_outputs(e);
}

void IndexReducedModel::jacobian(double t, double cj, std::span<const double> x,
                                 std::span<const double> /*der_x*/, JacobianEntries& entries) {
  impl_->jacobian(t, cj, x, entries);
}

void IndexReducedModel::on_event(EventContext& event) {
  Impl& m = *impl_;
  m.watch.forget();  // the state may jump here
  if (m.has_events() && !m.forward_event(event)) return;
  if (!m.watch_selection) return;
  // The crossing's Boolean, not a fresh ratio: at the located root the ratio is switch_ratio
  // to round-off, on either side.
  if (event.is_true(m.selection_crossing)) return;
  std::vector<double> x(m.structure.variables.size());
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = event.x(Var{k});
  m.selection = m.fresh_selection(event.t(), x, &m.selection);
  m.quality = 1.0;
  ++m.changes;
  if (m.name_state_rows()) event.sparsity_changed();
  event.reformulated();
}

void IndexReducedModel::reset() {
  Impl& m = *impl_;
  m.original->reset();
  m.evaluated = false;
  m.aged = false;
  // Events may have changed the mode's layout and rows, and the Newton matrix's entries.
  m.mode = m.analysis;
  m.in_impact = false;
  m.layout_since.reset();
  m.layout = m.start.layout;
  m.structure = m.start.structure;
  m.choice = reduction::has_choice(m.layout);
  m.exact = m.layout.max_c <= reduction::kMaxJacobianDepth && m.original->propagates_jets();
  if (m.exact) m.exact_jacobian = reduction::ReducedJacobian(m.layout, m.analysis.signature);
  m.selection = m.start.selection;
  m.quality = 1.0;
  m.watch.forget();
  m.changes = 0;
  m.name_state_rows();
}

void IndexReducedModel::set_parameter(std::string_view name, double value) {
  if (in_simulation()) {
    throw ModelError("model '" + impl_->structure.name + "': parameter '" + std::string(name) +
                     "' cannot change while a simulation runs the model");
  }
  const double previous = impl_->original->parameter(name);
  impl_->original->set_parameter(name, value);
  try {
    impl_->build();
  } catch (const ModelError&) {
    // A value the reduction cannot handle leaves the model as it was, like a rejected value.
    impl_->original->set_parameter(name, previous);
    impl_->build();
    throw;
  }
}

void IndexReducedModel::vary_parameter(std::string_view name, double value) {
  impl_->original->vary_parameter(name, value);
  // Before a run evaluates the model (a sensitivity's start at t0), the start values the
  // parameter moves move the slots they are given for; the sensitivities' consistent start
  // moves the others. Within a run the start values are the run's no more.
  if (!impl_->evaluated) impl_->follow_original_starts();
}

bool IndexReducedModel::vary_start(std::size_t j, double value) {
  Impl& m = *impl_;
  if (m.evaluated || j >= m.structure.variables.size()) return false;
  // From the run's consistent start each time, so that the call with the start value as it was
  // restores every slot bit for bit.
  const VariableTable& base = m.start.structure.variables;
  for (std::size_t k = 0; k < base.size(); ++k) m.structure.variables.set_start(k, base.start(k));
  if (value == base.start(j)) return true;
  m.structure.variables.set_start(j, value);
  const reduction::StartResult r = reduction::consistent_start(m.start_problem());
  if (!r.converged) m.throw_no_consistent_start(r);
  for (std::size_t k = 0; k < r.y.size(); ++k) m.structure.variables.set_start(k, r.y[k]);
  return true;
}

const PhysicsModel& IndexReducedModel::original() const { return *impl_->original; }
const IndexAnalysis& IndexReducedModel::analysis() const { return impl_->analysis; }
std::size_t IndexReducedModel::selection_changes() const { return impl_->changes; }

Var IndexReducedModel::slot(Var original_variable, int k) const {
  const SlotLayout& l = impl_->layout;
  if (original_variable.index >= l.n || k < 0 || k > l.d[original_variable.index]) {
    throw ModelError("model '" + impl_->structure.name +
                     "': the reduced system has no slot for "
                     "derivative " +
                     std::to_string(k) + " of variable " + std::to_string(original_variable.index));
  }
  return Var{l.slot(original_variable.index, k)};
}

std::vector<std::string> IndexReducedModel::states() const {
  std::vector<std::string> names;
  for (std::size_t s : impl_->selection.states) names.push_back(impl_->structure.variables.name(s));
  return names;
}

std::string IndexReducedModel::describe() const {
  // The analysis of the mode whose layout is active: the start's until an event changes the
  // structure.
  std::string out = impl_->mode.describe();
  if (impl_->layout_since) {
    out = fmt::format(
        "active layout: that of the mode the event at t = {:.17g} brought (the start's mode has "
        "index {})\n{}",
        *impl_->layout_since, impl_->analysis.index, out);
  }
  out += fmt::format(
      "\nstructure detection: an equation depends on a variable or derivative when its change "
      "exceeds {:g} of the geometric mean of its row's and its column's largest change "
      "(ReductionOptions::structure_threshold)",
      impl_->options.structure_threshold);
  out += "\nindex reduction: " + std::to_string(impl_->structure.variables.size()) +
         " unknowns (the variables and the derivatives the equations need), " +
         std::to_string(impl_->layout.num_equation_rows) +
         " equations and derivatives of "
         "equations, " +
         std::to_string(impl_->layout.num_states()) + " states: ";
  const std::vector<std::string> s = states();
  for (std::size_t k = 0; k < s.size(); ++k) out += (k == 0 ? "" : ", ") + s[k];
  if (s.empty()) out += "none";
  out += impl_->choice ? " (re-selected at events when they become a poor choice)"
                       : " (fixed: the structure leaves no choice)";
  out += impl_->alias_words();
  for (const std::string& note : impl_->start_notes) out += "\n" + note;
  return out;
}

}  // namespace hdae
