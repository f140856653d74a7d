// fmi3Get<T> and fmi3Set<T> of an exported FMU (FMI 3.0 specification, section 2.2.6): its
// variables are all Float64 (variable_layout.hpp), so the other types answer fmi3Error naming
// the type and the first value reference asked for.
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "fmi3_export.hpp"

using hdae::fmu_export::FmuInstance;
using hdae::fmu_export::guarded;

namespace {

/// The pointers the standard requires; a null array with a non-zero count is refused.
void require_arrays(const void* vrs, size_t vr_count, const void* values, size_t value_count) {
  if ((vrs == nullptr && vr_count > 0) || (values == nullptr && value_count > 0)) {
    throw std::invalid_argument("a null array with a non-zero count");
  }
}

fmi3Status no_such_type(fmi3Instance instance, const char* function, const char* type,
                        const fmi3ValueReference vrs[], size_t vr_count) {
  return guarded(instance, function, [&](FmuInstance&) {
    const std::string asked =
        (vrs != nullptr && vr_count > 0) ? fmt::format(" (value reference {})", vrs[0]) : "";
    throw std::invalid_argument(fmt::format(
        "this FMU has no variables of type {}{}: all its variables are Float64", type, asked));
  });
}

}  // namespace

HDAE_FMI3_API fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                        size_t vr_count, fmi3Float64 values[], size_t value_count) {
  return guarded(instance, "fmi3GetFloat64", [&](FmuInstance& self) {
    require_arrays(vrs, vr_count, values, value_count);
    self.get_float64({vrs, vr_count}, {values, value_count});
  });
}

HDAE_FMI3_API fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[],
                                        size_t vr_count, const fmi3Float64 values[],
                                        size_t value_count) {
  return guarded(instance, "fmi3SetFloat64", [&](FmuInstance& self) {
    require_arrays(vrs, vr_count, values, value_count);
    self.set_float64({vrs, vr_count}, {values, value_count});
  });
}

// The scalar types this FMU has no variables of.
#define HDAE_FMI3_NO_VARIABLES_OF(T)                                                         \
  HDAE_FMI3_API fmi3Status fmi3Get##T(fmi3Instance instance, const fmi3ValueReference vrs[], \
                                      size_t vr_count, fmi3##T /*values*/[],                 \
                                      size_t /*value_count*/) {                              \
    return no_such_type(instance, "fmi3Get" #T, #T, vrs, vr_count);                          \
  }                                                                                          \
  HDAE_FMI3_API fmi3Status fmi3Set##T(fmi3Instance instance, const fmi3ValueReference vrs[], \
                                      size_t vr_count, const fmi3##T /*values*/[],           \
                                      size_t /*value_count*/) {                              \
    return no_such_type(instance, "fmi3Set" #T, #T, vrs, vr_count);                          \
  }                                                                                          \
  static_assert(std::is_same_v<decltype(fmi3Get##T), fmi3Get##T##Fn>);                       \
  static_assert(std::is_same_v<decltype(fmi3Set##T), fmi3Set##T##Fn>);
HDAE_FMI3_NO_VARIABLES_OF(Float32)
HDAE_FMI3_NO_VARIABLES_OF(Int8)
HDAE_FMI3_NO_VARIABLES_OF(UInt8)
HDAE_FMI3_NO_VARIABLES_OF(Int16)
HDAE_FMI3_NO_VARIABLES_OF(UInt16)
HDAE_FMI3_NO_VARIABLES_OF(Int32)
HDAE_FMI3_NO_VARIABLES_OF(UInt32)
HDAE_FMI3_NO_VARIABLES_OF(Int64)
HDAE_FMI3_NO_VARIABLES_OF(UInt64)
HDAE_FMI3_NO_VARIABLES_OF(Boolean)
HDAE_FMI3_NO_VARIABLES_OF(String)
#undef HDAE_FMI3_NO_VARIABLES_OF

HDAE_FMI3_API fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t vr_count, size_t /*value_sizes*/[],
                                       fmi3Binary /*values*/[], size_t /*value_count*/) {
  return no_such_type(instance, "fmi3GetBinary", "Binary", vrs, vr_count);
}

HDAE_FMI3_API fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vrs[],
                                       size_t vr_count, const size_t /*value_sizes*/[],
                                       const fmi3Binary /*values*/[], size_t /*value_count*/) {
  return no_such_type(instance, "fmi3SetBinary", "Binary", vrs, vr_count);
}

HDAE_FMI3_API fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t vr_count, fmi3Clock /*values*/[]) {
  return no_such_type(instance, "fmi3GetClock", "Clock", vrs, vr_count);
}

HDAE_FMI3_API fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vrs[],
                                      size_t vr_count, const fmi3Clock /*values*/[]) {
  return no_such_type(instance, "fmi3SetClock", "Clock", vrs, vr_count);
}

static_assert(std::is_same_v<decltype(fmi3GetFloat64), fmi3GetFloat64Fn>);
static_assert(std::is_same_v<decltype(fmi3SetFloat64), fmi3SetFloat64Fn>);
static_assert(std::is_same_v<decltype(fmi3GetBinary), fmi3GetBinaryFn>);
static_assert(std::is_same_v<decltype(fmi3SetBinary), fmi3SetBinaryFn>);
static_assert(std::is_same_v<decltype(fmi3GetClock), fmi3GetClockFn>);
static_assert(std::is_same_v<decltype(fmi3SetClock), fmi3SetClockFn>);
