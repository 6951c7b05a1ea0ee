# Helpers every test folder uses, so that all tests that start processes run
# the same way: under mpirun (as root too, oversubscribed) with a TIMEOUT.

# The environment of every test: Open MPI refuses to run as root without
# these, and CI runs as root.
set(POC_TEST_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")

# The environment of every test that starts MPI. Open MPI keeps allocations
# (many in dlopen'ed plugins LeakSanitizer cannot symbolize) until exit, so
# under POC_SANITIZE those tests check addresses and undefined behaviour but
# not leaks; tests that do not start MPI keep leak checking.
set(POC_MPI_TEST_ENV "${POC_TEST_ENV}")
if(POC_SANITIZE)
  list(APPEND POC_MPI_TEST_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()
# Under POC_SANITIZE_THREAD, what Open MPI (not instrumented) does inside its
# own libraries is not checked (tests/tsan-openmpi.supp says why), nor the
# order in which it takes its locks (the deadlock detector fails a CHECK on
# them).
if(POC_SANITIZE_THREAD)
  set(tsan_options "suppressions=${CMAKE_CURRENT_LIST_DIR}/../tests/tsan-openmpi.supp"
                   ignore_noninstrumented_modules=1 detect_deadlocks=0)
  list(JOIN tsan_options " " tsan_options)
  list(APPEND POC_TEST_ENV "TSAN_OPTIONS=${tsan_options}")
  list(APPEND POC_MPI_TEST_ENV "TSAN_OPTIONS=${tsan_options}")
endif()

# How much longer ctest waits than a job's `mpirun --timeout`: after its
# limit mpirun prints the ranks' stacks (tests/tools/mpiexec.in; Open MPI
# waits up to 30 s for them) before ctest would kill it.
set(POC_STACK_TRACE_GRACE 45)

# poc_tests_start_mpi(<test...>): gives tests added with add_test or
# poc_add_gtest that start MPI themselves the environment above.
function(poc_tests_start_mpi)
  foreach(t ${ARGN})
    set_property(TEST ${t} PROPERTY ENVIRONMENT "${POC_MPI_TEST_ENV}")
  endforeach()
endfunction()

# poc_add_gtest(<target> SOURCES <src...> [LIBS <lib...>] [TIMEOUT <s>])
# A GoogleTest binary run in-process (no mpirun), labelled `unit`.
function(poc_add_gtest target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  poc_target_settings(${target})
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${POC_TEST_ENV}"
                       LABELS unit)
endfunction()

set(POC_EXPECT_OUTPUT_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/ExpectOutput.cmake)

# poc_expect_output(<out-var> [STATUS <n>] [MATCHES <regex>]
#                   [CONTAINS_FILE <file>] [REJECTS <regex>] COMMAND <cmd...>)
# Sets <out-var> to a test command that runs <cmd...> and passes only if it
# exits with STATUS (default 0) and its output matches MATCHES, contains the
# text of CONTAINS_FILE and does not match REJECTS (cmake/ExpectOutput.cmake).
# Use it instead of PASS_REGULAR_EXPRESSION, which ignores the exit status.
function(poc_expect_output out)
  cmake_parse_arguments(ARG "" "STATUS;MATCHES;CONTAINS_FILE;REJECTS" "COMMAND" ${ARGN})
  set(defines "")
  foreach(key STATUS MATCHES CONTAINS_FILE REJECTS)
    if(DEFINED ARG_${key})
      list(APPEND defines "-D${key}=${ARG_${key}}")
    endif()
  endforeach()
  set(${out} ${CMAKE_COMMAND} ${defines} -P ${POC_EXPECT_OUTPUT_SCRIPT} -- ${ARG_COMMAND}
      PARENT_SCOPE)
endfunction()

# poc_add_mpi_test(NAME <name> NP <n> COMMAND <exe> [args...] [TIMEOUT <s>]
#                  [STATUS <n>] [MATCHES <regex>] [CONTAINS_FILE <file>]
#                  [REJECTS <regex>] [LABELS <label...>])
# Runs COMMAND under mpirun -n NP; NP 0 runs it bare (an MPI singleton).
# It passes if it exits with 0 (or STATUS); with MATCHES, CONTAINS_FILE or
# REJECTS its output is checked too (poc_expect_output).
# poc_case_fields(<row> <var>...): splits a row of a test table, fields
# separated by "|", into the variables <var>..., in order, in the caller's
# scope (the test folders keep their cases as such tables).
function(poc_case_fields row)
  string(REPLACE "|" ";" fields "${row}")
  set(i 0)
  foreach(var ${ARGN})
    list(GET fields ${i} value)
    set(${var} "${value}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()

# poc_add_option_rejections(<prefix> <program> <label> <row>...): one test
# per row "name|arguments|message": the program run bare with the arguments
# must exit with status 2 and print the message (a regular expression).
function(poc_add_option_rejections prefix program label)
  foreach(row ${ARGN})
    poc_case_fields("${row}" name args message)
    separate_arguments(args UNIX_COMMAND "${args}")
    poc_add_mpi_test(NAME ${prefix}_rejects_${name} NP 0 COMMAND ${program} ${args}
                     TIMEOUT 60 LABELS ${label} STATUS 2 MATCHES "${message}")
  endforeach()
endfunction()

function(poc_add_mpi_test)
  cmake_parse_arguments(ARG "" "NAME;NP;TIMEOUT;STATUS;MATCHES;CONTAINS_FILE;REJECTS"
                        "COMMAND;LABELS;MPIEXEC_FLAGS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  if(ARG_NP EQUAL 0)
    set(command ${ARG_COMMAND})
    set(ctest_timeout ${ARG_TIMEOUT})
  else()
    set(command ${POC_MPIEXEC} -n ${ARG_NP} ${POC_MPIEXEC_FLAGS} ${ARG_MPIEXEC_FLAGS}
                --timeout ${ARG_TIMEOUT} ${ARG_COMMAND})
    math(EXPR ctest_timeout "${ARG_TIMEOUT} + ${POC_STACK_TRACE_GRACE}")
  endif()
  set(expectations "")
  foreach(key STATUS MATCHES CONTAINS_FILE REJECTS)
    if(DEFINED ARG_${key})
      list(APPEND expectations ${key} "${ARG_${key}}")
    endif()
  endforeach()
  if(expectations)
    poc_expect_output(command ${expectations} COMMAND ${command})
  endif()
  add_test(NAME ${ARG_NAME} COMMAND ${command})
  set_tests_properties(${ARG_NAME} PROPERTIES TIMEOUT ${ctest_timeout}
                       ENVIRONMENT "${POC_MPI_TEST_ENV}" LABELS "mpi;${ARG_LABELS}")
endfunction()
