# Registers one ctest per example of the registry when ctest reads the test list (a
# TEST_INCLUDE_FILES script, set up in tests/CMakeLists.txt with the variables below): runs
# `hdae-example --list` and, for each line "<name> [arguments]", a test that runs
# hdae-<name> <work dir>/result.csv [arguments] and compares the CSV with
# references/<name>.csv through hdae-compare (tests/compare/run_example.cmake).
#   CMAKE_PROGRAM     cmake (ctest does not define CMAKE_COMMAND for this script)
#   EXAMPLE_LAUNCHER  hdae-example, beside the links hdae-<name>
#   COMPARE           hdae-compare
#   RUN_EXAMPLE_SCRIPT, REFERENCE_DIR, WORK_DIR
# Before hdae-example is built, one failing test says so instead.
if(NOT EXISTS "${EXAMPLE_LAUNCHER}")
  add_test("the example programs are built (hdae-example is missing)" "${CMAKE_PROGRAM}" -E false)
  return()
endif()
execute_process(COMMAND "${EXAMPLE_LAUNCHER}" --list RESULT_VARIABLE rc OUTPUT_VARIABLE listing
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  add_test("hdae-example --list names the examples (it exited with ${rc})" "${CMAKE_PROGRAM}"
           -E false)
  return()
endif()

get_filename_component(program_dir "${EXAMPLE_LAUNCHER}" DIRECTORY)
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  separate_arguments(words UNIX_COMMAND "${line}")
  if(NOT words)
    continue()
  endif()
  list(POP_FRONT words name)
  string(REPLACE "_" "-" program "hdae-${name}")
  if(words)
    list(JOIN words " " shown)
    set(settings "with arguments ${shown}")
  else()
    set(settings "at its default settings")
  endif()
  set(test_name "example ${name} ${settings} agrees with references/${name}.csv (hdae-compare)")
  add_test("${test_name}" "${CMAKE_PROGRAM}" "-DEXAMPLE=${program_dir}/${program}"
           "-DEXAMPLE_ARGS=${words}" "-DCOMPARE=${COMPARE}"
           "-DREFERENCE=${REFERENCE_DIR}/${name}.csv" "-DWORK_DIR=${WORK_DIR}/${name}"
           -P "${RUN_EXAMPLE_SCRIPT}")
  set_tests_properties("${test_name}" PROPERTIES TIMEOUT 300)
endforeach()
