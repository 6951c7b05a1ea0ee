include(CMakeFindDependencyMacro)
find_dependency(poc CONFIG)
include(${CMAKE_CURRENT_LIST_DIR}/payTargets.cmake)
