// The list of bundled models (catalog.hpp): the groups of catalog_groups.hpp in order.
#include "hdae/models/catalog.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "catalog_groups.hpp"
#include "hdae/errors.hpp"

namespace hdae::models {
namespace {

/// Every entry, the groups one after the other in the catalog's fixed order.
std::vector<CatalogEntry> make_catalog() {
  std::vector<CatalogEntry> entries;
  for (const auto group :
       {basic_models, impact_models, dae_models, substitution_models, mechanism_models}) {
    std::vector<CatalogEntry> members = group();
    entries.insert(entries.end(), std::make_move_iterator(members.begin()),
                   std::make_move_iterator(members.end()));
  }
  return entries;
}

}  // namespace

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = make_catalog();
  return entries;
}

const CatalogEntry* find_model(std::string_view name) {
  const auto& all = catalog();
  const auto it = std::find_if(all.begin(), all.end(),
                               [name](const CatalogEntry& e) { return e.name == name; });
  return it == all.end() ? nullptr : &*it;
}

std::unique_ptr<SimulationModel> make_model(std::string_view name) {
  if (const CatalogEntry* entry = find_model(name)) return entry->make();
  std::string known;
  for (const CatalogEntry& e : catalog()) known += known.empty() ? e.name : ", " + e.name;
  throw ModelError(fmt::format("no bundled model '{}'; the models are: {}", name, known));
}

}  // namespace hdae::models
