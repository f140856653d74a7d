# Every dependency comes from a Debian package (see scripts/install-deps.sh).
find_package(SUNDIALS 6.4 REQUIRED COMPONENTS ida cvode arkode sunlinsolklu sunlinsoldense
                                           sunnonlinsolfixedpoint sunmatrixsparse
                                           sunmatrixdense nvecserial nvecopenmp)
include(${CMAKE_CURRENT_LIST_DIR}/HdaeOpenMP.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/HdaeSuiteSparseQR.cmake)
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

# The Python package (Debian python3-dev, pybind11-dev, python3-pybind11). Debian's own
# interpreter is preferred: one earlier on PATH (pyenv, conda) lacks Debian's numpy, pandas
# and dask, which the package and its tests use. -DPython_EXECUTABLE=... chooses another.
if(HDAE_BUILD_PYTHON)
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Interpreter of the Python package")
  endif()
  set(PYBIND11_FINDPYTHON ON)
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
  find_package(pybind11 2.6 CONFIG)
  if(NOT pybind11_FOUND OR NOT Python_FOUND)
    message(WARNING "HDAE_BUILD_PYTHON is on but pybind11 or the Python headers are missing "
                    "(Debian: pybind11-dev python3-dev); the Python package is not built")
  endif()
endif()
