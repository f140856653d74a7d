// The vectors of engine/src/sundials/handles.hpp: make_vector gives SUNDIALS' serial vector for
// threads <= 1 and its OpenMP vector with that many threads otherwise, and both views (through
// the vector's operations and inline by kind) read the same array.
#include <numeric>

#include <doctest/doctest.h>

#include "sundials/handles.hpp"

using namespace hdae::sundials;

TEST_CASE("make_vector: serial for threads 0 and 1, OpenMP with n threads for n > 1") {
  const Context context = make_context();
  for (const int threads : {0, 1}) {
    const Vector v = make_vector(5, context.get(), threads);
    CHECK(N_VGetVectorID(v.get()) == SUNDIALS_NVEC_SERIAL);
    CHECK(vector_kind(threads) == VectorKind::kSerial);
  }
  for (const int threads : {2, 3}) {
    const Vector v = make_vector(5, context.get(), threads);
    REQUIRE(N_VGetVectorID(v.get()) == SUNDIALS_NVEC_OPENMP);
    CHECK(NV_NUM_THREADS_OMP(v.get()) == threads);
    CHECK(vector_kind(threads) == VectorKind::kOpenMP);
    // A clone (IDA makes all its work vectors so) keeps the kind and the thread count.
    const Vector clone(N_VClone(v.get()));
    CHECK(N_VGetVectorID(clone.get()) == SUNDIALS_NVEC_OPENMP);
    CHECK(NV_NUM_THREADS_OMP(clone.get()) == threads);
  }
}

TEST_CASE("both views of a serial and of an OpenMP vector read the same zeros and values") {
  const Context context = make_context();
  for (const int threads : {1, 2}) {
    CAPTURE(threads);
    const Vector v = make_vector(1000, context.get(), threads);
    const auto all = view(v.get());
    REQUIRE(all.size() == 1000);
    CHECK(std::accumulate(all.begin(), all.end(), 0.0) == 0.0);  // made as zeros
    std::iota(all.begin(), all.end(), 1.0);                      // 1, 2, ..., 1000
    const auto inline_view = view(v.get(), 1000, vector_kind(threads));
    CHECK(inline_view.data() == all.data());
    // The vector's own reduction over what the view wrote: 1 + ... + 1000 = 1000 * 1001 / 2,
    // exact in doubles whatever the order of the partial sums.
    const Vector ones = make_vector(1000, context.get(), threads);
    N_VConst(1.0, ones.get());
    CHECK(N_VDotProd(v.get(), ones.get()) == 500500.0);
  }
}
