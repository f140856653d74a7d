# Compiles through Debian's ccache when it is installed (HDAE_CCACHE=OFF, or a launcher given on
# the command line, turns it off). The cache is ccache's own (~/.cache/ccache), keyed by
# compiler, flags and preprocessed source, and bounded by HDAE_CCACHE_MAX_SIZE: the developer,
# sanitizer, benchmark and coverage builds together hold more than ccache's default 5 GB, and
# with less each build would evict what the next one needs.
# Paths under the source tree are hashed relative to it, so a fresh checkout elsewhere (a CI
# clone) and every build directory (dev, asan, release) reuse what another compiled. The
# coverage build turns that off (HDAE_CCACHE_RELATIVE_PATHS=OFF): gcc records the source paths
# it is given in its .gcno files, and gcovr resolves absolute ones only; scripts/coverage.sh
# builds it through a fixed path instead.
option(HDAE_CCACHE "Compile through ccache when it is installed" ON)
option(HDAE_CCACHE_RELATIVE_PATHS "Hash the paths under the source tree relative to it" ON)
set(HDAE_CCACHE_MAX_SIZE "12G" CACHE STRING "Bound of the compiler cache (ccache's max_size)")
if(HDAE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(HDAE_CCACHE_PROGRAM ccache)
  if(HDAE_CCACHE_PROGRAM)
    set(hdae_ccache_env CCACHE_MAXSIZE=${HDAE_CCACHE_MAX_SIZE})
    if(HDAE_CCACHE_RELATIVE_PATHS)
      list(APPEND hdae_ccache_env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1)
    endif()
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env ${hdae_ccache_env}
                                    ${HDAE_CCACHE_PROGRAM})
  endif()
endif()
