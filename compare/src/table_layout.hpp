// How the rows of a result line up with those of its reference (compare.hpp): the continuous
// segments compared pairwise, result time mapped onto the reference's axis, and the tube's
// half-width in time; the report learns the tables' and events' facts on the way.
#pragma once

#include <vector>

#include "event_alignment.hpp"
#include "hdae/compare.hpp"

namespace hdae::compare {

/// Segment k of the result is compared with segment k of the reference; result rows sit at
/// result_time (the reference's axis).
struct Layout {
  std::vector<Segment> reference_segments;
  std::vector<Segment> result_segments;
  std::vector<double> result_time;
  double delta_t = 0.0;
};

/// Fills the report's table and event facts and returns the layout, with no segments when
/// either table has no rows.
[[nodiscard]] Layout make_layout(const ResultTable& reference, const ResultTable& result,
                                 const CompareOptions& options, CompareReport& report);

}  // namespace hdae::compare
