#include "sundials/handles.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "sundials/compiled_vector_ops.hpp"

namespace hdae::sundials {

void ContextDeleter::operator()(SUNContext ctx) const { SUNContext_Free(&ctx); }

Context make_context() {
  SUNContext ctx = nullptr;
  // SUNDIALS 6.x takes a communicator pointer (NULL for serial); 7.x takes SUN_COMM_NULL.
  if (SUNContext_Create(nullptr, &ctx) != 0 || ctx == nullptr) {
    throw SundialsError("SUNContext_Create failed");
  }
  return Context(ctx);
}

Vector make_vector(std::size_t n, SUNContext ctx, int threads) {
  const auto length = static_cast<sunindextype>(n);
  N_Vector v = nullptr;
  if (vector_kind(threads) == VectorKind::kSerial) {
    v = N_VNew_Serial(length, ctx);
    if (v == nullptr) throw SundialsError(fmt::format("N_VNew_Serial({}) failed", n));
    use_compiled_operations(v);
  } else {
    v = N_VNew_OpenMP(length, threads, ctx);
    if (v == nullptr) throw SundialsError(fmt::format("N_VNew_OpenMP({}, {}) failed", n, threads));
  }
  N_VConst(0.0, v);
  return Vector(v);
}

std::string ida_flag_name(int flag) {
  // IDAGetReturnFlagName returns a malloc'ed buffer that the caller frees.
  char* name = IDAGetReturnFlagName(flag);
  std::string result = name != nullptr ? name : "unknown flag";
  std::free(name);
  return result;
}

void check_ida(int flag, std::string_view call) {
  if (flag < 0) throw SundialsError(fmt::format("{} failed: {}", call, ida_flag_name(flag)));
}

std::string cvode_flag_name(int flag) {
  char* name = CVodeGetReturnFlagName(flag);
  std::string result = name != nullptr ? name : "unknown flag";
  std::free(name);
  return result;
}

std::string arkode_flag_name(int flag) {
  char* name = ERKStepGetReturnFlagName(flag);
  std::string result = name != nullptr ? name : "unknown flag";
  std::free(name);
  return result;
}

void check_cvode(int flag, std::string_view call) {
  if (flag < 0) throw SundialsError(fmt::format("{} failed: {}", call, cvode_flag_name(flag)));
}

void check_arkode(int flag, std::string_view call) {
  if (flag < 0) throw SundialsError(fmt::format("{} failed: {}", call, arkode_flag_name(flag)));
}

}  // namespace hdae::sundials
