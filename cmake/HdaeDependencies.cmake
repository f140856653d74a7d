# Every dependency comes from a Debian package (see scripts/install-deps.sh).
find_package(SUNDIALS 6.4 REQUIRED COMPONENTS ida sunlinsolklu sunlinsoldense sunmatrixsparse
                                           sunmatrixdense nvecserial)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt REQUIRED)
# Command lines of the example programs (header-only, Debian libcli11-dev).
find_package(CLI11 CONFIG REQUIRED)
