// hdae::sweep (hdae/sweep.hpp): a fixed set of threads takes points from a shared counter.
#include "hdae/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/result.hpp"
#include "hdae/simulator.hpp"

namespace hdae {
namespace {

SimulationStatus failed(Outcome outcome, std::string message) {
  SimulationStatus s;
  s.outcome = outcome;
  s.message = std::move(message);
  return s;
}

/// One point from model creation to its final values; every failure becomes its status.
SweepOutcome run_point(const SweepFactory& factory, const ParameterPoint& point,
                       const SimulationOptions& options,
                       const std::vector<std::string>& final_columns) {
  SweepOutcome out{.parameters = point,
                   .final_values = std::vector<double>(final_columns.size(),
                                                       std::numeric_limits<double>::quiet_NaN())};
  std::unique_ptr<SimulationModel> model;
  try {
    model = factory();
    if (!model) throw std::runtime_error("the model factory returned no model");
  } catch (const std::exception& e) {
    out.status = failed(Outcome::kNotRun, fmt::format("the model could not be made: {}", e.what()));
    return out;
  }
  try {
    for (const auto& [name, value] : point) model->set_parameter(name, value);
    const SimulationResult r = simulate(*model, options);
    out.status = r.status;
    if (r.table.num_rows() == 0) return out;
    for (std::size_t k = 0; k < final_columns.size(); ++k) {
      out.final_values[k] = r.table.final_value(final_columns[k]);
    }
  } catch (const RunError& e) {
    out.status =
        e.partial_result() ? e.partial_result()->status : failed(Outcome::kModelFailure, e.what());
    out.status.message = e.what();
  } catch (const std::out_of_range& e) {
    out.status = failed(Outcome::kModelFailure, fmt::format("final value: {}", e.what()));
  } catch (const std::exception& e) {
    // ModelError from set_parameter, OptionError, or another exception of model code.
    out.status = failed(Outcome::kModelFailure, e.what());
  } catch (...) {
    out.status = failed(Outcome::kModelFailure, "model code threw an exception of unknown type");
  }
  return out;
}

}  // namespace

std::vector<SweepOutcome> sweep(const SweepFactory& factory,
                                const std::vector<ParameterPoint>& points,
                                const SimulationOptions& options,
                                const std::vector<std::string>& final_columns,
                                std::size_t threads) {
  options.validate();  // an OptionError before any thread starts
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  threads = std::min(threads, std::max<std::size_t>(points.size(), 1));
  std::vector<SweepOutcome> outcomes(points.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < points.size(); i = next++) {
      outcomes[i] = run_point(factory, points[i], options, final_columns);
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t k = 1; k < threads; ++k) pool.emplace_back(work);
    work();
  }  // the jthreads join here
  return outcomes;
}

}  // namespace hdae
