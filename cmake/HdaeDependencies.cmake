# Every dependency comes from a Debian package (see scripts/install-deps.sh).
find_package(SUNDIALS 6.4 REQUIRED COMPONENTS ida sunlinsolklu sunlinsoldense sunmatrixsparse
                                           sunmatrixdense nvecserial)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt REQUIRED)
# Header-only (Debian libcli11-dev): the command lines of the example programs (examples/)
# and of hdae-compare (tools/compare/); not used by the libraries.
find_package(CLI11 CONFIG REQUIRED)
# HDF5 result files (Debian libhdf5-dev, C API only; engine/src/results/hdf5_*.cpp), the serial
# library by its pkg-config name: plain "hdf5" is the MPI build where libhdf5-mpi-dev is also
# installed, and CMake's FindHDF5 would need the C language enabled here and in every consumer.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HDAE_HDF5 REQUIRED IMPORTED_TARGET GLOBAL hdf5-serial)
