# The C++ examples of README.md and of the user guide (docs/models.md) must compile and run: at
# configure time the first ```cpp block of a section is extracted into the build tree and
# built against hdae::engine, and a ctest test (run_readme_example.cmake) builds that target and
# runs the program, which must exit with 0. When the block cannot be found, configuring warns
# and the test fails with the reason, so an edit of the page never silently drops the check.
# The pages are configure dependencies: editing one re-extracts its blocks.

# hdae_extract_cpp_block(<markdown file> <section heading> <code var> <error var>): the text
# of the first ```cpp block inside the section, or an error message naming what is missing.
function(hdae_extract_cpp_block file heading code_var error_var)
  set(${code_var} "" PARENT_SCOPE)
  set(${error_var} "" PARENT_SCOPE)
  if(NOT EXISTS "${file}")
    set(${error_var} "${file} does not exist" PARENT_SCOPE)
    return()
  endif()
  file(READ "${file}" text)
  string(FIND "${text}" "\n${heading}\n" start)
  if(start EQUAL -1)
    set(${error_var} "${file} has no section '${heading}'" PARENT_SCOPE)
    return()
  endif()
  string(LENGTH "\n${heading}\n" heading_length)
  math(EXPR start "${start} + ${heading_length}")
  string(SUBSTRING "${text}" ${start} -1 section)
  string(FIND "${section}" "\n## " end)  # the next section of the same level
  if(NOT end EQUAL -1)
    string(SUBSTRING "${section}" 0 ${end} section)
  endif()
  set(fence_open "```cpp\n")
  string(FIND "${section}" "${fence_open}" open)
  if(open EQUAL -1)
    set(${error_var} "${file}: section '${heading}' has no \\`\\`\\`cpp block" PARENT_SCOPE)
    return()
  endif()
  math(EXPR open "${open} + 7")  # length of "```cpp\n"
  string(SUBSTRING "${section}" ${open} -1 block)
  string(FIND "${block}" "\n```" close)
  if(close EQUAL -1)
    set(${error_var} "${file}: the \\`\\`\\`cpp block of section '${heading}' is not closed"
        PARENT_SCOPE)
    return()
  endif()
  math(EXPR close "${close} + 1")  # keep the last line's newline
  string(SUBSTRING "${block}" 0 ${close} block)
  if(NOT block MATCHES "int main\\(")
    set(${error_var} "${file}: the \\`\\`\\`cpp block of section '${heading}' has no main()"
        PARENT_SCOPE)
    return()
  endif()
  set(${code_var} "${block}" PARENT_SCOPE)
endfunction()

# hdae_doc_example_test(<page> <section heading> <target> <test name>): the first ```cpp block
# of the section of the page (relative to the source root) as a program, and a test that builds
# and runs it.
function(hdae_doc_example_test page heading target test_name)
  set(file "${PROJECT_SOURCE_DIR}/${page}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  hdae_extract_cpp_block("${file}" "${heading}" readme_code readme_error)
  if(readme_error)
    message(WARNING "example test of ${page}: ${readme_error}")
    add_test(NAME "${test_name}"
             COMMAND ${CMAKE_COMMAND} "-DERROR=${readme_error}"
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/readme/run_readme_example.cmake)
  else()
    # Written through a temporary file so an unchanged block does not trigger a rebuild.
    set(readme_source "${CMAKE_CURRENT_BINARY_DIR}/readme/${target}.cpp")
    file(WRITE "${readme_source}.new"
         "// Extracted from ${page}, section \"${heading}\", at configure time.\n"
         "${readme_code}")
    file(COPY_FILE "${readme_source}.new" "${readme_source}" ONLY_IF_DIFFERENT)
    file(REMOVE "${readme_source}.new")
    # Not part of "all": the test builds it, so a broken page fails that test, not the build.
    add_executable(${target} EXCLUDE_FROM_ALL "${readme_source}")
    target_link_libraries(${target} PRIVATE hdae::engine)
    hdae_set_warnings(${target})
    add_test(NAME "${test_name}"
             COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DCONFIG=$<CONFIG>
                     -DTARGET=${target} -DEXECUTABLE=$<TARGET_FILE:${target}>
                     -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/readme/run_${target}
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/readme/run_readme_example.cmake)
  endif()
  set_tests_properties("${test_name}" PROPERTIES TIMEOUT 600)
endfunction()

hdae_doc_example_test(README.md "## A first model in C++" hdae_readme_ball
                      "the README's first model compiles against hdae::engine and runs")
hdae_doc_example_test(docs/models.md "## Writing a model" hdae_readme_example
                      "the guide's model example compiles against hdae::engine and runs")
hdae_doc_example_test(docs/models.md "### Many like parts" hdae_readme_families
                      "the guide's example of indexed families compiles and runs")
hdae_doc_example_test(docs/models.md "## Running step by step" hdae_readme_stepping
                      "the guide's step-by-step example with a row sink compiles and runs")
