// hdae's compiled vector operations (sundials/compiled_vector_ops.hpp) against SUNDIALS' own
// serial ones: the same bits for every operation, every special case of N_VLinearSum, and the
// aliasing the integrators use (z = y, z = x, z among the combined vectors). The expected
// values are SUNDIALS' own results on the same inputs.
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "sundials/compiled_vector_ops.hpp"
#include "sundials/handles.hpp"

using namespace hdae::sundials;

namespace {

constexpr sunindextype kLength = 37;  // odd: any unrolled or vectorised loop has a remainder

/// The same inputs in two vectors each: one with SUNDIALS' operations, one with hdae's.
class Pair {
 public:
  Pair(SUNContext ctx, std::mt19937& random) {
    theirs_ = N_VNew_Serial(kLength, ctx);
    ours_ = N_VNew_Serial(kLength, ctx);
    use_compiled_operations(ours_);
    std::uniform_real_distribution<double> value(-3.0, 3.0);
    for (sunindextype i = 0; i < kLength; ++i) {
      const double v = i % 9 == 4 ? 0.0 : value(random);
      NV_Ith_S(theirs_, i) = v;
      NV_Ith_S(ours_, i) = v;
    }
  }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  ~Pair() {
    N_VDestroy(theirs_);
    N_VDestroy(ours_);
  }
  [[nodiscard]] N_Vector theirs() const { return theirs_; }
  [[nodiscard]] N_Vector ours() const { return ours_; }
  [[nodiscard]] bool same_bits() const {
    return std::memcmp(NV_DATA_S(theirs_), NV_DATA_S(ours_), kLength * sizeof(double)) == 0;
  }

 private:
  N_Vector theirs_ = nullptr;
  N_Vector ours_ = nullptr;
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("compiled N_VLinearSum gives SUNDIALS' bits in every case and aliasing") {
  Context context = make_context();
  std::mt19937 random(7);
  std::vector<std::pair<double, double>> coefficients;
  for (const double a : {1.0, -1.0, 0.3, -2.5, 0.0}) {
    for (const double b : {1.0, -1.0, 0.3, -0.3, 2.5, 0.0}) coefficients.emplace_back(a, b);
  }
  for (const auto& [a, b] : coefficients) {
    for (int alias = 0; alias < 3; ++alias) {  // z apart, z = y, z = x
      CAPTURE(a);
      CAPTURE(b);
      CAPTURE(alias);
      Pair x(context.get(), random), y(context.get(), random), z(context.get(), random);
      const Pair& out = alias == 1 ? y : alias == 2 ? x : z;
      N_VLinearSum(a, x.theirs(), b, y.theirs(), out.theirs());
      N_VLinearSum(a, x.ours(), b, y.ours(), out.ours());
      CHECK(out.same_bits());
    }
  }
}

TEST_CASE("compiled element-wise operations and norms give SUNDIALS' bits") {
  Context context = make_context();
  std::mt19937 random(11);
  Pair x(context.get(), random), w(context.get(), random), id(context.get(), random);
  auto apply = [&](auto op) {
    Pair z(context.get(), random);
    op(x.theirs(), w.theirs(), z.theirs());
    op(x.ours(), w.ours(), z.ours());
    CHECK(z.same_bits());
  };
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VConst(1.25, z), (void)a; });
  apply([](N_Vector a, N_Vector b, N_Vector z) { N_VProd(a, b, z); });
  apply([](N_Vector a, N_Vector b, N_Vector z) { N_VDiv(a, b, z); });
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VScale(-0.7, a, z); });
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VScale(1.0, a, z); });
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VAbs(a, z); });
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VInv(a, z); });
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VAddConst(a, 0.5, z); });
  apply([](N_Vector a, N_Vector, N_Vector z) { N_VCompare(1.0, a, z); });
  CHECK(same_bits(N_VDotProd(x.theirs(), w.theirs()), N_VDotProd(x.ours(), w.ours())));
  CHECK(same_bits(N_VMaxNorm(x.theirs()), N_VMaxNorm(x.ours())));
  CHECK(same_bits(N_VWrmsNorm(x.theirs(), w.theirs()), N_VWrmsNorm(x.ours(), w.ours())));
  CHECK(same_bits(N_VWrmsNormMask(x.theirs(), w.theirs(), id.theirs()),
                  N_VWrmsNormMask(x.ours(), w.ours(), id.ours())));
  CHECK(same_bits(N_VWL2Norm(x.theirs(), w.theirs()), N_VWL2Norm(x.ours(), w.ours())));
  CHECK(same_bits(N_VL1Norm(x.theirs()), N_VL1Norm(x.ours())));
}

TEST_CASE("compiled linear combinations give the bits of SUNDIALS' fallback") {
  Context context = make_context();
  std::mt19937 random(13);
  double c[] = {0.5, 1.0, -1.0, 2.25, -0.125};
  for (int count = 1; count <= 5; ++count) {
    for (int alias = -1; alias < count; ++alias) {  // z apart, or z = X_alias
      CAPTURE(count);
      CAPTURE(alias);
      std::vector<std::unique_ptr<Pair>> x;
      for (int k = 0; k < count; ++k) x.push_back(std::make_unique<Pair>(context.get(), random));
      Pair apart(context.get(), random);
      const Pair& z = alias < 0 ? apart : *x[static_cast<std::size_t>(alias)];
      std::vector<N_Vector> theirs, ours;
      for (const auto& p : x) {
        theirs.push_back(p->theirs());
        ours.push_back(p->ours());
      }
      REQUIRE(N_VLinearCombination(count, c, theirs.data(), z.theirs()) == 0);
      REQUIRE(N_VLinearCombination(count, c, ours.data(), z.ours()) == 0);
      CHECK(z.same_bits());
    }
  }
  // Z_k = a_k x + Y_k, with Z = Y as the integrators call it and apart.
  for (const bool in_place : {true, false}) {
    Pair x(context.get(), random);
    std::vector<std::unique_ptr<Pair>> y, z;
    std::vector<N_Vector> yt, yo, zt, zo;
    for (int k = 0; k < 5; ++k) {
      y.push_back(std::make_unique<Pair>(context.get(), random));
      z.push_back(std::make_unique<Pair>(context.get(), random));
      const Pair& out = in_place ? *y.back() : *z.back();
      yt.push_back(y.back()->theirs());
      yo.push_back(y.back()->ours());
      zt.push_back(out.theirs());
      zo.push_back(out.ours());
    }
    REQUIRE(N_VScaleAddMulti(5, c, x.theirs(), yt.data(), zt.data()) == 0);
    REQUIRE(N_VScaleAddMulti(5, c, x.ours(), yo.data(), zo.data()) == 0);
    for (int k = 0; k < 5; ++k) CHECK((in_place ? *y[k] : *z[k]).same_bits());
  }
}
