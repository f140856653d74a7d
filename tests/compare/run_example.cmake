# Runs one example program into a fresh directory and checks what it did; run with cmake -P
# from ctest (tests/CMakeLists.txt registers one test per example).
#   -DEXAMPLE=<hdae-name program>  -DWORK_DIR=<scratch directory, emptied first>
#   -DEXAMPLE_ARGS=<;-list after the output path>            optional
#   -DCOMPARE=<hdae-compare> -DREFERENCE=<references/name.csv> optional: hdae-compare must exit 0
#   -DEXPECT_OUTPUT=<regex>                                   optional: the program's stdout
# The example must exit 0 (it ran to its stop time). The scratch directory is removed when the
# test passes and kept for inspection when it fails.
foreach(var EXAMPLE WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_example.cmake: -D${var}=... is required")
  endif()
endforeach()
get_filename_component(program ${EXAMPLE} NAME)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(result ${WORK_DIR}/result.csv)

execute_process(COMMAND ${EXAMPLE} ${result} ${EXAMPLE_ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${program} ${result} ${EXAMPLE_ARGS}\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${program} exited with ${rc} (0: ran to its stop time); files in ${WORK_DIR}")
endif()
if(DEFINED EXPECT_OUTPUT AND NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "${program}: the output does not match \"${EXPECT_OUTPUT}\"")
endif()

if(DEFINED REFERENCE)
  if(NOT EXISTS ${REFERENCE})
    message(FATAL_ERROR "${REFERENCE} does not exist: every example needs a reference "
                        "(hdae-make-references <dir> <name>, then check it in tests/compare/"
                        "test_references.cpp)")
  endif()
  execute_process(COMMAND ${COMPARE} ${REFERENCE} ${result}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "hdae-compare ${REFERENCE} ${result}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hdae-compare exited with ${rc} (0: agree, 1: differ, 2: error); "
                        "files in ${WORK_DIR}")
  endif()
endif()
file(REMOVE_RECURSE ${WORK_DIR})
