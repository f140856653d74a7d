#include "hdae/index_reduction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "consistent_start.hpp"
#include "equation_derivatives.hpp"
#include "hdae/errors.hpp"
#include "slot_layout.hpp"
#include "state_selection.hpp"
#include "system_jacobian.hpp"

namespace hdae {

using reduction::SlotLayout;
using reduction::StateSelection;

namespace {

/// Weights of the consistent start (hdae/index_reduction.hpp, step 5), relative to 1/nominal:
/// a fixed start value is held a million times more firmly than a given one, a guess (an
/// algebraic unknown's start value, a derivative slot without der_start) 10^8 times more
/// loosely: loose enough that the guesses do not pull the given values measurably (10^-16 of
/// the squared distance), firm enough to keep the weighted problem well scaled.
constexpr double kFixedWeight = 1e6;
constexpr double kGuessWeight = 1e-8;
/// The analysis is made at the start values and this time (the model's t0 is not known
/// before a run; models of this kind are analysed at their start point).
constexpr double kAnalysisTime = 0.0;
/// Largest original model reduced: the state selection and the consistent start use dense
/// matrices of the original's and the reduced system's size (2000 unknowns: 32 MB for J).
constexpr std::size_t kMaxUnknowns = 2000;

}  // namespace

struct IndexReducedModel::Impl {
  std::unique_ptr<PhysicsModel> original;
  ReductionOptions options;
  IndexAnalysis analysis;
  SlotLayout layout;
  ModelStructure structure;
  StateSelection initial_selection, selection;
  std::vector<double> scale;                ///< nominal value per original unknown
  std::vector<std::string> equation_names;  ///< the original's, for the selection's messages
  bool watch_selection = false;
  Crossing selection_crossing;
  std::size_t changes = 0;
  std::vector<std::string> start_notes;

  void build();
  void check_analysis() const;
  void find_consistent_start();
  void name_state_rows();
  [[nodiscard]] StateSelection fresh_selection(double t, std::span<const double> slots) const;
  [[nodiscard]] double quality(double t, std::span<const double> slots) const;
  void forward_outputs(Evaluation& e) const;
  /// The original's event handler on its own variables; then, when its mode changed, the
  /// structure checked against the layout and the states selected anew.
  void forward_event(EventContext& event);
  [[nodiscard]] bool has_events() const {
    return !original->structure().crossings.empty() || !original->structure().time_events.empty();
  }
};

void IndexReducedModel::Impl::forward_event(EventContext& event) {
  const std::size_t slots = structure.variables.size();
  std::vector<double> y(slots), x(layout.n), der_x(layout.n);
  for (std::size_t k = 0; k < slots; ++k) y[k] = event.x(Var{k});
  reduction::original_point(layout, y, x, der_x);
  const std::vector<double> before = x;
  EventContext view = event.with_state(x, der_x);
  original->on_event(view);
  for (std::size_t j = 0; j < layout.n; ++j) {
    if (x[j] != before[j]) event.set(Var{layout.slot(j, 0)}, x[j]);
  }
  // The mode may have changed the equations: the reduction holds while the offsets stay.
  const IndexAnalysis now = analyze_index(*original, event.t(), x, der_x);
  if (now.verdict != IndexVerdict::kRegular || now.sigma_method.c != layout.c ||
      now.sigma_method.d != layout.d) {
    throw ModelError("model '" + original->structure().name +
                     "': at t = " + std::to_string(event.t()) +
                     " the event changed the structure of the equations; the index reduction "
                     "keeps the structure it found at the start (" +
                     now.describe() + ")");
  }
  for (std::size_t k = 0; k < slots; ++k) y[k] = event.x(Var{k});
  StateSelection fresh = fresh_selection(event.t(), y);
  if (fresh.states != selection.states) {
    selection = std::move(fresh);
    ++changes;
    name_state_rows();
    event.rows_changed();
  }
}

void IndexReducedModel::Impl::check_analysis() const {
  const ModelStructure& s = original->structure();
  if (analysis.verdict != IndexVerdict::kRegular) {
    throw ModelError("model '" + s.name + "' cannot be reduced: " + analysis.describe());
  }
  if (!analysis.corrections.empty()) {
    throw ModelError("model '" + s.name +
                     "': its structure needs rows replaced by combinations of rows (a singular "
                     "leading matrix), which the index reduction does not form: " +
                     analysis.describe());
  }
  const auto& c = analysis.sigma_method.c;
  const auto worst = std::max_element(c.begin(), c.end());
  if (worst != c.end() && *worst > 3) {
    throw ModelError("model '" + s.name + "': equation '" +
                     s.equations.name(static_cast<std::size_t>(worst - c.begin())) +
                     "' would have to be differentiated " + std::to_string(*worst) +
                     " times; index reduction goes up to 3");
  }
}

void IndexReducedModel::Impl::build() {
  const ModelStructure& s = original->structure();
  s.validate();
  if (s.num_unknowns() > kMaxUnknowns) {
    throw ModelError("model '" + s.name + "' has " + std::to_string(s.num_unknowns()) +
                     " unknowns; index reduction works with dense matrices and takes at most " +
                     std::to_string(kMaxUnknowns));
  }
  const std::vector<double> x(s.variables.starts().begin(), s.variables.starts().end());
  std::vector<double> der_x(x.size());
  s.variables.for_each_declared(
      [&der_x](std::size_t j, const VariableInfo& v) { der_x[j] = v.der_start.value_or(0.0); });
  analysis = analyze_index(*original, kAnalysisTime, x, der_x);
  check_analysis();
  layout = reduction::make_layout(analysis.sigma_method.c, analysis.sigma_method.d);
  structure = reduction::reduced_structure(s, layout);
  scale = s.variables.nominals();
  find_consistent_start();
  const std::vector<double> slots(structure.variables.starts().begin(),
                                  structure.variables.starts().end());
  equation_names.clear();
  for (std::size_t i = 0; i < s.equations.size(); ++i)
    equation_names.push_back(s.equations.name(i));
  initial_selection = fresh_selection(kAnalysisTime, slots);
  selection = initial_selection;
  changes = 0;
  watch_selection = reduction::has_choice(layout);
  if (watch_selection) {
    selection_crossing = Crossing{structure.crossings.size()};
    structure.crossings.push_back(
        {"state selection: determinant ratio - switch_ratio", CrossingDirection::kFalling, 1.0});
  }
  name_state_rows();
}

void IndexReducedModel::Impl::find_consistent_start() {
  const ModelStructure& s = original->structure();
  reduction::StartProblem p;
  p.num_equations = layout.num_equation_rows;
  p.equations = [this](std::span<const double> y, std::span<double> r) {
    reduction::equation_derivatives(*original, layout, kAnalysisTime, y, r);
  };
  for (std::size_t j = 0; j < layout.n; ++j) {
    const VariableInfo& v = s.variables.declared(j);
    for (int k = 0; k <= layout.d[j]; ++k) {
      // Start values of differentiated unknowns (and given start values of derivatives) are
      // held; those of algebraic unknowns (d_j = 0) are guesses, as in Modelica.
      const bool given = (k == 0 && layout.d[j] >= 1) || (k == 1 && v.der_start.has_value());
      const double firmness = k == 0 && v.fixed ? kFixedWeight : (given ? 1.0 : kGuessWeight);
      p.guess.push_back(structure.variables.start(layout.slot(j, k)));
      p.weights.push_back(firmness / v.nominal);
      p.scale.push_back(v.nominal);
      // The feasible region bounds the unknown itself (k = 0), not its derivatives.
      constexpr double inf = std::numeric_limits<double>::infinity();
      p.lower.push_back(k == 0 ? v.min.value_or(-inf) : -inf);
      p.upper.push_back(k == 0 ? v.max.value_or(inf) : inf);
    }
  }
  const reduction::StartResult r = reduction::consistent_start(p);
  if (!r.converged) {
    throw ModelError("model '" + s.name +
                     "': no consistent start values found near the given "
                     "ones (largest residual " +
                     std::to_string(r.residual_norm) + " after " + std::to_string(r.iterations) +
                     " Gauss-Newton steps)");
  }
  start_notes.clear();
  for (std::size_t k = 0; k < r.y.size(); ++k) {
    const double nominal = structure.variables.nominal(k);
    const double start = structure.variables.start(k);
    const bool given = p.weights[k] * nominal >= 1.0;
    if (given && std::abs(r.y[k] - start) > 1e-9 * std::max(std::abs(start), nominal)) {
      std::ostringstream note;
      note.precision(12);
      note << "start value of " << structure.variables.name(k) << " moved from " << start << " to "
           << r.y[k] << " to satisfy the equations and their derivatives";
      start_notes.push_back(note.str());
    }
    structure.variables.set_start(k, r.y[k]);
  }
}

void IndexReducedModel::Impl::name_state_rows() {
  for (std::size_t m = 0; m < selection.states.size(); ++m) {
    const std::size_t k = selection.states[m];
    const std::size_t row = layout.num_equation_rows + m;
    structure.equations.set(
        row, {"der(" + structure.variables.name(k) + ") = " + structure.variables.name(k + 1),
              structure.equations.kind(row)});
  }
}

StateSelection IndexReducedModel::Impl::fresh_selection(double t,
                                                        std::span<const double> slots) const {
  return reduction::select_states(reduction::system_jacobian(*original, layout, t, slots), scale,
                                  layout, equation_names);
}

double IndexReducedModel::Impl::quality(double t, std::span<const double> slots) const {
  const Eigen::MatrixXd j = reduction::system_jacobian(*original, layout, t, slots);
  try {
    const StateSelection fresh = reduction::select_states(j, scale, layout, equation_names);
    return reduction::selection_quality(j, scale, layout, selection, fresh);
  } catch (const ModelError&) {
    return 1.0;  // no better choice exists here; the current one stays
  }
}

void IndexReducedModel::Impl::forward_outputs(Evaluation& e) const {
  std::vector<double> x(layout.n), der_x(layout.n), r(layout.n),
      w(original->structure().outputs.size());
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
    throw ModelError("index reduction: switch_ratio must lie in (0, 1), got " +
                     std::to_string(options.switch_ratio));
  }
  impl_->original = std::move(original);
  impl_->options = options;
  impl_->build();
}

IndexReducedModel::~IndexReducedModel() = default;

const ModelStructure& IndexReducedModel::structure() const { return impl_->structure; }

void IndexReducedModel::evaluate(Evaluation& e) {
  Impl& m = *impl_;
  const std::span<const double> x = e.x();
  const std::span<const double> der_x = e.der_x();
  std::span<double> r = e.residuals();
  if (m.has_events()) {
    // First: the jets below branch on the Booleans this records.
    std::vector<double> xo(m.layout.n), der_xo(m.layout.n);
    reduction::original_point(m.layout, x, xo, der_xo);
    m.original->evaluate_crossings(e, xo, der_xo);
  }
  reduction::equation_derivatives(*m.original, m.layout, e.t(), x,
                                  r.subspan(0, m.layout.num_equation_rows));
  for (std::size_t k = 0; k < m.selection.states.size(); ++k) {
    const std::size_t s = m.selection.states[k];
    r[m.layout.num_equation_rows + k] = der_x[s] - x[s + 1];
  }
  if (m.watch_selection) {
    e.positive(m.selection_crossing, m.quality(e.t(), x) - m.options.switch_ratio);
  }
  if (e.wants_outputs()) m.forward_outputs(e);
}

void IndexReducedModel::on_event(EventContext& event) {
  Impl& m = *impl_;
  if (m.has_events()) m.forward_event(event);
  if (!m.watch_selection) return;
  // The crossing's Boolean, not a fresh ratio: at the located root the ratio is switch_ratio
  // to round-off, on either side.
  if (event.is_true(m.selection_crossing)) return;
  std::vector<double> x(m.structure.variables.size());
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = event.x(Var{k});
  m.selection = m.fresh_selection(event.t(), x);
  ++m.changes;
  m.name_state_rows();
  event.rows_changed();
}

void IndexReducedModel::reset() {
  impl_->original->reset();
  impl_->selection = impl_->initial_selection;
  impl_->changes = 0;
  impl_->name_state_rows();
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
  std::string out = impl_->analysis.describe();
  out += "\nindex reduction: " + std::to_string(impl_->structure.variables.size()) +
         " unknowns (the variables and the derivatives the equations need), " +
         std::to_string(impl_->layout.num_equation_rows) +
         " equations and derivatives of "
         "equations, " +
         std::to_string(impl_->layout.num_states()) + " states: ";
  const std::vector<std::string> s = states();
  for (std::size_t k = 0; k < s.size(); ++k) out += (k == 0 ? "" : ", ") + s[k];
  if (s.empty()) out += "none";
  out += impl_->watch_selection ? " (re-selected at events when they become a poor choice)"
                                : " (fixed: the structure leaves no choice)";
  for (const std::string& note : impl_->start_notes) out += "\n" + note;
  return out;
}

}  // namespace hdae
