// Numerical detection of the signature matrix (hdae/structure.hpp, step 1; docs/design.md,
// "Structure and index").
#pragma once

#include <span>

#include "structure/system_residual.hpp"

namespace hdae::structure {

/// Sigma of the (possibly corrected) system near (t, x, der_x); see detect_signature.
[[nodiscard]] SignatureMatrix detect(const SystemResidual& f, double t, std::span<const double> x,
                                     std::span<const double> der_x,
                                     const SignatureDetection& settings);

/// Throws ModelError when x, der_x or (non-empty) kinds do not have one entry per unknown;
/// `caller` names the function in the message.
void check_sizes(const ModelStructure& s, std::span<const double> x, std::span<const double> der_x,
                 std::span<const RowKind> kinds, const char* caller);

/// "model 'm': ..." prefix of the messages of the analysis.
[[nodiscard]] std::string model_prefix(const ModelStructure& s);

}  // namespace hdae::structure
