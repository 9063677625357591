# Compile flags for a fuzzing build, included by the top-level CMakeLists.txt
# before any library is defined, so that the spec and the impl are
# instrumented for coverage too.
#
#   -DTILECHECK_FUZZ=ON (with clang): everything is compiled with
#       -fsanitize=fuzzer-no-link,address,undefined and the fuzz targets link
#       libFuzzer (-fsanitize=fuzzer).
#   -DTILECHECK_FUZZ=ON -DTILECHECK_FUZZ_ENGINE=<link flags>: OSS-Fuzz's
#       convention. The compile flags come from $CFLAGS/$CXXFLAGS (CMake reads
#       them) and the targets link <link flags>, i.e. $LIB_FUZZING_ENGINE.
#   default (OFF): the fuzz targets link fuzz/replay_main.cc and ctest replays
#       their seed corpora.
option(TILECHECK_FUZZ "Build the fuzz targets against a fuzzing engine (clang: libFuzzer)" OFF)
set(TILECHECK_FUZZ_ENGINE "" CACHE STRING
    "Link flags of the fuzzing engine (OSS-Fuzz: $LIB_FUZZING_ENGINE); empty: -fsanitize=fuzzer")

if(TILECHECK_FUZZ AND TILECHECK_FUZZ_ENGINE STREQUAL "")
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TILECHECK_FUZZ=ON needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
# Either way, coverage skips the oracle and the standard library
# (coverage_ignorelist.txt says why).
if(TILECHECK_FUZZ AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_compile_options(-fsanitize-coverage-ignorelist=${CMAKE_CURRENT_LIST_DIR}/coverage_ignorelist.txt)
endif()
