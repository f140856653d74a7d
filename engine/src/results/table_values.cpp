// ResultTable::Values (result.hpp): the table's row-major values in one block from malloc,
// grown by realloc. For a block above the C library's mmap threshold, glibc's realloc remaps
// the pages (mremap) rather than copying them, so appending the rows of a long, wide run costs
// the rows' own memory once; elsewhere realloc copies, as std::vector would.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>

#include "hdae/result.hpp"

namespace hdae {

ResultTable::Values::Values(const Values& other) {
  reserve(other.size_);
  if (other.size_ > 0) std::memcpy(data_, other.data_, other.size_ * sizeof(double));
  size_ = other.size_;
}

ResultTable::Values::Values(Values&& other) noexcept { swap(other); }

ResultTable::Values& ResultTable::Values::operator=(const Values& other) {
  if (this != &other) {
    Values copy(other);
    swap(copy);
  }
  return *this;
}

ResultTable::Values& ResultTable::Values::operator=(Values&& other) noexcept {
  Values taken(std::move(other));
  swap(taken);
  return *this;
}

ResultTable::Values::~Values() { std::free(data_); }

void ResultTable::Values::swap(Values& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
  std::swap(capacity_, other.capacity_);
}

void ResultTable::Values::reserve(std::size_t count) {
  if (count <= capacity_) return;
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(double)) {
    throw std::length_error("ResultTable: more values than memory can address");
  }
  void* grown = std::realloc(data_, count * sizeof(double));
  if (grown == nullptr) throw std::bad_alloc();
  data_ = static_cast<double*>(grown);
  capacity_ = count;
}

void ResultTable::Values::append(std::span<const double> values) {
  if (values.empty()) return;
  const std::size_t needed = size_ + values.size();
  // Doubling keeps the number of reallocations logarithmic where realloc has to copy.
  if (needed > capacity_) reserve(std::max(needed, 2 * capacity_));
  std::memcpy(data_ + size_, values.data(), values.size() * sizeof(double));
  size_ = needed;
}

}  // namespace hdae
