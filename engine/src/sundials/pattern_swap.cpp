// IdaIntegrator after the model replaced its sparsity pattern at an event
// (EventContext::sparsity_changed, ida_integrator.hpp): the sparse matrix, KLU and the coloured
// differences go over to the new pattern while IDA keeps its history.
#include <stdexcept>

#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sundials/history_shift.hpp"
#include "sundials/ida_integrator.hpp"

namespace hdae::sundials {

void IdaIntegrator::change_pattern(const sparsity::SparsityPattern& pattern) {
  if (setup_.pattern == nullptr || pattern.n != setup_.n) {
    throw std::logic_error("IdaIntegrator::change_pattern: not a sparse IDA of this size");
  }
  SUNMatrix matrix = matrix_.get();
  const auto nnz = static_cast<sunindextype>(pattern.nnz());
  // REINIT_FULL reallocates the matrix's entries for the new count; both kinds free KLU's
  // symbolic analysis and numeric factors, so its next setup analyses the new pattern.
  const int kind = nnz == SUNSparseMatrix_NNZ(matrix) ? SUNKLU_REINIT_PARTIAL : SUNKLU_REINIT_FULL;
  if (SUNLinSol_KLUReInit(linear_solver_.get(), matrix, nnz, kind) != SUNLS_SUCCESS) {
    throw SundialsError("SUNLinSol_KLUReInit failed");
  }
  // The coloured differences read the colouring through setup_.pattern.
  setup_.pattern = &pattern;
  write_pattern(matrix);
  // KLU has no factors now: a solve before IDA's next setup would be refused (klu_solve
  // without them) and cost a convergence failure and a retry. Before its first step, and after
  // a restart (IDAReInit), IDA sets up anyway.
  if (at_.initialized) force_linear_setup(ida_.get());
}

}  // namespace hdae::sundials
