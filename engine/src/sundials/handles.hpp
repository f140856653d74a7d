// RAII owners of SUNDIALS objects and the single place for version-specific calls
// (SUNDIALS 6.4: SUNContext_Create(NULL, ...), realtype/sunrealtype, 64-bit sunindextype).
// Only engine/src/sundials/ includes SUNDIALS headers. Declaration order of members that
// hold these handles is their destruction order in reverse: the context is created first and
// freed last, as SUNDIALS requires.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <ida/ida.h>
#include <nvector/nvector_openmp.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

// IDA's own interpolation of y and y' at a time inside the last step, the one IDASolve uses
// for its IDA_NORMAL output (ida.c). libsundials_ida 6.x exports it but its installed headers
// do not declare it; IDAGetDky gives the same polynomial through a general k-th derivative
// recurrence that costs several hundred instructions more per call, which is most of a small
// model's output row.
// NOLINTNEXTLINE(readability-identifier-naming): SUNDIALS's name
extern "C" int IDAGetSolution(void* ida_mem, sunrealtype t, N_Vector yret, N_Vector ypret);

namespace hdae::sundials {

/// A SUNDIALS call failed or could not allocate: an engine failure, never the model's.
class SundialsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ContextDeleter {
  void operator()(SUNContext ctx) const;
};
struct VectorDeleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
  void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct LinearSolverDeleter {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct NonlinearSolverDeleter {
  void operator()(SUNNonlinearSolver s) const { SUNNonlinSolFree(s); }
};
struct IdaDeleter {
  void operator()(void* mem) const { IDAFree(&mem); }
};
struct CvodeDeleter {
  void operator()(void* mem) const { CVodeFree(&mem); }
};
struct ErkDeleter {
  void operator()(void* mem) const { ERKStepFree(&mem); }
};

using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextDeleter>;
using Vector = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorDeleter>;
using Matrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixDeleter>;
using LinearSolver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverDeleter>;
using NonlinearSolver =
    std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinearSolverDeleter>;
using IdaMemory = std::unique_ptr<void, IdaDeleter>;
using CvodeMemory = std::unique_ptr<void, CvodeDeleter>;
using ErkMemory = std::unique_ptr<void, ErkDeleter>;

[[nodiscard]] Context make_context();

/// The two kinds of N_Vector hdae creates: SUNDIALS' serial vector, or its OpenMP vector, whose
/// operations (linear combinations, norms, dot products) each run as one OpenMP parallel loop
/// over a fixed number of threads. Both hold one contiguous array of doubles.
enum class VectorKind { kSerial, kOpenMP };

/// kSerial for threads <= 1, else kOpenMP (SimulationOptions::threads).
[[nodiscard]] constexpr VectorKind vector_kind(int threads) {
  return threads > 1 ? VectorKind::kOpenMP : VectorKind::kSerial;
}

/// A vector of n zeros: serial for threads <= 1 (with hdae's compiled operations,
/// compiled_vector_ops.hpp), an OpenMP vector with that many threads otherwise. Every vector
/// an integrator works with is cloned from these, so it is of the same kind.
[[nodiscard]] Vector make_vector(std::size_t n, SUNContext ctx, int threads = 1);

/// View of an N_Vector's data, serial or OpenMP, through the vector's own operations
/// (N_VGetArrayPointer, N_VGetLength): two calls through its operation table, for the paths
/// that run once per step or less.
[[nodiscard]] inline std::span<double> view(N_Vector v) {
  return {N_VGetArrayPointer(v), static_cast<std::size_t>(N_VGetLength(v))};
}

/// View of the first n entries of a vector of the given kind whose length is known to be n:
/// the callbacks' hot path. The data pointer is read inline (NV_DATA_S or NV_DATA_OMP, one load
/// after a branch that always goes the same way), where N_VGetArrayPointer is an out-of-line
/// call through the operation table on every residual call.
[[nodiscard]] inline std::span<double> view(N_Vector v, std::size_t n, VectorKind kind) {
  return {kind == VectorKind::kSerial ? NV_DATA_S(v) : NV_DATA_OMP(v), n};
}

/// IDA's name of a return flag, e.g. "IDA_CONV_FAIL".
[[nodiscard]] std::string ida_flag_name(int flag);

/// Throws SundialsError naming the call and IDA's flag name when flag < 0.
void check_ida(int flag, std::string_view call);

/// CVODE's and ARKODE's names of a return flag, e.g. "CV_TOO_MUCH_WORK", "ARK_ERR_FAILURE".
[[nodiscard]] std::string cvode_flag_name(int flag);
[[nodiscard]] std::string arkode_flag_name(int flag);
/// Throws SundialsError naming the call and the flag when flag < 0.
void check_cvode(int flag, std::string_view call);
void check_arkode(int flag, std::string_view call);

}  // namespace hdae::sundials
