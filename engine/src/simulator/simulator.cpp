// hdae::Simulator and hdae::simulate (hdae/simulator.hpp): the public face of SimulationRun.
#include "hdae/simulator.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae {
namespace {

/// The options' own rules, the model's declarations, and the rules that need both.
std::unique_ptr<detail::SimulationRun> make_run(SimulationModel& model, SimulationOptions options) {
  options.validate();
  const ModelStructure& structure = model.structure();
  structure.validate();
  if (options.linear_solver == LinearSolverKind::kKlu && structure.sparsity.empty()) {
    throw OptionError(fmt::format(
        "SimulationOptions::linear_solver is kKlu but model '{}' declares no sparsity pattern "
        "(declare_dependency); use kAuto or kDense, or declare the pattern",
        structure.name));
  }
  return std::make_unique<detail::SimulationRun>(model, std::move(options));
}

}  // namespace

Simulator::Simulator(SimulationModel& model, SimulationOptions options)
    : run_(make_run(model, std::move(options))) {}

Simulator::~Simulator() = default;

void Simulator::add_row_sink(RowSink& sink) { run_->add_row_sink(sink); }
void Simulator::add_event_observer(EventObserver& observer) { run_->add_event_observer(observer); }
const SimulationStatus& Simulator::initialize() { return run_->initialize(); }
const SimulationStatus& Simulator::advance_to(double t) { return run_->advance_to(t); }
const SimulationStatus& Simulator::status() const { return run_->status(); }
double Simulator::time() const { return run_->time(); }
std::span<const double> Simulator::state() const { return run_->state(); }
std::span<const double> Simulator::derivatives() const { return run_->derivatives(); }
const Statistics& Simulator::statistics() const { return run_->statistics(); }
const std::vector<EventRecord>& Simulator::events() const { return run_->events(); }
const ResultTable& Simulator::table() const { return run_->table(); }
const SimulationModel& Simulator::model() const { return run_->model(); }
const SimulationOptions& Simulator::options() const { return run_->options(); }
SimulationResult Simulator::take_result() { return run_->take_result(); }

SimulationResult simulate(SimulationModel& model, const SimulationOptions& options) {
  Simulator simulator(model, options);
  simulator.advance_to(options.stop_s);
  return simulator.take_result();
}

}  // namespace hdae
