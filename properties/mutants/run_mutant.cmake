# ctest step of one mutant: run the impl property that must catch it, linked
# against the mutant, and pass only if it fails with a RapidCheck
# counterexample. Prints the property and its minimal counterexample.
#
#   cmake -DNAME=<mutant> -DWHY=<description> -DPROPERTY=<Suite.Property>
#         [-DCRASHES=TRUE] -DRUNNER=<binary> -P run_mutant.cmake
#
# With CRASHES (a mutant that overruns a buffer), a property that dies (a
# signal, a sanitizer report) catches it too; the step prints the end of
# what the property wrote.
execute_process(COMMAND "${RUNNER}" --gtest_filter=${PROPERTY} --gtest_color=no
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "Falsifiable" at)
if(CRASHES AND at EQUAL -1 AND NOT result EQUAL 0)
  string(LENGTH "${err}" n)
  if(n GREATER 1500)
    math(EXPR from "${n} - 1500")
    string(SUBSTRING "${err}" ${from} -1 err)
  endif()
  message("mutant '${NAME}' (${WHY}) CAUGHT by ${PROPERTY}: it died (exit ${result}) before a "
          "counterexample; the end of its output:\n${err}")
  return()
endif()
if(result EQUAL 0 OR at EQUAL -1)
  message("${out}\n${err}")
  if(result EQUAL 0)
    message(FATAL_ERROR "mutant '${NAME}' SURVIVED: ${PROPERTY} passed against it (${WHY})")
  endif()
  message(FATAL_ERROR "mutant '${NAME}' was not caught by a property (exit ${result}, no "
                      "counterexample); it crashed instead (${WHY})")
endif()
# The failing test's block: from its "[ RUN" line to its "[  FAILED  ]" line.
string(SUBSTRING "${out}" 0 ${at} before)
string(FIND "${before}" "[ RUN      ]" run_at REVERSE)
string(SUBSTRING "${out}" ${run_at} -1 rest)
string(FIND "${rest}" "[  FAILED  ]" end_at)
string(SUBSTRING "${rest}" 0 ${end_at} block)
string(REGEX MATCH "\\[ RUN      \\] ([A-Za-z0-9_.]+)" _ "${block}")
message("mutant '${NAME}' (${WHY}) CAUGHT by ${CMAKE_MATCH_1}:\n${block}")
