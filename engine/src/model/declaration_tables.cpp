// The tables of hdae/declarations.hpp: where each declaration lies, the names of family
// members made on demand, and the family dependencies of the sparsity pattern.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "hdae/declarations.hpp"
#include "model/name_template.hpp"

namespace hdae {
namespace detail {

DeclarationPlace DeclarationIndex::locate(std::size_t j) const {
  // The last group whose first index is at most j (groups are in index order).
  const auto after =
      std::upper_bound(groups_.begin(), groups_.end(), j,
                       [](std::size_t i, const DeclarationGroup& g) { return i < g.first; });
  const DeclarationGroup& g = *(after - 1);
  const std::size_t offset = j - g.first;
  DeclarationPlace place{&g, offset / g.width, offset % g.width, 0};
  place.description = g.description + (g.indexed ? place.member : offset);
  return place;
}

void DeclarationIndex::append_single(std::size_t description) {
  if (groups_.empty() || groups_.back().indexed) {
    groups_.push_back({.first = size_, .count = 0, .width = 1, .description = description});
  }
  ++groups_.back().count;
  ++size_;
}

std::size_t DeclarationIndex::append_family(std::size_t count, std::size_t width,
                                            std::size_t description) {
  const std::size_t first = size_;
  if (count == 0 || width == 0) return first;
  groups_.push_back({.first = first,
                     .count = count,
                     .width = width,
                     .description = description,
                     .indexed = true});
  size_ += count * width;
  return first;
}

void DeclarationIndex::clear() {
  std::vector<DeclarationGroup>().swap(groups_);
  size_ = 0;
}

}  // namespace detail

namespace {

/// Empties v and gives its memory back (clear() keeps the capacity).
template <class T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

[[noreturn]] void throw_family_member(const char* what, std::size_t j) {
  throw std::invalid_argument(std::string(what) + " " + std::to_string(j) +
                              " belongs to a family: its description is the family's");
}

}  // namespace

VariableTable::VariableTable(std::initializer_list<VariableInfo> variables) {
  for (const VariableInfo& v : variables) add(v);
}

std::size_t VariableTable::add(VariableInfo info) {
  index_.append_single(descriptions_.size());
  start_.push_back(info.start);
  descriptions_.push_back(std::move(info));
  return start_.size() - 1;
}

std::size_t VariableTable::add_families(std::size_t count, std::span<const VariableInfo> members) {
  const std::size_t first = index_.append_family(count, members.size(), descriptions_.size());
  if (count == 0 || members.empty()) return first;
  descriptions_.insert(descriptions_.end(), members.begin(), members.end());
  start_.reserve(start_.size() + count * members.size());
  for (std::size_t i = 0; i < count; ++i) {
    for (const VariableInfo& m : members) start_.push_back(m.start);
  }
  return first;
}

void VariableTable::set(std::size_t j, VariableInfo info) {
  const detail::DeclarationPlace place = index_.locate(j);
  if (place.group->indexed) throw_family_member("variable", j);
  start_[j] = info.start;
  descriptions_[place.description] = std::move(info);
}

void VariableTable::clear() {
  index_.clear();
  release(descriptions_);
  release(start_);
}

std::string VariableTable::name(std::size_t j) const {
  const detail::DeclarationPlace place = index_.locate(j);
  const VariableInfo& d = descriptions_[place.description];
  return place.group->indexed ? detail::member_name(d.name, place.element + 1) : d.name;
}

std::string VariableTable::der_name(std::size_t j) const {
  const detail::DeclarationPlace place = index_.locate(j);
  const VariableInfo& d = descriptions_[place.description];
  if (d.der_name.empty()) return "der(" + name(j) + ")";
  return place.group->indexed ? detail::member_name(d.der_name, place.element + 1) : d.der_name;
}

std::vector<double> VariableTable::nominals() const {
  std::vector<double> out(size());
  for_each_declared([&out](std::size_t j, const VariableInfo& v) { out[j] = v.nominal; });
  return out;
}

VariableInfo VariableTable::info(std::size_t j) const {
  VariableInfo v = declared(j);
  v.name = name(j);
  v.start = start_[j];
  if (!v.der_name.empty()) v.der_name = der_name(j);
  return v;
}

EquationTable::EquationTable(std::initializer_list<EquationInfo> equations) {
  for (const EquationInfo& e : equations) add(e);
}

std::size_t EquationTable::add(EquationInfo info) {
  index_.append_single(descriptions_.size());
  descriptions_.push_back(std::move(info));
  return index_.size() - 1;
}

std::size_t EquationTable::add_families(std::size_t count, std::span<const EquationInfo> members) {
  const std::size_t first = index_.append_family(count, members.size(), descriptions_.size());
  if (count != 0) descriptions_.insert(descriptions_.end(), members.begin(), members.end());
  return first;
}

void EquationTable::set(std::size_t j, EquationInfo info) {
  const detail::DeclarationPlace place = index_.locate(j);
  if (place.group->indexed) throw_family_member("equation", j);
  descriptions_[place.description] = std::move(info);
}

void EquationTable::clear() {
  index_.clear();
  release(descriptions_);
}

std::string EquationTable::name(std::size_t j) const {
  const detail::DeclarationPlace place = index_.locate(j);
  const std::string& text = descriptions_[place.description].name;
  return place.group->indexed ? detail::expand_template(text, place.element + 1) : text;
}

std::vector<RowKind> EquationTable::kinds() const {
  std::vector<RowKind> out(size());
  for_each_declared([&out](std::size_t j, const EquationInfo& e) { out[j] = e.kind; });
  return out;
}

std::size_t FamilyDependency::end() const {
  // i + offset < cols  <=>  i < cols - offset, in unsigned arithmetic: no offset overflows it.
  if (offset >= 0) {
    const auto ahead = static_cast<std::size_t>(offset);
    return ahead >= cols ? 0 : std::min(rows, cols - ahead);
  }
  const std::size_t behind = begin();
  return cols > std::numeric_limits<std::size_t>::max() - behind ? rows
                                                                 : std::min(rows, cols + behind);
}

std::size_t SparsityTable::size() const {
  std::size_t n = entries_.size();
  for (const FamilyDependency& f : families_) n += f.end() > f.begin() ? f.end() - f.begin() : 0;
  return n;
}

void SparsityTable::clear() {
  release(entries_);
  release(families_);
}

}  // namespace hdae
