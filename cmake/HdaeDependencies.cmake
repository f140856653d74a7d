# Every dependency comes from a Debian package (see scripts/install-deps.sh).
find_package(SUNDIALS 6.4 REQUIRED COMPONENTS ida sunlinsolklu sunlinsoldense sunmatrixsparse
                                           sunmatrixdense nvecserial)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt REQUIRED)
# Header-only (Debian libcli11-dev): the command lines of the example programs (examples/)
# and of hdae-compare (tools/compare/); not used by the libraries.
find_package(CLI11 CONFIG REQUIRED)
