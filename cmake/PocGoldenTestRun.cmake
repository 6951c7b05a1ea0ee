# The test poc_add_golden_test registers (PocGoldenTest.cmake): run with
#   cmake -DPOCXX=... -DSOURCE=... -DCHECKS=... -DFILECHECK=... -DFLAGS=...
#         -DINCLUDES=... -DOUTPUT=... -P PocGoldenTestRun.cmake
# (FLAGS and INCLUDES are lists joined by '|').
string(REPLACE "|" ";" flags "${FLAGS}")
string(REPLACE "|" ";" includes "${INCLUDES}")
list(REMOVE_ITEM includes "")
list(TRANSFORM includes PREPEND -I)
execute_process(COMMAND ${POCXX} --emit-generated - ${flags} ${includes} ${SOURCE}
                OUTPUT_FILE ${OUTPUT} ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "poc++ could not translate ${SOURCE}:\n${errors}")
endif()
# FileCheck's report goes to the test's output as it wrote it.
execute_process(COMMAND ${FILECHECK} ${CHECKS} --input-file ${OUTPUT} --dump-input=never
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the code generated for ${SOURCE} does not match ${CHECKS} "
                      "(FileCheck's report above; the generated text: ${OUTPUT})")
endif()
message(STATUS "generated code of ${SOURCE} matches ${CHECKS}")
