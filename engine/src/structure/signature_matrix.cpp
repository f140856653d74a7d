#include <algorithm>

#include "hdae/structure.hpp"

namespace hdae {

int SignatureMatrix::sigma(std::size_t row, std::size_t col) const {
  const auto less = [](const SignatureEntry& e, std::pair<std::size_t, std::size_t> key) {
    return std::pair(e.row, e.col) < key;
  };
  const auto it = std::lower_bound(entries.begin(), entries.end(), std::pair(row, col), less);
  if (it == entries.end() || it->row != row || it->col != col) return kAbsent;
  return it->sigma;
}

void SignatureMatrix::normalize() {
  // Largest sigma first within a position, so that unique() keeps it.
  std::sort(entries.begin(), entries.end(), [](const SignatureEntry& a, const SignatureEntry& b) {
    if (a.row != b.row) return a.row < b.row;
    if (a.col != b.col) return a.col < b.col;
    return a.sigma > b.sigma;
  });
  const auto same_place = [](const SignatureEntry& a, const SignatureEntry& b) {
    return a.row == b.row && a.col == b.col;
  };
  entries.erase(std::unique(entries.begin(), entries.end(), same_place), entries.end());
}

}  // namespace hdae
