# Compiles through Debian's ccache when it is installed (HDAE_CCACHE=OFF, or a launcher given on
# the command line, turns it off). The cache is ccache's own (~/.cache/ccache, bounded by its
# max_size, 5 GB unless configured otherwise) and keyed by compiler, flags and preprocessed
# source. Paths under the source tree are hashed relative to it, so a fresh checkout elsewhere
# (a CI clone) and every build directory (dev, asan, release) reuse what another compiled.
option(HDAE_CCACHE "Compile through ccache when it is installed" ON)
if(HDAE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(HDAE_CCACHE_PROGRAM ccache)
  if(HDAE_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
        ${HDAE_CCACHE_PROGRAM})
  endif()
endif()
