#include "results/background_rows.hpp"

#include <algorithm>
#include <utility>

namespace hdae::detail {
namespace {

/// Values per chunk: 1 MiB, large against a handover's cost, small against the memory of a
/// large run; a row wider than that is a chunk by itself.
constexpr std::size_t kChunkValues = std::size_t{1} << 17;

/// Full chunks waiting for the writer at most: one being written, one ready.
constexpr std::size_t kMaxQueued = 2;

}  // namespace

BackgroundRows::BackgroundRows(Write write, Flush flush)
    : write_(std::move(write)), flush_(std::move(flush)), writer_([this] { run(); }) {}

BackgroundRows::~BackgroundRows() {
  if (writer_.joinable()) stop(false);
}

void BackgroundRows::push(double t, std::span<const double> values) {
  if (!filling_.data.empty() && filling_.width != values.size()) hand_over();
  filling_.width = values.size();
  if (filling_.data.empty()) filling_.data.reserve(std::max(kChunkValues, values.size() + 1));
  filling_.data.push_back(t);
  filling_.data.insert(filling_.data.end(), values.begin(), values.end());
  if (filling_.data.size() >= kChunkValues) hand_over();
}

void BackgroundRows::flush() {
  // An empty chunk still carries the flush: its rows went with the chunk handed over last.
  filling_.flush = true;
  hand_over();
}

void BackgroundRows::finish() {
  if (!filling_.data.empty()) hand_over();
  stop(true);
  const std::lock_guard lock(mutex_);
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void BackgroundRows::hand_over() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return full_.size() < kMaxQueued || failure_; });
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  full_.push_back(std::move(filling_));
  filling_ = Chunk{};
  if (!spare_.empty()) {
    filling_ = std::move(spare_.back());
    spare_.pop_back();
    filling_.data.clear();
    filling_.flush = false;
  }
  changed_.notify_all();
}

void BackgroundRows::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !full_.empty() || stopping_; });
    if (full_.empty() || discard_) return;
    Chunk chunk = std::move(full_.front());
    full_.pop_front();
    if (!failure_) {
      lock.unlock();
      std::exception_ptr failed;
      try {
        write_chunk(chunk);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      if (failed) failure_ = failed;
    }
    spare_.push_back(std::move(chunk));
    changed_.notify_all();
  }
}

void BackgroundRows::write_chunk(const Chunk& chunk) {
  const std::size_t stride = chunk.width + 1;
  for (std::size_t at = 0; at + stride <= chunk.data.size(); at += stride) {
    write_(chunk.data[at], std::span<const double>(chunk.data).subspan(at + 1, chunk.width));
  }
  if (chunk.flush && flush_) flush_();
}

void BackgroundRows::stop(bool write_queued) {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    discard_ = !write_queued;
  }
  changed_.notify_all();
  writer_.join();
}

}  // namespace hdae::detail
