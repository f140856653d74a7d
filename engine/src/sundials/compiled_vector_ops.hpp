// The arithmetic of SUNDIALS' serial N_Vector compiled with hdae (docs/design.md, "Vector
// operations"). Debian 12 builds libsundials 6.4.1 without optimisation: its vector operations
// run several times the instructions an optimised loop takes, and on a model of a few hundred
// unknowns they are most of an integrator's time. SUNDIALS lets a vector carry operations of
// its own (its N_Vector operation table): hdae puts its own loops there for the operations the
// integrators use on every step. They compute what SUNDIALS' own do in the same order,
// including the special cases of N_VLinearSum and the fallback that N_VLinearCombination and
// N_VScaleAddMulti take without fused operations, so that results are identical bit for bit
// (tests/sundials/test_compiled_vector_ops.cpp compares them on every case).
#pragma once

#include <nvector/nvector_serial.h>

namespace hdae::sundials {

/// Replaces the hot operations of the serial vector v by hdae's; vectors cloned from v (all of
/// an integrator's) inherit them.
void use_compiled_operations(N_Vector v);

}  // namespace hdae::sundials
