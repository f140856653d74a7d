// The extension module hdae._hdae; the package hdae (python/hdae/__init__.py) re-exports it.
#include <string>

#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "hdae/version.hpp"

PYBIND11_MODULE(_hdae, m) {
  m.doc() = "hdae: hybrid DAE simulation with consistent jumps (C++ core)";
  m.attr("__version__") = std::string(hdae::kVersion);
  hdae::python::bind_errors(m);
  hdae::python::bind_options(m);
  hdae::python::bind_result(m);
  hdae::python::bind_model(m);
  hdae::python::bind_run(m);
  hdae::python::bind_catalog(m);
#ifdef HDAE_WITH_FMI
  hdae::python::bind_fmi(m);
#endif
}
