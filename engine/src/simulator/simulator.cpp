// hdae::Simulator and hdae::simulate (hdae/simulator.hpp): the public face of SimulationRun.
#include "hdae/simulator.hpp"

#include <stdexcept>

#include "sensitivity/sensitivity_model.hpp"
#include "simulator/simulation_run.hpp"

namespace hdae {
namespace {

/// Holds a Simulator's busy flag for one call that changes the run. A second such call while
/// one is under way (from another thread) gets std::logic_error instead of two threads in one
/// IDA memory, which crashed.
class BusyScope {
 public:
  explicit BusyScope(std::atomic<bool>& busy) : busy_(busy) {
    if (busy_.exchange(true, std::memory_order_acquire)) {
      throw std::logic_error(
          "Simulator is busy in another thread; one Simulator is advanced by one thread at a "
          "time");
    }
  }
  ~BusyScope() { busy_.store(false, std::memory_order_release); }
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;

 private:
  std::atomic<bool>& busy_;
};

}  // namespace

namespace {

/// The model with its sensitivity rows when the options ask for sensitivities, else null.
std::unique_ptr<detail::SensitivityModel> with_sensitivities(SimulationModel& model,
                                                             const SimulationOptions& options) {
  if (options.sensitivities.empty()) return nullptr;
  options.validate();
  return std::make_unique<detail::SensitivityModel>(model, options);
}

}  // namespace

Simulator::Simulator(SimulationModel& model, SimulationOptions options)
    : sensitivities_(with_sensitivities(model, options)),
      run_(std::make_unique<detail::SimulationRun>(sensitivities_ ? *sensitivities_ : model,
                                                   std::move(options))) {}

Simulator::~Simulator() = default;

void Simulator::add_row_sink(RowSink& sink) {
  const BusyScope busy(busy_);
  run_->add_row_sink(sink);
}
void Simulator::add_event_observer(EventObserver& observer) {
  const BusyScope busy(busy_);
  run_->add_event_observer(observer);
}
const SimulationStatus& Simulator::initialize() {
  const BusyScope busy(busy_);
  return run_->initialize();
}
const SimulationStatus& Simulator::advance_to(double t) {
  const BusyScope busy(busy_);
  return run_->advance_to(t);
}
const SimulationStatus& Simulator::advance_to_event(double t) {
  const BusyScope busy(busy_);
  return run_->advance_to(t, detail::SimulationRun::AdvanceEnd::kAtEvent);
}
const SimulationStatus& Simulator::status() const { return run_->status(); }
double Simulator::time() const { return run_->time(); }
std::span<const double> Simulator::state() const { return run_->state(); }
std::span<const double> Simulator::derivatives() const { return run_->derivatives(); }
const Statistics& Simulator::statistics() const { return run_->statistics(); }
const std::vector<EventRecord>& Simulator::events() const { return run_->events(); }
const ResultTable& Simulator::table() const { return run_->table(); }
const SimulationModel& Simulator::model() const {
  return sensitivities_ ? sensitivities_->model() : run_->model();
}
const SimulationOptions& Simulator::options() const { return run_->options(); }
SimulationResult Simulator::take_result() {
  const BusyScope busy(busy_);
  return run_->take_result();
}

SimulationResult simulate(SimulationModel& model, const SimulationOptions& options) {
  Simulator simulator(model, options);
  simulator.advance_to(options.stop_s);
  return simulator.take_result();
}

}  // namespace hdae
