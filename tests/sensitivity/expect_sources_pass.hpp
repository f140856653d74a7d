// What the sensitivity tests assert of a run of the check (tools/sensitivity_check/): every
// source of the plan passes, its worst error within the tolerance.
#pragma once

#include <doctest/doctest.h>

#include "sensitivity_check/sensitivity_check.hpp"

namespace hdae::test {

/// Checks the plan against central differences; with min_rows, each source also compared on
/// at least that many rows.
inline void expect_sources_pass(const sensitivity_check::Plan& plan, double tolerance,
                                std::size_t min_rows = 0) {
  for (const sensitivity_check::SourceCheck& o : sensitivity_check::check(plan, tolerance)) {
    CAPTURE(o.model);
    CAPTURE(o.source);
    CAPTURE(o.message);
    CAPTURE(o.worst_at);
    CHECK(o.verdict == sensitivity_check::SourceCheck::Verdict::kPass);
    CHECK(o.worst <= tolerance);
    if (min_rows > 0) CHECK(o.rows >= min_rows);
  }
}

}  // namespace hdae::test
