# SuiteSparseQR (Debian libsuitesparse-dev, which also holds KLU): the rank-revealing sparse QR
# of the singular-matrix diagnosis (engine/src/linalg/rank_diagnosis.cpp), through Eigen's
# SPQRSupport module. Debian ships no CMake package for it, so the libraries are found by name
# and gathered in one imported target, which a project using the static engine gets too.
# BTF, from the same package: maximum transversals and block triangular forms, for the state
# selection of large reduced models (reduction/src/block_selection.cpp).
if(NOT TARGET hdae_deps::suitesparseqr)
  find_path(HDAE_SPQR_INCLUDE_DIR SuiteSparseQR.hpp PATH_SUFFIXES suitesparse REQUIRED)
  find_library(HDAE_SPQR_LIBRARY spqr REQUIRED)
  find_library(HDAE_CHOLMOD_LIBRARY cholmod REQUIRED)
  find_library(HDAE_SUITESPARSECONFIG_LIBRARY suitesparseconfig REQUIRED)
  add_library(hdae_deps::suitesparseqr INTERFACE IMPORTED)
  set_target_properties(hdae_deps::suitesparseqr PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${HDAE_SPQR_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES
      "${HDAE_SPQR_LIBRARY};${HDAE_CHOLMOD_LIBRARY};${HDAE_SUITESPARSECONFIG_LIBRARY}")
endif()
if(NOT TARGET hdae_deps::btf)
  find_path(HDAE_BTF_INCLUDE_DIR btf.h PATH_SUFFIXES suitesparse REQUIRED)
  find_library(HDAE_BTF_LIBRARY btf REQUIRED)
  add_library(hdae_deps::btf INTERFACE IMPORTED)
  set_target_properties(hdae_deps::btf PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${HDAE_BTF_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${HDAE_BTF_LIBRARY}")
endif()
