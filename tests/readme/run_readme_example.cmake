# ctest step of readme_example.cmake: builds the program extracted from a page (so the
# test also works after building only hdae_tests), runs it in a scratch directory and
# requires exit code 0. Run with cmake -P.
if(DEFINED ERROR)
  message(FATAL_ERROR "documentation example: ${ERROR}")
endif()
foreach(var BUILD_DIR TARGET EXECUTABLE WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_readme_example.cmake: -D${var}=... is required")
  endif()
endforeach()

set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET} ${config_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "documentation example: the code of ${TARGET}'s section does not compile "
                      "(${rc})\n${out}\n${err}")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${EXECUTABLE} WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "documentation example output:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "documentation example: the program exited with ${rc}, expected 0")
endif()
