# Runs a test's command and judges it by its exit status and its output
# together (ctest's PASS_REGULAR_EXPRESSION alone ignores the exit status).
#
#   cmake [-DSTATUS=<n>] [-DMATCHES=<regex>] [-DCONTAINS_FILE=<file>]
#         [-DREJECTS=<regex>] -P ExpectOutput.cmake -- <command> [args...]
#
# STATUS        the exit status the command must end with (default 0), or
#               several separated by | (e.g. 1|137)
# MATCHES       a CMake regular expression the output must match
# CONTAINS_FILE a file whose text the output must contain literally
# REJECTS       a CMake regular expression the output must not match
# The output (stdout and stderr, interleaved as the command wrote them) is
# echoed, so ctest --output-on-failure shows it.

set(command "")
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(after_separator)
    # An argument's own semicolons must not split it into list elements.
    string(REPLACE ";" "\\;" argument "${CMAKE_ARGV${i}}")
    list(APPEND command "${argument}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "ExpectOutput.cmake: no command after --")
endif()
if(NOT DEFINED STATUS)
  set(STATUS 0)
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
message("${output}")

set(problems "")
if(NOT status MATCHES "^(${STATUS})$")
  string(APPEND problems "\n  exit status ${status}, expected ${STATUS}")
endif()
if(DEFINED MATCHES AND NOT output MATCHES "${MATCHES}")
  string(APPEND problems "\n  the output does not match '${MATCHES}'")
endif()
if(DEFINED CONTAINS_FILE)
  file(READ "${CONTAINS_FILE}" expected)
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    string(APPEND problems "\n  the output does not contain the text of ${CONTAINS_FILE}")
  endif()
endif()
if(DEFINED REJECTS AND output MATCHES "${REJECTS}")
  string(APPEND problems "\n  the output matches '${REJECTS}': '${CMAKE_MATCH_0}'")
endif()
if(problems)
  message(FATAL_ERROR "test failed:${problems}")
endif()
