// The data of Andrews' squeezing mechanism (andrews_squeezer.hpp) as the test set gives them:
// the bodies' masses, inertias and lengths, the driving torque and the spring, the consistent
// start and the reference solution.
#pragma once

#include <array>
#include <cstddef>

namespace hdae::models {

/// The test set's data (Hairer and Wanner's names); lengths in m, masses in kg, moments of
/// inertia in kg m^2 about each body's centre of mass.
struct AndrewsSqueezerParameters {
  /// m1..m7, kg: the bodies' masses (1 crank, 2 rod, 3 about B, 4, 5 about A, 6, 7 about A)
  std::array<double, 7> mass_kg = {0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498};
  /// I1..I7, kg m^2: the bodies' moments of inertia about their centres of mass
  std::array<double, 7> inertia_kgm2 = {2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7,
                                        1.169e-5, 5.667e-7, 1.912e-5};
  double xa_m = -0.06934;                ///< fixed point A (pivot of bodies 5 and 7), x
  double ya_m = -0.00227;                ///< fixed point A, y
  double xb_m = -0.03635;                ///< fixed point B (pivot of body 3), x
  double yb_m = 0.03273;                 ///< fixed point B, y
  double xc_m = 0.014;                   ///< fixed end C of the spring, x
  double yc_m = 0.072;                   ///< fixed end C of the spring, y
  double rr_m = 7e-3;                    ///< crank: from its pivot O to the rod's joint
  double ra_m = 92e-5;                   ///< crank: from O to its centre of mass
  double d_m = 28e-3;                    ///< rod: from the crank's joint to its end F
  double da_m = 115e-4;                  ///< rod: from the crank's joint to its centre of mass
  double ss_m = 35e-3;                   ///< body 3: from B to F
  double sa_m = 1874e-5;                 ///< body 3: its centre of mass from B, one coordinate
  double sb_m = 1043e-5;                 ///< body 3: its centre of mass from B, the other
  double sc_m = 18e-3;                   ///< body 3: spring end D from B, along B -> F
  double sd_m = 2e-2;                    ///< body 3: spring end D from B, across B -> F
  double e_m = 2e-2;                     ///< body 4: from F to its joint with body 5
  double ea_m = 1421e-5;                 ///< body 4: from F to its centre of mass
  double zt_m = 4e-2;                    ///< body 5: from A to its joint with body 4
  double ta_m = 2308e-5;                 ///< body 5: its centre of mass from A, one coordinate
  double tb_m = 916e-5;                  ///< body 5: its centre of mass from A, the other
  double zf_m = 2e-2;                    ///< body 6: from F to its joint with body 7
  double fa_m = 1421e-5;                 ///< body 6: from F to its centre of mass
  double u_m = 4e-2;                     ///< body 7: from A to its joint with body 6
  double ua_m = 1228e-5;                 ///< body 7: its centre of mass from A, one coordinate
  double ub_m = 449e-5;                  ///< body 7: its centre of mass from A, the other
  double torque_nm = 0.033;              ///< mom: driving torque on the crank, N m
  double spring_stiffness_npm = 4530.0;  ///< c0, N/m
  double spring_length_m = 0.07785;      ///< l0: the spring's unstretched length
  /// Added to Theta's start value (index-3 form only): a start off the constraints, rad.
  double theta_offset_rad = 0.0;
};

namespace andrews_squeezer {

/// The bodies (one angle each) and the loop rows (one joint force each).
inline constexpr std::size_t kBodies = 7;
inline constexpr std::size_t kLoopRows = 6;

/// The test set's consistent start y(0): the angles q0, rad (at rest, w = 0).
inline constexpr std::array<double, 7> kStartAngles = {
    -0.0617138900142764496358948458001, 0.0,
    0.455279819163070380255912382449,   0.222668390165885884674473185609,
    0.487364979543842550225598953530,   -0.222668390165885884674473185609,
    1.23054744454982119249735015568};
/// The test set's consistent start: angular accelerations der(w)(0), rad/s^2.
inline constexpr std::array<double, 7> kStartAccelerations = {
    14222.4439199541138705911625887, -10666.8329399655854029433719415, 0.0, 0.0, 0.0, 0.0, 0.0};
/// The test set's consistent start: joint forces lambda(0), N.
inline constexpr std::array<double, 6> kStartJointForces = {
    98.5668703962410896057654982170, -6.12268834425566265503114393122, 0.0, 0.0, 0.0, 0.0};

/// The test set's reference solution at t = 0.03 s, the seven angles in the order of q, rad:
/// y(1..7) of problem "andrews" (Mazzia and Magherini, "Test Set for IVP Solvers": PSIDE at
/// rtol = atol = 1e-14), as the R package deTestSet carries the test set's andrews.f (routine
/// andsoln).
inline constexpr std::array<double, 7> kReferenceAngles = {
    0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1, -0.5347301163226948,
    0.5244099658805304,    0.5347301163226948,     0.1048080741042263e+1};
/// The names of the seven angles, in the order of q.
inline constexpr std::array<const char*, 7> kAngleNames = {"beta",  "Theta", "gamma",  "Phi",
                                                           "delta", "Omega", "epsilon"};

}  // namespace andrews_squeezer

}  // namespace hdae::models
