# The CMake package of poc++: `find_package(poc CONFIG REQUIRED [COMPONENTS
# dataflow bdd])` (cmake/pocConfig.cmake.in says what it gives), for an
# installed tree and for this build tree alike. Only the full build makes it:
# the sanitizer build has no poc++.
include(CMakePackageConfigHelpers)
set(POC_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/poc)
# Export sets: the core (poc::), the stdlib (pocstd::) and one per optional
# component, each written for the install and for the build tree.
get_property(_poc_components GLOBAL PROPERTY POC_PACKAGE_COMPONENTS)
set(_poc_exports pocTargets poc pocstdTargets pocstd)
foreach(component ${_poc_components})
  list(APPEND _poc_exports poc_${component}_targets poc)
endforeach()
while(_poc_exports)
  list(POP_FRONT _poc_exports export namespace)
  install(EXPORT ${export} NAMESPACE ${namespace}:: DESTINATION ${POC_PACKAGE_DIR})
  export(EXPORT ${export} NAMESPACE ${namespace}:: FILE ${CMAKE_BINARY_DIR}/${export}.cmake)
endwhile()

# The installed config, and the build tree's (which reads PocCompiler.cmake
# from the source tree).
set(POC_COMPILER_MODULE_DIR "\${CMAKE_CURRENT_LIST_DIR}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pocConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/install/pocConfig.cmake
                              INSTALL_DESTINATION ${POC_PACKAGE_DIR})
set(POC_COMPILER_MODULE_DIR ${CMAKE_CURRENT_LIST_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pocConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/pocConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_BINARY_DIR})
# The toolchain file (docs/compiler.md section 8): poc++ and the LLVM tools
# of its Clang, for the install (relative to itself) and the build tree.
get_filename_component(POC_TOOLCHAIN_LLVM_BIN ${POC_SYSTEM_CXX} DIRECTORY)
file(RELATIVE_PATH _poc_bin_from_package /${POC_PACKAGE_DIR} /${CMAKE_INSTALL_BINDIR})
set(POC_TOOLCHAIN_CXX "\${CMAKE_CURRENT_LIST_DIR}/${_poc_bin_from_package}/poc++")
configure_file(${CMAKE_CURRENT_LIST_DIR}/poc-toolchain.cmake.in
               ${CMAKE_CURRENT_BINARY_DIR}/install/poc-toolchain.cmake @ONLY)
set(POC_TOOLCHAIN_CXX ${CMAKE_BINARY_DIR}/compiler/poc++)
configure_file(${CMAKE_CURRENT_LIST_DIR}/poc-toolchain.cmake.in
               ${CMAKE_BINARY_DIR}/poc-toolchain.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/pocConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/install/pocConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/install/poc-toolchain.cmake
              ${CMAKE_BINARY_DIR}/pocConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/PocCompiler.cmake
              ${CMAKE_CURRENT_LIST_DIR}/PocGoldenTest.cmake
              ${CMAKE_CURRENT_LIST_DIR}/PocGoldenTestRun.cmake
        DESTINATION ${POC_PACKAGE_DIR})

# `cmake --build BUILD --target poc_package` builds everything the install
# carries (README command 1 builds it too); cmake/PocInstall.cmake checks at
# install time that it was built.
add_custom_target(poc_package)
add_dependencies(poc_package ${POC_INSTALLED_TARGETS})
