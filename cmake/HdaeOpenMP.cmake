# SUNDIALS' OpenMP vector (SUNDIALS::nvecopenmp, SimulationOptions::threads) names
# OpenMP::OpenMP_C in its link interface. FindOpenMP defines that target only where C is an
# enabled language, and hdae (and a project using it) may be C++ only. GCC's C and C++ OpenMP
# runtime is the same libgomp, so the missing target stands for the C++ one, at link time only:
# nothing of hdae is compiled with -fopenmp.
if(NOT TARGET OpenMP::OpenMP_C)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
  add_library(OpenMP::OpenMP_C INTERFACE IMPORTED)
  set_property(TARGET OpenMP::OpenMP_C PROPERTY INTERFACE_LINK_LIBRARIES
                                                "$<LINK_ONLY:OpenMP::OpenMP_CXX>")
endif()
