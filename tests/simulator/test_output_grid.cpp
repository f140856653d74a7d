// OutputGrid (simulator/output_grid.hpp): the output points of a run and the steps counted
// between rows. Expected times are t0 + k dt written out, or the listed times.
#include <doctest/doctest.h>

#include "hdae/options.hpp"
#include "simulator/output_grid.hpp"

using hdae::SimulationOptions;
using hdae::detail::OutputGrid;

TEST_CASE("output points are t0 + k dt without drift, the last one stop_s") {
  SimulationOptions o;
  o.start_s = 1.0;
  o.stop_s = 2.05;
  o.output_interval_s = 0.1;
  const OutputGrid grid(o);
  CHECK(grid.next_index() == 1);
  CHECK(grid.time(1) == 1.0 + 1 * 0.1);
  // Computed, not accumulated: point 7 is 1 + 7 * 0.1, not seven additions of 0.1.
  CHECK(grid.time(7) == 1.0 + 7 * 0.1);
  CHECK(grid.time(10) == 1.0 + 10 * 0.1);
  CHECK(grid.time(11) == 2.05);  // 2.1 lies beyond stop_s
  CHECK(grid.time(50) == 2.05);
}

TEST_CASE("listed output times come in order, then stop_s") {
  SimulationOptions o;
  o.stop_s = 10.0;
  o.output_interval_s = 0.0;
  o.output_times = {0.5, 2.0, 7.0};
  OutputGrid grid(o);
  CHECK(grid.next_time() == 0.5);
  grid.stored_next();
  CHECK(grid.next_time() == 2.0);
  grid.stored_next();
  grid.stored_next();
  CHECK(grid.next_time() == 10.0);
}

TEST_CASE("an instant row stands for the points at its time or within round-off of it") {
  SimulationOptions o;
  o.stop_s = 1.0;
  o.output_interval_s = 0.25;
  OutputGrid grid(o);
  grid.skip_through(0.5 - 1e-17);  // round-off below 0.5: points 0.25 and 0.5 are covered
  CHECK(grid.next_time() == 0.75);
  grid.skip_through(2.0);  // never past the stop time's point
  CHECK(grid.next_time() == 1.0);
}

TEST_CASE("steps are counted from the last stored row") {
  SimulationOptions o;
  o.stop_s = 1.0;
  OutputGrid grid(o);
  grid.count_step();
  grid.count_step();
  CHECK(grid.steps_since_row() == 2);
  grid.stored_next();
  CHECK(grid.steps_since_row() == 0);
  grid.count_step();
  grid.row_stored();
  CHECK(grid.steps_since_row() == 0);
}
