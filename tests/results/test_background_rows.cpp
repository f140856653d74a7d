// The rows a streamed CSV or HDF5 file hands to its writer thread (results/background_rows.hpp):
// every row arrives once, in order, with its values; a flush hands a partial chunk over; the
// writer's failure comes back to the caller.
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/background_rows.hpp"

namespace hdae::detail {
namespace {

struct Row {
  double t = 0.0;
  std::vector<double> values;
};

}  // namespace

TEST_CASE("rows reach the writer thread in order with their values, across chunks and widths") {
  // 300 rows of 1000 values fill more than two chunks of 2^17 values, so the run's side waits
  // for the writer and reuses its chunks; a row of another width starts a chunk of its own.
  std::vector<Row> written;
  BackgroundRows rows([&written](double t, std::span<const double> values) {
    written.push_back({t, {values.begin(), values.end()}});
  });
  std::vector<double> values(1000);
  for (int k = 0; k < 300; ++k) {
    for (std::size_t j = 0; j < values.size(); ++j) values[j] = k * 1000.0 + static_cast<double>(j);
    rows.push(0.1 * k, values);
  }
  const std::vector<double> narrow = {-1.0, -2.0};
  rows.push(30.0, narrow);
  rows.finish();
  REQUIRE(written.size() == 301);
  for (std::size_t k = 0; k < 300; ++k) {
    CHECK(written[k].t == 0.1 * static_cast<double>(k));
    REQUIRE(written[k].values.size() == 1000);
    CHECK(written[k].values.front() == static_cast<double>(k) * 1000.0);
    CHECK(written[k].values.back() == static_cast<double>(k) * 1000.0 + 999.0);
  }
  CHECK(written.back().t == 30.0);
  CHECK(written.back().values == narrow);
}

TEST_CASE("the writer thread's failure comes back at a later row or at finish") {
  const auto failing = [](double t, std::span<const double>) {
    if (t >= 5.0) throw std::runtime_error("disk full at t = 5");
  };
  SUBCASE("at finish, when the failing row was the last") {
    BackgroundRows rows(failing);
    const std::vector<double> values = {1.0};
    for (int k = 0; k <= 5; ++k) rows.push(k, values);
    CHECK_THROWS_WITH_AS(rows.finish(), "disk full at t = 5", std::runtime_error);
  }
  SUBCASE("at a later row, once the writer has met it") {
    // Rows of 2^17 values are a chunk each: the third push waits until the writer has taken
    // the first, and the writer fails on the second (t = 5); a push after that rethrows.
    BackgroundRows rows(failing);
    const std::vector<double> wide(std::size_t{1} << 17, 1.0);
    bool thrown = false;
    for (int k = 4; k < 40 && !thrown; ++k) {
      try {
        rows.push(k, wide);
      } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "disk full at t = 5");
        thrown = true;
      }
    }
    CHECK(thrown);
  }
}

TEST_CASE("a flush hands a partial chunk to the writer, which writes its rows, then flushes") {
  // Three narrow rows are far from a chunk of 2^17 values: only flush() sends them.
  std::mutex mutex;
  std::condition_variable flushed;
  std::vector<std::size_t> rows_at_flush;
  std::size_t rows_written = 0;
  BackgroundRows rows(
      [&](double, std::span<const double>) {
        const std::lock_guard lock(mutex);
        ++rows_written;
      },
      [&] {
        const std::lock_guard lock(mutex);
        rows_at_flush.push_back(rows_written);
        flushed.notify_all();
      });
  const std::vector<double> values = {1.0, 2.0};
  for (int k = 0; k < 3; ++k) rows.push(k, values);
  rows.flush();
  {
    std::unique_lock lock(mutex);
    // Generous: the writer has three rows to pass on; only a stuck writer takes this long.
    CHECK(flushed.wait_for(lock, std::chrono::seconds(30), [&] { return !rows_at_flush.empty(); }));
  }
  rows.flush();  // nothing new: the flush still comes, after the same three rows
  rows.push(3.0, values);
  rows.finish();  // the fourth row is written, with no flush after it
  CHECK(rows_written == 4);
  CHECK(rows_at_flush == std::vector<std::size_t>{3, 3});
}

TEST_CASE("a writer thread left without finish ends with its owner and writes nothing more") {
  int calls = 0;
  {
    BackgroundRows rows([&calls](double, std::span<const double>) { ++calls; });
    const std::vector<double> values = {1.0, 2.0};
    rows.push(0.0, values);  // still in the chunk being filled: never handed over
  }
  CHECK(calls == 0);
}

}  // namespace hdae::detail
