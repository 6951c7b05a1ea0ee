# Building process-oriented programs with poc++ (docs/compiler.md, section 8).
#
# poc_add_executable(<target> SOURCES <src...> [LIBS <libs...>])
# poc_add_library(<target> [STATIC|SHARED|OBJECT] SOURCES <src...> [LIBS <libs...>]
#                 [PROCESS_CLASSES <class...>])
#
# poc++ compiles every source of these targets and links their programs and
# shared libraries, whatever CMAKE_CXX_COMPILER is: CMake's own compile and
# link commands are run through poc++ (a compiler and a linker launcher),
# with the project's compiler as poc++'s backend (POC_CXX), so flags and
# warnings mean what they mean for the project's other targets. Every object
# thus carries poc++'s record, and every link is poc++'s, which compiles a
# library's file again for the program when the file calls a class that
# only the program creates (docs/compiler.md, "Separate compilation"): a
# library's target works as the same files compiled with
# CMAKE_CXX_COMPILER=poc++ do. What cannot be repaired (a shared library's
# file) fails the program's link with an error naming the file, the class
# and PROCESS_CLASSES, which names the classes another part of the program
# creates (--process-class). The sources of a target are passed to each other
# as --program-source, so that a class created in one file is known in the
# others without compiling them again at the link. The translations are kept
# in <binary dir>/poc_gen/<target>/.
include_guard(GLOBAL)

# The poc++ these functions compile with: the build tree's poc++ target, or
# the installed package's imported poc::poc++ (this file serves both).
if(TARGET poc++)
  set(_poc_compiler poc++)
  get_target_property(_poc_compiler_dir poc++ BINARY_DIR)
  set(_poc_compiler_file ${_poc_compiler_dir}/poc++)
else()
  set(_poc_compiler poc::poc++)
  get_target_property(_poc_compiler_file poc::poc++ LOCATION)
endif()
# Objects are compiled again when poc++ changes.
set_property(GLOBAL PROPERTY POC_COMPILER_FILE ${_poc_compiler_file})

# The launchers, in global properties: the functions are called from other
# folders than the one that includes this file.
# A project that already compiles with poc++ needs none.
execute_process(COMMAND ${CMAKE_CXX_COMPILER} --version OUTPUT_VARIABLE _poc_cxx_version
                ERROR_QUIET)
if(_poc_cxx_version MATCHES "^poc\\+\\+ version")
  set(_poc_launcher)
else()
  # `<launcher> COMPILER ARGS...` runs `poc++ ARGS...` with COMPILER as its backend.
  set(_poc_launcher_script ${CMAKE_BINARY_DIR}/poc-launcher.sh)
  file(GENERATE OUTPUT ${_poc_launcher_script}
       CONTENT "#!/bin/sh\n# CMake's command `COMPILER ARGS...`, run as `poc++ ARGS...` with \
COMPILER as poc++'s backend\n# (cmake/PocCompiler.cmake).\ncompiler=$1\nshift\n\
POC_CXX=$compiler exec '$<TARGET_FILE:${_poc_compiler}>' \"$@\"\n")
  set(_poc_launcher /bin/sh ${_poc_launcher_script})
endif()
set_property(GLOBAL PROPERTY POC_COMPILER_LAUNCHER "${_poc_launcher}")
# The sanitizer build (POC_TRANSLATOR, the top-level CMakeLists.txt) links
# the runtime it built itself, with sanitizers; the translator's poc++ would
# add its own build's runtime to the link.
if(POC_TRANSLATOR AND NOT TARGET poc++)
  set_property(GLOBAL PROPERTY POC_LINKER_LAUNCHER "")
else()
  set_property(GLOBAL PROPERTY POC_LINKER_LAUNCHER "${_poc_launcher}")
endif()

# Compiles \p target's SOURCES with poc++ and links it with poc::runtime and
# LIBS; \p runtime_scope is how the runtime is linked (a shared library
# leaves it to the program that loads it).
function(_poc_setup target runtime_scope)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;PROCESS_CLASSES" ${ARGN})
  # Quoted includes of the user's sources resolve from their directories.
  set(dirs ${CMAKE_CURRENT_SOURCE_DIR})
  set(sources)
  foreach(src ${ARG_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    list(APPEND dirs ${dir})
    list(APPEND sources ${abs})
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  target_sources(${target} PRIVATE ${sources})
  target_include_directories(${target} PRIVATE ${dirs})
  target_link_libraries(${target} ${runtime_scope} poc::runtime)
  target_link_libraries(${target} PUBLIC ${ARG_LIBS})
  target_compile_features(${target} PUBLIC cxx_std_20)
  # Classes of imported targets' headers (an installed library's) can be
  # processes: poc++ makes none of a system header's.
  set_target_properties(${target} PROPERTIES NO_SYSTEM_FROM_IMPORTED ON)
  set(options --emit-generated=${CMAKE_CURRENT_BINARY_DIR}/poc_gen/${target})
  foreach(class ${ARG_PROCESS_CLASSES})
    list(APPEND options --process-class=${class})
  endforeach()
  target_compile_options(${target} PRIVATE ${options})
  get_property(compiler GLOBAL PROPERTY POC_COMPILER_FILE)
  if(TARGET poc++)
    add_dependencies(${target} poc++)
  endif()
  foreach(src ${sources})
    set_property(SOURCE ${src} APPEND PROPERTY OBJECT_DEPENDS ${compiler})
    set(others ${sources})
    list(REMOVE_ITEM others ${src})
    list(TRANSFORM others PREPEND --program-source=)
    set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS ${others})
  endforeach()
  get_property(launcher GLOBAL PROPERTY POC_COMPILER_LAUNCHER)
  get_property(linker_launcher GLOBAL PROPERTY POC_LINKER_LAUNCHER)
  if(launcher)
    set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "${launcher}"
                                               CXX_LINKER_LAUNCHER "${linker_launcher}")
  endif()
endfunction()

function(poc_add_executable target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "poc_add_executable(${target}): no SOURCES")
  endif()
  add_executable(${target})
  _poc_setup(${target} PUBLIC SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS})
endfunction()

function(poc_add_library target)
  cmake_parse_arguments(ARG "STATIC;SHARED;OBJECT" "" "SOURCES;LIBS;PROCESS_CLASSES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "poc_add_library(${target}): no SOURCES")
  endif()
  set(kind STATIC)
  set(runtime_scope PUBLIC)
  if(ARG_SHARED)
    set(kind SHARED)
    set(runtime_scope INTERFACE)
  elseif(ARG_OBJECT)
    set(kind OBJECT)
  endif()
  add_library(${target} ${kind})
  _poc_setup(${target} ${runtime_scope} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS}
             PROCESS_CLASSES ${ARG_PROCESS_CLASSES})
endfunction()
