# Installs hdae::engine, hdae::compare, hdae::reduction, hdae::models and hdae::fmi with an exported CMake package, so that
# find_package(hdae) works from an install prefix (tests/consumer proves it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# hdae::fmi (the import of FMUs) too when it is built: HDAE_INSTALLED_FMI tells hdaeConfig.cmake to
# find its private dependencies, libzip and pugixml, which its static library carries.
set(HDAE_INSTALLED_TARGETS hdae_engine hdae_compare hdae_reduction hdae_models)
set(HDAE_INSTALLED_FMI OFF)
if(TARGET hdae_fmi)
  list(APPEND HDAE_INSTALLED_TARGETS hdae_fmi)
  set(HDAE_INSTALLED_FMI ON)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/fmi/include/hdae DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
# The FMU export when it is built: hdae_add_fmu (cmake/HdaeAddFmu.cmake) for a user's project,
# with the runtime's objects, the one runtime header a model source includes, the exporter, and
# the function's template and packer beside the package config.
set(HDAE_INSTALLED_FMU_EXPORT OFF)
if(TARGET hdae_fmu_runtime_core)
  list(APPEND HDAE_INSTALLED_TARGETS hdae_fmu_layout hdae_fmu_export hdae_fmu_runtime_core)
  set(HDAE_INSTALLED_FMU_EXPORT ON)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/fmu_export/include/hdae
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/fmu_export/runtime/fmu_model_source.hpp
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hdae/fmu_runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/HdaeAddFmu.cmake
                ${PROJECT_SOURCE_DIR}/cmake/hdae_fmu_model_source.cpp.in
                ${PROJECT_SOURCE_DIR}/cmake/hdae_fmu_packer.cpp
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hdae)
endif()
install(TARGETS ${HDAE_INSTALLED_TARGETS} EXPORT hdaeTargets
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/hdae/fmu_runtime_objects
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/hdae
                  ${PROJECT_SOURCE_DIR}/compare/include/hdae
                  ${PROJECT_SOURCE_DIR}/reduction/include/hdae
                  ${PROJECT_SOURCE_DIR}/models/include/hdae
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/generated/include/hdae/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hdae)
install(EXPORT hdaeTargets NAMESPACE hdae:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hdae)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hdaeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hdaeConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hdae)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hdaeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hdaeConfig.cmake ${PROJECT_BINARY_DIR}/hdaeConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/HdaeOpenMP.cmake
              ${PROJECT_SOURCE_DIR}/cmake/HdaeSuiteSparseQR.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hdae)
