# Highway (the impl's SIMD kernels) as the target hwy::hwy: from its CMake
# package when there is one (Debian's libhwy-dev, Highway 1.0.4 and later),
# else from its header and library (Highway 1.0.3 built from source, as the
# OSS-Fuzz builds do, installs no CMake package). Sets
# tilecheck_highway_found. Used by tilecheck's own build and, installed,
# by its CMake package (tilecheckConfig.cmake).
set(tilecheck_highway_found TRUE)
if(NOT TARGET hwy::hwy)
  find_package(hwy CONFIG QUIET)
endif()
if(NOT TARGET hwy::hwy)
  find_path(TILECHECK_HWY_INCLUDE_DIR hwy/highway.h)
  find_library(TILECHECK_HWY_LIBRARY hwy)
  if(TILECHECK_HWY_INCLUDE_DIR AND TILECHECK_HWY_LIBRARY)
    add_library(hwy::hwy UNKNOWN IMPORTED GLOBAL)
    set_target_properties(hwy::hwy PROPERTIES IMPORTED_LOCATION ${TILECHECK_HWY_LIBRARY}
                          INTERFACE_INCLUDE_DIRECTORIES ${TILECHECK_HWY_INCLUDE_DIR})
    message(STATUS "tilecheck: Highway without a CMake package: ${TILECHECK_HWY_LIBRARY}")
  else()
    set(tilecheck_highway_found FALSE)
  endif()
endif()
