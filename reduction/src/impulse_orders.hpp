// How far the Dirac impulses of an impact reach into a model of higher index (docs/design.md,
// "Impacts in reduced models"; ITI paper section 3.2).
//
// The model names the impact sources (a contact force). ITI's impulse orders say what each
// quantity does at the impact: order 0 a Dirac impulse, -1 a finite jump, below that it is
// continuous. On Pryce's structure one number per variable suffices: x_j has order b_j, its
// k-th derivative b_j + k (the derivative of a jump is a Dirac). Each equation i is assigned to
// the variable its transversal entry names, whose highest derivative there must take up the
// largest order among the equation's terms:
//
//   b_T(i) = max_j (b_j + sigma_ij) - sigma_i,T(i),   b_source >= 0,
//
// iterated from the sources until nothing changes. The pendulum's contact force (order 0)
// makes vx jump (its equation of motion holds der(vx)), the rod keeps the velocity jump
// tangential, and the rod force, whose equation is the rod's second derivative, carries a
// Dirac of its own.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hdae/structure.hpp"

namespace hdae::reduction {

/// Not reached by the impulse (minus infinity).
inline constexpr int kNotReached = SignatureMatrix::kAbsent;

/// b_j per variable for the sources' impulses on the structure sigma with its transversal
/// (transversal[i]: the variable of row i); kNotReached where the impulse does not reach.
/// Iteration stops as soon as some b_j exceeds cap_j (the caller's limit, e.g. -d_j: no
/// derivative the equations need beyond a Dirac), leaving that b_j as found.
[[nodiscard]] std::vector<int> impulse_orders(const SignatureMatrix& sigma,
                                              std::span<const std::size_t> transversal,
                                              std::span<const std::size_t> sources,
                                              std::span<const int> cap);

/// The order of each row under b: max_j (b_j + sigma_ij), kNotReached when no term is reached.
[[nodiscard]] std::vector<int> row_orders(const SignatureMatrix& sigma, std::span<const int> b);

}  // namespace hdae::reduction
