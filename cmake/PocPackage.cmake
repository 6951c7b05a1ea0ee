# The CMake package of an installed poc++: `find_package(poc CONFIG REQUIRED)`
# (cmake/pocConfig.cmake.in says what it gives). Only the full build
# installs it: the sanitizer build has no poc++.
include(CMakePackageConfigHelpers)
set(POC_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/poc)
install(EXPORT pocTargets NAMESPACE poc:: DESTINATION ${POC_PACKAGE_DIR})
install(EXPORT pocstdTargets NAMESPACE pocstd:: DESTINATION ${POC_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pocConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/pocConfig.cmake
                              INSTALL_DESTINATION ${POC_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/pocConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pocConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/pocConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/PocCompiler.cmake
        DESTINATION ${POC_PACKAGE_DIR})
