# Install and export: `cmake --install` puts the headers, the libraries,
# lib/cmake/tilecheck/tilecheckConfig.cmake (+ version file) with the imported
# targets tilecheck::model, tilecheck::spec, tilecheck::impl, tilecheck::testing, tilecheck::c,
# and lib/pkgconfig/tilecheck.pc (the C API) under the prefix.
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

install(TARGETS tilecheck_model tilecheck_spec tilecheck_impl tilecheck_testing tilecheck_c
        EXPORT tilecheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public headers, C and C++: include/tilecheck/ as it is in the tree, so
# <tilecheck/...> means the same file in the tree and installed.
install(DIRECTORY include/tilecheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

install(EXPORT tilecheckTargets NAMESPACE tilecheck:: DESTINATION ${tilecheck_cmake_dir})
configure_package_config_file(cmake/tilecheckConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfig.cmake
  INSTALL_DESTINATION ${tilecheck_cmake_dir})
# 0.x: minor versions may break the C++ interface (the C API has its own number).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/tilecheckConfigVersion.cmake
        DESTINATION ${tilecheck_cmake_dir})

# The .pc file finds the prefix from its own location, so it stays right
# under `cmake --install --prefix ANYWHERE`.
set(tilecheck_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH tilecheck_pc_to_prefix /${tilecheck_pc_dir} /)
string(REGEX REPLACE "/$" "" tilecheck_pc_to_prefix "${tilecheck_pc_to_prefix}")
configure_file(cmake/tilecheck.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tilecheck.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilecheck.pc DESTINATION ${tilecheck_pc_dir})
