# Install and export: `cmake --install` puts the headers, the libraries,
# lib/cmake/tilecheck/tilecheckConfig.cmake (+ version file) with the imported
# targets tilecheck::model, tilecheck::spec, tilecheck::impl, tilecheck::testing, tilecheck::c,
# lib/pkgconfig/tilecheck.pc (the C API) and bin/tilecheck-fuzz-seeds under
# the prefix (without the C API and its .pc in the libraries-only build).
# The same names work in-tree as aliases.
include(CMakePackageConfigHelpers)

add_library(tilecheck::model ALIAS tilecheck_model)
add_library(tilecheck::spec ALIAS tilecheck_spec)
add_library(tilecheck::impl ALIAS tilecheck_impl)
add_library(tilecheck::testing ALIAS tilecheck_testing)
set_target_properties(tilecheck_model PROPERTIES EXPORT_NAME model)
set_target_properties(tilecheck_spec PROPERTIES EXPORT_NAME spec)
set_target_properties(tilecheck_impl PROPERTIES EXPORT_NAME impl)
# The headers use C++20 (std::span, defaulted comparisons): consumers need it too.
target_compile_features(tilecheck_model PUBLIC cxx_std_20)

set(tilecheck_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tilecheck)

# The C API is not in the libraries-only build (TILECHECK_LIBRARIES_ONLY).
set(tilecheck_installed_libraries tilecheck_model tilecheck_spec tilecheck_impl tilecheck_testing)
if(TARGET tilecheck_c)
  list(APPEND tilecheck_installed_libraries tilecheck_c)
endif()
install(TARGETS ${tilecheck_installed_libraries}
        EXPORT tilecheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The seed corpora and dictionary of the testing kit's fuzz harnesses.
install(TARGETS tilecheck_fuzz_seeds RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public headers, C and C++: include/tilecheck/ as it is in the tree, so
# <tilecheck/...> means the same file in the tree and installed.
if(TARGET tilecheck_c)
  install(DIRECTORY include/tilecheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")
else()
  install(DIRECTORY include/tilecheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h" PATTERN "tilecheck.h" EXCLUDE)
endif()

install(EXPORT tilecheckTargets NAMESPACE tilecheck:: DESTINATION ${tilecheck_cmake_dir})
configure_package_config_file(cmake/tilecheckConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfig.cmake
  INSTALL_DESTINATION ${tilecheck_cmake_dir})
# 0.x: minor versions may break the C++ interface (the C API has its own number).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfigVersion.cmake
              cmake/find_highway.cmake
        DESTINATION ${tilecheck_cmake_dir})

if(NOT TARGET tilecheck_c)
  return()
endif()
# The .pc file (the C API) finds the prefix from its own location, so it stays right
# under `cmake --install --prefix ANYWHERE`.
set(tilecheck_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH tilecheck_pc_to_prefix /${tilecheck_pc_dir} /)
string(REGEX REPLACE "/$" "" tilecheck_pc_to_prefix "${tilecheck_pc_to_prefix}")
configure_file(cmake/tilecheck.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tilecheck.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilecheck.pc DESTINATION ${tilecheck_pc_dir})
