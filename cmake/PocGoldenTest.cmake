# Golden tests of the code poc++ generates for a user's classes
# (docs/compiler.md, section 9).
#
# poc_add_golden_test(<name> SOURCE <file.cpp> CHECKS <file.checks>
#                     [LIBS <targets...>] [FLAGS <poc++ options...>])
#
# Registers a ctest test <name> that writes everything poc++ generates for
# SOURCE (`poc++ --emit-generated - FLAGS SOURCE`: the translation and every
# rewritten header, in a stable order, with paths relative to SOURCE's
# folder) and checks it with LLVM's FileCheck against CHECKS. A mismatch
# fails the test with FileCheck's report: the expected line, where it was
# looked for, and the nearest line that was generated instead. The include
# folders of the LIBS targets are passed as -I, as poc_add_executable does.
#
# POC_FILECHECK and POC_LIT name FileCheck and lit.py of the LLVM poc++ is
# built on (Debian: llvm-19-tools); set them to use others.
include_guard(GLOBAL)

find_program(POC_FILECHECK NAMES FileCheck-19 FileCheck
             HINTS /usr/lib/llvm-19/bin DOC "LLVM's FileCheck, for poc_add_golden_test")
find_file(POC_LIT lit.py HINTS /usr/lib/llvm-19/build/utils/lit
          DOC "LLVM's lit.py, for lit test suites of generated code")
set(_POC_GOLDEN_TEST_RUN ${CMAKE_CURRENT_LIST_DIR}/PocGoldenTestRun.cmake)

function(poc_add_golden_test name)
  cmake_parse_arguments(ARG "" "SOURCE;CHECKS" "LIBS;FLAGS" ${ARGN})
  if(NOT ARG_SOURCE OR NOT ARG_CHECKS)
    message(FATAL_ERROR "poc_add_golden_test(${name}): SOURCE and CHECKS are required")
  endif()
  if(NOT POC_FILECHECK)
    message(FATAL_ERROR "poc_add_golden_test(${name}): LLVM's FileCheck was not found "
                        "(install llvm-19-tools, or set POC_FILECHECK)")
  endif()
  if(TARGET poc++)
    set(compiler poc++)
  else()
    set(compiler poc::poc++)
  endif()
  get_filename_component(source ${ARG_SOURCE} ABSOLUTE)
  get_filename_component(checks ${ARG_CHECKS} ABSOLUTE)
  # Lists travel to the script joined by '|'.
  list(JOIN ARG_FLAGS "|" flags)
  set(includes)
  foreach(lib ${ARG_LIBS})
    list(APPEND includes "$<JOIN:$<TARGET_PROPERTY:${lib},INTERFACE_INCLUDE_DIRECTORIES>,|>")
  endforeach()
  list(JOIN includes "|" includes)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DPOCXX=$<TARGET_FILE:${compiler}> -DSOURCE=${source}
                   -DCHECKS=${checks} -DFILECHECK=${POC_FILECHECK} "-DFLAGS=${flags}"
                   "-DINCLUDES=${includes}"
                   -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/${name}.generated.cpp
                   -P ${_POC_GOLDEN_TEST_RUN})
endfunction()
