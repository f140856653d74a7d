# hdae_add_fmu(<target> SOURCES <file>... MODEL_FACTORY <function>
#              [HEADER <file>] [DESCRIPTION <text>] [STOP_TIME <s>] [TOLERANCE <rel_tol>]
#              [OUTPUT <file>.fmu])
#
# Builds an FMI 3.0 Co-Simulation FMU of a user's own hdae model: SOURCES hold the model and a
# factory `std::unique_ptr<hdae::SimulationModel> <function>()` (declared at global scope, or
# in HEADER, which may put it in a namespace: then give the qualified name). The runtime of
# fmu_export/ is linked with them into <target>_runtime.so, a packer program made of the same
# sources writes <target>.fmu (OUTPUT: another path) with the model's description, the shared
# libraries the runtime needs and a documentation page. The target <target> builds the FMU;
# its DefaultExperiment runs from 0 to STOP_TIME (default 1 s) at TOLERANCE (default 1e-6).
# Available in hdae's own build tree (HDAE_BUILD_FMI on), where fmu_export/ defines the runtime,
# and to a project that finds an installed hdae with find_package(hdae), whose package config
# includes this file beside the generated source's template and the packer.

# Where this file lies, and with it the template and the packer's source; kept at include time,
# since inside a function CMAKE_CURRENT_LIST_DIR is the caller's.
set(HDAE_ADD_FMU_DIR "${CMAKE_CURRENT_LIST_DIR}")

# hdae_fmu_runtime_link_options(<target>): how an FMU's runtime is linked. --exclude-libs: the
# static libraries' symbols (hdae's, compiled with default visibility) stay hidden too, only
# the fmi3* functions are exported; --as-needed: no shared library the runtime does not call is
# shipped; --strip-debug: the FMU is a thing to hand on, and hdae's debug information (the
# models' templates instantiated with jets) would make the binary 180 MB instead of some 15.
# Its RPATH is $ORIGIN as DT_RPATH (not RUNPATH), so the libraries shipped beside it in the FMU
# also serve each other's dependencies.
function(hdae_fmu_runtime_link_options target)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH "\$ORIGIN")
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--as-needed
                                        -Wl,--disable-new-dtags -Wl,--strip-debug)
endfunction()

function(hdae_add_fmu target)
  cmake_parse_arguments(PARSE_ARGV 1 FMU "" "MODEL_FACTORY;HEADER;DESCRIPTION;STOP_TIME;TOLERANCE;OUTPUT"
                        "SOURCES")
  if(NOT FMU_SOURCES OR NOT FMU_MODEL_FACTORY)
    message(FATAL_ERROR "hdae_add_fmu(${target}): SOURCES and MODEL_FACTORY are required")
  endif()
  if(NOT TARGET hdae::fmu_runtime_core)
    message(FATAL_ERROR "hdae_add_fmu(${target}): the FMU runtime is built with HDAE_BUILD_FMI")
  endif()
  foreach(setting DESCRIPTION STOP_TIME TOLERANCE OUTPUT)
    if(NOT DEFINED FMU_${setting})
      set(FMU_${setting} "")
    endif()
  endforeach()
  if(FMU_STOP_TIME STREQUAL "")
    set(FMU_STOP_TIME 1.0)
  endif()
  if(FMU_TOLERANCE STREQUAL "")
    set(FMU_TOLERANCE 1e-6)
  endif()
  if(FMU_OUTPUT STREQUAL "")
    set(FMU_OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${target}.fmu)
  endif()
  if(FMU_HEADER)
    set(FMU_DECLARATION "#include \"${FMU_HEADER}\"")
  else()
    set(FMU_DECLARATION "std::unique_ptr<hdae::SimulationModel> ${FMU_MODEL_FACTORY}();")
  endif()
  set(source ${CMAKE_CURRENT_BINARY_DIR}/${target}_model_source.cpp)
  configure_file(${HDAE_ADD_FMU_DIR}/hdae_fmu_model_source.cpp.in ${source} @ONLY)

  # The runtime: the core, the user's model and where it comes from.
  add_library(${target}_runtime SHARED ${FMU_SOURCES} ${source})
  set_target_properties(${target}_runtime PROPERTIES PREFIX "" OUTPUT_NAME ${target}_runtime)
  target_link_libraries(${target}_runtime PRIVATE hdae::fmu_runtime_core hdae::engine)
  hdae_fmu_runtime_link_options(${target}_runtime)
  # The packer: the same model, described and packed with that runtime.
  add_executable(${target}_packer ${FMU_SOURCES} ${source} ${HDAE_ADD_FMU_DIR}/hdae_fmu_packer.cpp)
  target_link_libraries(${target}_packer PRIVATE hdae::fmu_export hdae::engine)
  target_include_directories(${target}_packer PRIVATE
    $<TARGET_PROPERTY:hdae::fmu_runtime_core,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(${target}_packer PRIVATE HDAE_FMU_DESCRIPTION="${FMU_DESCRIPTION}")
  add_custom_command(OUTPUT ${FMU_OUTPUT}
                     COMMAND ${target}_packer $<TARGET_FILE:${target}_runtime> ${FMU_OUTPUT}
                     DEPENDS ${target}_packer ${target}_runtime
                     COMMENT "Packing the FMU ${target}"
                     VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${FMU_OUTPUT})
endfunction()
