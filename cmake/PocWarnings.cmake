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
