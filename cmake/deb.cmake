# `cpack -G DEB` in a configured and built tree (scripts/package does all of
# it): one Debian package, tilecheck_<version>_<arch>.deb, holding what
# `cmake --install` puts (the command, the C library, the headers, the CMake
# package, the pkg-config file) and, when the tree has it, the Python package
# (the install component "python", built by the target tilecheck_python).
# Its Depends: the shared libraries the binaries link (dpkg-shlibdeps, which
# Debian's dpkg-dev brings), Highway's headers for a find_package consumer
# of the static impl (cmake/tilecheckConfig.cmake.in finds hwy), and the
# Python and numpy the extension was built for. docs/INSTALL.md says how to
# build and install it.
set(CPACK_PACKAGE_NAME tilecheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tilecheck maintainers <tilecheck@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "oracle and gate for XLA-style tiled memory layouts")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "tilecheck answers what index, size or bytes an XLA tiled layout gives (f32[3,5]{1,0:T(2,2)}), "
  "packs and unpacks arrays fast, proves index mappings with Z3, and gates another implementation "
  "of tiled layouts against its executable spec. This package holds the tilecheck command, the C "
  "library libtilecheck_c, the C and C++ headers, the CMake package and pkg-config file, and the "
  "Python package for Debian's python3.")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # tilecheck_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)  # libtilecheck_c's shlibs, and ldconfig's trigger
set(tilecheck_deb_depends "libhwy-dev")
set(CPACK_COMPONENTS_ALL Unspecified)
if(TILECHECK_HAVE_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
  math(EXPR tilecheck_next_python_minor "${Python_VERSION_MINOR} + 1")
  string(APPEND tilecheck_deb_depends
         ", python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR})"
         ", python3 (<< ${Python_VERSION_MAJOR}.${tilecheck_next_python_minor}), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${tilecheck_deb_depends}")
# Both components in the one package.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
include(CPack)
