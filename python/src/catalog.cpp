// The bundled models (hdae::models::catalog) for python/hdae/models.py, which makes one
// factory per entry (hdae.models.IdealClutch(J2=0.5)).
#include <string>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "hdae/models/catalog.hpp"

namespace py = pybind11;

namespace hdae::python {

void bind_catalog(py::module_& m) {
  // (name, description, parameters with their defaults) per model, in the catalog's order.
  m.def("_catalog", [] {
    py::list out;
    for (const models::CatalogEntry& entry : models::catalog()) {
      out.append(
          py::make_tuple(entry.name, entry.description, entry.make()->structure().parameters));
    }
    return out;
  });
  m.def(
      "_make_model", [](const std::string& name) { return models::make_model(name); },
      py::arg("name"));
}

}  // namespace hdae::python
