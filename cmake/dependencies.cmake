# Every external dependency, found once here (imported targets are global, so
# every folder sees them). Two kinds, as scripts/deps.sh lists them:
#
#   required  what `tilecheck gate` (the main job) needs to build; missing, the
#             configure stops with the Debian package and the command that
#             installs it;
#   optional  what only the tests, the benchmarks and the fuzzers use; missing,
#             one line says what is missing, what is disabled and the package
#             that enables it, and the configure goes on.
#
# Nothing is cached on failure, so installing the package and configuring
# again picks it up.
set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ON)

# tilecheck_missing_required(<what> <debian packages...>)
function(tilecheck_missing_required what)
  list(JOIN ARGN " " packages)
  message(FATAL_ERROR "tilecheck: ${what} not found; it is required. Install it with "
                      "'apt-get install --no-install-recommends ${packages}' "
                      "(scripts/deps.sh does, as scripts/run and scripts/test call it)")
endfunction()

# tilecheck_missing_optional(<what> <why> <disabled> <debian packages...>)
function(tilecheck_missing_optional what why disabled)
  list(JOIN ARGN " " packages)
  message(STATUS "tilecheck: optional ${what} ${why}: ${disabled} disabled "
                 "(apt-get install ${packages} enables it)")
endfunction()

# --- required -------------------------------------------------------------
find_package(Threads)
if(NOT Threads_FOUND)
  tilecheck_missing_required("a threads library" libc6-dev)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/find_highway.cmake)  # Highway: the impl's SIMD kernels
if(NOT tilecheck_highway_found)
  tilecheck_missing_required("Highway (hwy)" libhwy-dev)
endif()
if(TILECHECK_LIBRARIES_ONLY)  # the libraries and the testing kit: Highway (above) alone
  return()
endif()
if(TILECHECK_FUZZ_TARGETS_ONLY)  # the fuzz targets: Highway (above) and nlohmann-json
  find_package(nlohmann_json 3 QUIET)
  if(NOT nlohmann_json_FOUND)
    tilecheck_missing_required("nlohmann-json 3" nlohmann-json3-dev)
  endif()
  return()
endif()
find_package(rapidcheck CONFIG QUIET)  # the generated properties; the gate runs them
if(NOT rapidcheck_FOUND)
  tilecheck_missing_required("RapidCheck" librapidcheck-dev)
endif()
if(TILECHECK_IMPL_TESTS_ONLY)  # the impl, its tests and the properties only
  if(TILECHECK_BUILD_TESTS)
    find_package(GTest QUIET)
    if(NOT GTest_FOUND)
      tilecheck_missing_required("GoogleTest" libgtest-dev)
    endif()
  endif()
  return()
endif()
find_package(CLI11 CONFIG QUIET)  # the command line
if(NOT CLI11_FOUND)
  tilecheck_missing_required("CLI11" libcli11-dev)
endif()
find_package(nlohmann_json 3 QUIET)  # --json
if(NOT nlohmann_json_FOUND)
  tilecheck_missing_required("nlohmann-json 3" nlohmann-json3-dev)
endif()
find_path(Z3_INCLUDE_DIR z3++.h)  # the proofs; the gate runs them
find_library(Z3_LIBRARY z3)
if(NOT Z3_INCLUDE_DIR OR NOT Z3_LIBRARY)
  tilecheck_missing_required("Z3 (z3++.h, libz3)" libz3-dev)
endif()

# --- required by the tests, when they are built ---------------------------
if(TILECHECK_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    message(FATAL_ERROR "tilecheck: GoogleTest not found; the tests need it. Install it with "
                        "'apt-get install --no-install-recommends libgtest-dev' (scripts/test does), "
                        "or configure with -DTILECHECK_BUILD_TESTS=OFF")
  endif()
  find_program(RSVG_CONVERT rsvg-convert)  # cli_test renders the SVG figures
  if(NOT RSVG_CONVERT)
    message(FATAL_ERROR "tilecheck: rsvg-convert not found; the tests need it. Install it with "
                        "'apt-get install --no-install-recommends librsvg2-bin' (scripts/test does), "
                        "or configure with -DTILECHECK_BUILD_TESTS=OFF")
  endif()
endif()

# --- optional -------------------------------------------------------------
find_package(benchmark QUIET)
set(TILECHECK_HAVE_BENCHMARK ${benchmark_FOUND})
if(NOT benchmark_FOUND)
  tilecheck_missing_optional("Google Benchmark" "not found" "bench/ (tilecheck_bench)" libbenchmark-dev)
endif()

# oneDNN's own CMake package requires OpenCL (a hard error however quietly
# it is asked for), and Debian's libdnnl-dev only recommends the OpenCL
# package: look for OpenCL first, and ask for oneDNN only when it is there.
find_package(OpenCL QUIET)
if(OpenCL_FOUND)
  find_package(dnnl CONFIG QUIET)
endif()
if(OpenCL_FOUND AND dnnl_FOUND)
  set(TILECHECK_HAVE_DNNL ON)
else()
  set(TILECHECK_HAVE_DNNL OFF)
  # oneDNN's header tells an installed oneDNN without OpenCL from no oneDNN.
  find_path(TILECHECK_DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp)
  if(TILECHECK_DNNL_INCLUDE_DIR AND NOT OpenCL_FOUND)
    set(why "unusable (its CMake package needs OpenCL, which is missing)")
  else()
    set(why "not found")
  endif()
  tilecheck_missing_optional("oneDNN" "${why}" "the oneDNN cross-check test and bench peer"
                             libdnnl-dev ocl-icd-opencl-dev)
endif()

# libxsmm (Debian's libxsmm-dev: static libraries, amd64 only): its
# transposes and blocked activations as a peer under the gate. libxsmm.a
# calls BLAS for its GEMM fallback, which the gate never reaches;
# libxsmmnoblas.a stands in for BLAS.
# TILECHECK_WITH_LIBXSMM=OFF leaves it out wherever it is installed (the
# Debian package holds the same files on every machine).
option(TILECHECK_WITH_LIBXSMM "build the libxsmm peer when libxsmm is found" ON)
if(TILECHECK_WITH_LIBXSMM)
  find_path(TILECHECK_LIBXSMM_INCLUDE_DIR libxsmm_dnn_tensor.h)
  find_library(TILECHECK_LIBXSMM_LIBRARY xsmm)
  find_library(TILECHECK_LIBXSMM_NOBLAS_LIBRARY xsmmnoblas)
endif()
if(NOT TILECHECK_WITH_LIBXSMM)
  set(TILECHECK_HAVE_LIBXSMM OFF)
elseif(TILECHECK_LIBXSMM_INCLUDE_DIR AND TILECHECK_LIBXSMM_LIBRARY AND TILECHECK_LIBXSMM_NOBLAS_LIBRARY)
  set(TILECHECK_HAVE_LIBXSMM ON)
  add_library(tilecheck_libxsmm INTERFACE)
  target_include_directories(tilecheck_libxsmm SYSTEM INTERFACE ${TILECHECK_LIBXSMM_INCLUDE_DIR})
  target_link_libraries(tilecheck_libxsmm INTERFACE ${TILECHECK_LIBXSMM_LIBRARY} ${TILECHECK_LIBXSMM_NOBLAS_LIBRARY}
                                                    Threads::Threads ${CMAKE_DL_LIBS} m rt)
else()
  set(TILECHECK_HAVE_LIBXSMM OFF)
  tilecheck_missing_optional("libxsmm" "not found" "the libxsmm peer (tilecheck-libxsmm-impl)" libxsmm-dev)
endif()

if(TILECHECK_BUILD_TESTS)
  find_program(TILECHECK_CLANGXX clang++)
  if(NOT TILECHECK_CLANGXX)
    tilecheck_missing_optional("clang++" "not found" "the OSS-Fuzz build test (fuzz_oss_fuzz_build)" clang libclang-rt-14-dev)
  endif()
endif()

# The layout explorer's test (web/, ctest web_explorer): Debian's emscripten
# builds the page, Debian's Chromium runs it, driven from Node.js by the
# test's pinned playwright-core (npm ci). Only found here: the main build
# never builds web/.
if(TILECHECK_BUILD_TESTS)
  find_program(TILECHECK_EMXX em++)
  find_program(TILECHECK_NODE node)
  find_program(TILECHECK_NPM npm)
  find_program(TILECHECK_CHROMIUM chromium)
  if(TILECHECK_EMXX AND TILECHECK_NODE AND TILECHECK_NPM AND TILECHECK_CHROMIUM)
    set(TILECHECK_HAVE_EXPLORER_TEST ON)
  else()
    set(TILECHECK_HAVE_EXPLORER_TEST OFF)
    tilecheck_missing_optional("emscripten, Node.js's npm or Chromium" "not found"
                               "the layout explorer's test (web_explorer)" emscripten chromium npm)
  endif()
endif()

# The Python package (python/): pybind11 and Python's headers. Debian's
# python3 (/usr/bin/python3) is the one its python3-* packages are for, so it
# is preferred over another python3 earlier on the PATH; -DPython_EXECUTABLE
# chooses another. Not in a sanitizer build: a plain python3 cannot load a
# sanitized extension (tests/python_tests.sh builds one without them).
set(TILECHECK_HAVE_PYTHON OFF)
if(TILECHECK_SANITIZE OR TILECHECK_TSAN OR TILECHECK_FUZZ)
  message(STATUS "tilecheck: the Python package is not built in a sanitizer build "
                 "(its tests build it without sanitizers)")
else()
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  set(PYBIND11_FINDPYTHON ON)
  find_package(Python COMPONENTS Interpreter Development.Module QUIET)
  if(Python_FOUND)
    find_package(pybind11 CONFIG QUIET)
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(TILECHECK_HAVE_PYTHON ON)
  else()
    tilecheck_missing_optional("pybind11 and Python's headers" "not found"
                               "the Python package (python/)" python3-pybind11 python3-dev)
  endif()
endif()
