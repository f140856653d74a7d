// Rows written on a thread of their own (the streamed CSV sink, row_sinks.cpp). The text of a
// double costs tens of nanoseconds (its shortest round-trip digits, shortest_double.hpp),
// copying it about one: the run's thread copies each row into a chunk and goes on, and a
// writer thread formats and writes whole chunks on the other core. At most two chunks are
// full at a time, so the memory stays bounded when the writer falls behind: the run's thread
// then waits for it. The writer's failure (a full disk) comes back to the run's thread at the
// next row or at finish(), as it would without the thread. A sink that flushes its file to an
// interval (the HDF5 sink) hands a partial chunk over with flush(), and the writer calls its
// flush function once it has written that chunk.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace hdae::detail {

class BackgroundRows {
 public:
  using Write = std::function<void(double t, std::span<const double> values)>;
  using Flush = std::function<void()>;

  /// Starts the writer thread, which calls write(t, values) for every row in order, and
  /// flush() (when given) after the rows handed over by a call of flush() below.
  explicit BackgroundRows(Write write, Flush flush = {});
  /// Stops the writer without writing the rows still queued (finish() writes them).
  ~BackgroundRows();
  BackgroundRows(const BackgroundRows&) = delete;
  BackgroundRows& operator=(const BackgroundRows&) = delete;

  /// Queues a row (its values copied); rethrows what the writer threw on an earlier row.
  void push(double t, std::span<const double> values);
  /// Hands the rows copied so far to the writer without waiting for a full chunk; the writer
  /// then calls the flush function. Rethrows what the writer threw on an earlier row.
  void flush();
  /// Writes every queued row, ends the writer thread and rethrows what the writer threw.
  void finish();

 private:
  /// Rows of one width, each stored as t followed by its values.
  struct Chunk {
    std::size_t width = 0;
    std::vector<double> data;
    bool flush = false;  ///< the writer calls flush_ after its rows
  };

  void hand_over();
  void run();
  void write_chunk(const Chunk& chunk);
  void stop(bool write_queued);

  Write write_;
  Flush flush_;
  Chunk filling_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Chunk> full_;      ///< handed over, not yet written (guarded by mutex_)
  std::vector<Chunk> spare_;    ///< written, their memory kept for reuse (guarded by mutex_)
  bool stopping_ = false;       ///< no more chunks will come (guarded by mutex_)
  bool discard_ = false;        ///< drop the queued chunks (guarded by mutex_)
  std::exception_ptr failure_;  ///< the writer's first failure (guarded by mutex_)
  std::thread writer_;          ///< last: started when everything above exists
};

}  // namespace hdae::detail
