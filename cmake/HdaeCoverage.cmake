# Line coverage (the coverage preset, scripts/coverage.sh). The libraries and programs are
# compiled with gcc's --coverage; the tests, benchmarks and fuzzers are not, since the report
# leaves them out: their objects are then those of the developer build, which ccache already
# holds. -fprofile-abs-path writes the sources' absolute paths into the .gcno files, so gcovr
# finds them although ccache compiles with paths relative to the source tree.
#
#   hdae_coverage_begin()   before the subdirectories to measure
#   hdae_coverage_end()     before the ones that are not measured
option(HDAE_COVERAGE "Instrument the libraries and programs for line coverage (gcc)" OFF)
set(HDAE_COVERAGE_FLAGS --coverage -fprofile-abs-path)

if(HDAE_COVERAGE)
  # Every program and shared library links gcov's runtime, instrumented or not.
  add_link_options(--coverage)
endif()

# Directory options pass to a subdirectory when it is added, so what is set here reaches the
# subdirectories added until hdae_coverage_end().
macro(hdae_coverage_begin)
  if(HDAE_COVERAGE)
    add_compile_options(${HDAE_COVERAGE_FLAGS})
  endif()
endmacro()

macro(hdae_coverage_end)
  if(HDAE_COVERAGE)
    get_directory_property(hdae_coverage_options COMPILE_OPTIONS)
    list(REMOVE_ITEM hdae_coverage_options ${HDAE_COVERAGE_FLAGS})
    set_directory_properties(PROPERTIES COMPILE_OPTIONS "${hdae_coverage_options}")
  endif()
endmacro()
