# Building process-oriented programs with poc++ (docs/compiler.md).
#
# poc_add_executable(<target> SOURCES <src...> [LIBS <libs...>])
# poc_add_library(<target> STATIC SOURCES <src...> [LIBS <libs...>])
#
# Each source is translated at build time by
# `poc++ --translate-only SRC -o GEN.cpp` (with a depfile, so editing a
# header re-translates), and the generated files are compiled as ordinary
# C++ and linked to poc::runtime. Every source of the target is also passed
# to each translation as --program-source, so that a class created remotely
# in one file is known to be remotable in the others.
include_guard(GLOBAL)

function(_poc_translate target out_var)
  # The compiler: the build tree's poc++ target, or the installed package's
  # imported poc::poc++ (this file serves both).
  if(TARGET poc++)
    set(compiler poc++)
  else()
    set(compiler poc::poc++)
  endif()
  set(generated)
  set(all_abs)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND all_abs ${abs})
  endforeach()
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  foreach(abs ${all_abs})
    get_filename_component(name ${abs} NAME_WE)
    set(gen ${CMAKE_CURRENT_BINARY_DIR}/poc_gen/${target}/${name}.poc.cpp)
    set(others ${all_abs})
    list(REMOVE_ITEM others ${abs})
    set(other_flags)
    foreach(o ${others})
      list(APPEND other_flags --program-source ${o})
    endforeach()
    add_custom_command(
      OUTPUT ${gen}
      COMMAND ${compiler} --translate-only ${abs} -o ${gen} --depfile ${gen}.d
              ${other_flags}
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
      DEPENDS ${all_abs} ${compiler}
      DEPFILE ${gen}.d
      COMMENT "poc++: translating ${name}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND generated ${gen})
  endforeach()
  set(${out_var} ${generated} PARENT_SCOPE)
endfunction()

function(_poc_setup target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  # Quoted includes of the user's sources resolve from their directories.
  set(dirs ${CMAKE_CURRENT_SOURCE_DIR})
  foreach(src ${ARG_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    list(APPEND dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  target_include_directories(${target} PRIVATE ${dirs})
  target_link_libraries(${target} PUBLIC poc::runtime ${ARG_LIBS})
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()

function(poc_add_executable target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "poc_add_executable(${target}): no SOURCES")
  endif()
  add_executable(${target})
  _poc_translate(${target} generated ${ARG_SOURCES})
  target_sources(${target} PRIVATE ${generated})
  _poc_setup(${target} ${ARGN})
endfunction()

function(poc_add_library target)
  cmake_parse_arguments(ARG "STATIC" "" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "poc_add_library(${target}): no SOURCES")
  endif()
  add_library(${target} STATIC)
  _poc_translate(${target} generated ${ARG_SOURCES})
  target_sources(${target} PRIVATE ${generated})
  _poc_setup(${target} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS})
endfunction()
