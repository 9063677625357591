# Build-time step of one mutant: copy the impl sources into the mutant's
# directory and apply one textual change to one file.
#
#   cmake -DIMPL_DIR=<src>/impl -DOUT_DIR=<mutant>/impl -DFILE=<name in impl/>
#         -DORIGINAL_FILE=<file holding the snippet> -DMUTANT_FILE=<replacement>
#         -DNAME=<mutant> -P apply_mutation.cmake
#
# Fails the build, loudly, unless the original snippet occurs exactly once:
# a mutant whose snippet no longer exists in the impl would otherwise
# silently test the unmutated code.
file(GLOB sources "${IMPL_DIR}/*.cc" "${IMPL_DIR}/*.h")
file(MAKE_DIRECTORY "${OUT_DIR}")
foreach(source IN LISTS sources)
  get_filename_component(base "${source}" NAME)
  if(NOT base STREQUAL FILE)
    file(COPY_FILE "${source}" "${OUT_DIR}/${base}" ONLY_IF_DIFFERENT)
  endif()
endforeach()

file(READ "${IMPL_DIR}/${FILE}" text)
file(READ "${ORIGINAL_FILE}" original)
file(READ "${MUTANT_FILE}" replacement)
string(FIND "${text}" "${original}" first)
string(FIND "${text}" "${original}" last REVERSE)
if(first EQUAL -1)
  message(FATAL_ERROR "mutant '${NAME}' no longer applies: impl/${FILE} does not contain\n"
                      "${original}\nUpdate properties/mutants/CMakeLists.txt to the current impl.")
endif()
if(NOT first EQUAL last)
  message(FATAL_ERROR "mutant '${NAME}' is ambiguous: impl/${FILE} contains\n${original}\n"
                      "more than once; give a longer snippet in properties/mutants/CMakeLists.txt.")
endif()
string(REPLACE "${original}" "${replacement}" mutated "${text}")
# Write only on change so that unchanged mutants are not recompiled.
set(out "${OUT_DIR}/${FILE}")
if(EXISTS "${out}")
  file(READ "${out}" previous)
  if(previous STREQUAL mutated)
    return()
  endif()
endif()
file(WRITE "${out}" "${mutated}")
