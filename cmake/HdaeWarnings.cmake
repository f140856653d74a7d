# hdae_set_warnings(<target>): the project's warning set, as errors when
# HDAE_WARNINGS_AS_ERRORS is on (the developer preset turns it on).
function(hdae_set_warnings target)
  # -Wno-missing-field-initializers: g++ 12 warns about designated initializers that omit
  # members with default member initializers (GCC bug 96868), which is how models declare
  # variables ({.name = "phi", .start = 1.0}).
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-missing-field-initializers)
  if(HDAE_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
