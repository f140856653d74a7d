# Makes the programs hdae-<name>, one per registry entry: symbolic links to hdae-example in
# its directory, named from `hdae-example --list` (so no list of examples is written in any
# CMake file). Links to hdae-example whose example left the registry are removed. Run with
# cmake -P after each build of hdae-example and at install:
#   -DEXAMPLE_PROGRAM=<hdae-example to ask for the list>  -DLINK_DIR=<directory of the links>
foreach(var EXAMPLE_PROGRAM LINK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "link_programs.cmake: -D${var}=... is required")
  endif()
endforeach()
cmake_policy(VERSION 3.25)
set(target hdae-example)

execute_process(COMMAND ${EXAMPLE_PROGRAM} --list RESULT_VARIABLE rc OUTPUT_VARIABLE listing
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXAMPLE_PROGRAM} --list exited with ${rc}: ${err}")
endif()

string(REPLACE "\n" ";" lines "${listing}")
set(wanted "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([a-z0-9_]+)")
    string(REPLACE "_" "-" program "hdae-${CMAKE_MATCH_1}")
    list(APPEND wanted ${program})
  endif()
endforeach()

file(GLOB present LIST_DIRECTORIES false RELATIVE ${LINK_DIR} ${LINK_DIR}/hdae-*)
foreach(program IN LISTS present)
  if(IS_SYMLINK ${LINK_DIR}/${program} AND NOT program IN_LIST wanted)
    file(READ_SYMLINK ${LINK_DIR}/${program} points_to)
    if(points_to STREQUAL target)
      file(REMOVE ${LINK_DIR}/${program})
    endif()
  endif()
endforeach()
foreach(program IN LISTS wanted)
  file(CREATE_LINK ${target} ${LINK_DIR}/${program} SYMBOLIC)
endforeach()
