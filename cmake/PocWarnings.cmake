# Warning and sanitizer flags for poc++'s own targets.
# poc_target_settings(<target>) applies them; third-party code never sees them.
function(poc_target_settings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(POC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(POC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# ThreadSanitizer for the runtime's threads (its host mutex, the hand-offs
# between pollers and workers). It cannot share a build with
# AddressSanitizer, and Open MPI itself is not instrumented: what it checks
# is poc++'s own code, with MPI's calls seen as opaque.
if(POC_SANITIZE_THREAD)
  if(POC_SANITIZE)
    message(FATAL_ERROR "POC_SANITIZE_THREAD and POC_SANITIZE exclude each other: configure "
                        "ThreadSanitizer in a build directory of its own")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
