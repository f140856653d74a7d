// The manifest of the FMI layered standard for DAEs (fmi-ls-dae, draft 1.0.0-alpha.1 of
// 2026-09-11, https://modelica.github.io/fmi-ls-dae/v1.0.0-alpha.1): an FMI 3.0 Model Exchange
// FMU that carries extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml exposes a
// semi-explicit index-1 DAE, der(x) = f(x, a, t) and 0 = g(x, a, t), whose algebraic variables
// a the importer solves for. Read after modelDescription.xml (load.cpp); FmuModel then declares
// a as algebraic unknowns and g as constraint rows (docs/fmi.md, "DAE FMUs").
#pragma once

#include <filesystem>
#include <string>

#include "model_description.hpp"

namespace hdae::fmi::detail {

/// The manifest's path inside the unpacked FMU (draft section 3).
inline constexpr const char* kDaeManifestPath =
    "extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml";

/// When the FMU unpacked in `unpacked` has the manifest and d is an FMI 3.0 Model Exchange
/// import, sets d.dae from it; otherwise leaves d alone. IoError naming the FMU, the manifest
/// and its line for XML that does not parse, a root other than <fmiDAEManifest>, another
/// layered standard's name, a missing <EnableDAEParameter> or one that is no Boolean
/// structural parameter, a value reference that no variable has or that is no scalar Float64,
/// an algebraic variable that is a state or a derivative, and residuals whose count differs
/// from the algebraic variables'.
void read_dae_manifest(const std::filesystem::path& unpacked, const std::string& fmu_name,
                       ModelDescription& d);

}  // namespace hdae::fmi::detail
