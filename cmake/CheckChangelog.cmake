# ctest: CHANGELOG.md's newest version is the project's version, so that a version moves with
# what changed. Usage: cmake -DVERSION=x.y.z -DCHANGELOG=path -P CheckChangelog.cmake
file(STRINGS "${CHANGELOG}" headings REGEX "^## \\[")
if(NOT headings)
  message(FATAL_ERROR "${CHANGELOG}: no version heading ('## [x.y.z] - date')")
endif()
list(GET headings 0 newest)
string(REGEX MATCH "^## \\[([^]]*)\\]" match "${newest}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "${CHANGELOG}: the newest entry is '${CMAKE_MATCH_1}', the project's version "
                      "(CMakeLists.txt) is '${VERSION}': name the version in both")
endif()
