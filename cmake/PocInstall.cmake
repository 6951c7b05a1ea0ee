# What `cmake --install` carries, and the check that it was all built.
#
# POC_INSTALLED_TARGETS lists every built file the install copies; the
# package's `poc_package` target (PocPackage.cmake) builds them. The check
# below is the install's first step, so an install of a partly built tree
# copies nothing and says what to build, instead of failing half-way.
include_guard(GLOBAL)
set(POC_INSTALLED_TARGETS poc++ poc_runtime poc_persist poc-store pocstd_pagedevice pocstd_array
                          dataflow_core bdd_core)
# Only the full build installs (the sanitizer build has no poc++).
if(POC_BUILD_COMPILER)
  set(_poc_installed_files)
  foreach(target ${POC_INSTALLED_TARGETS})
    list(APPEND _poc_installed_files "$<TARGET_FILE:${target}>")
  endforeach()
  install(CODE "
    foreach(file ${_poc_installed_files})
      if(NOT EXISTS \"\${file}\")
        message(FATAL_ERROR \"poc++: '\${file}' is not built, so nothing was installed; \"
                            \"run 'cmake --build ${CMAKE_BINARY_DIR} --target poc_package' first\")
      endif()
    endforeach()" ALL_COMPONENTS)
endif()

# poc_install_component(<name> TARGETS <library...> HEADERS <folder...>)
#
# Installs an optional component of the package: its static libraries in
# the export set poc_<name>_targets (imported as poc::<EXPORT_NAME>) and
# each header folder under include/. `find_package(poc COMPONENTS <name>)`
# loads it.
function(poc_install_component name)
  cmake_parse_arguments(ARG "" "" "TARGETS;HEADERS" ${ARGN})
  install(TARGETS ${ARG_TARGETS} EXPORT poc_${name}_targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  foreach(folder ${ARG_HEADERS})
    install(DIRECTORY ${folder} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY POC_PACKAGE_COMPONENTS ${name})
endfunction()
