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

# poc_add_mpi_test(NAME <name> NP <n> COMMAND <exe> [args...] [TIMEOUT <s>])
# Runs COMMAND under mpirun -n NP; NP 0 runs it bare (an MPI singleton).
function(poc_add_mpi_test)
  cmake_parse_arguments(ARG "" "NAME;NP;TIMEOUT" "COMMAND;LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  if(ARG_NP EQUAL 0)
    add_test(NAME ${ARG_NAME} COMMAND ${ARG_COMMAND})
  else()
    add_test(NAME ${ARG_NAME}
             COMMAND ${POC_MPIEXEC} -n ${ARG_NP} ${POC_MPIEXEC_FLAGS}
                     --timeout ${ARG_TIMEOUT} ${ARG_COMMAND})
  endif()
  set_tests_properties(${ARG_NAME} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
                       ENVIRONMENT "${POC_MPI_TEST_ENV}" LABELS "mpi;${ARG_LABELS}")
endfunction()
