# poc_add_subdirectories([EXCLUDE <name...>])
# Adds every immediate subfolder of the current source folder that has a
# CMakeLists.txt, in name order. Folders own their build files, so a new
# test suite, benchmark, example or app needs no edit of its parent.
function(poc_add_subdirectories)
  cmake_parse_arguments(ARG "" "" "EXCLUDE" ${ARGN})
  file(GLOB entries LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT entries)
  foreach(dir ${entries})
    get_filename_component(name ${dir} NAME)
    if(IS_DIRECTORY ${dir} AND EXISTS ${dir}/CMakeLists.txt AND NOT name IN_LIST ARG_EXCLUDE)
      add_subdirectory(${dir})
    endif()
  endforeach()
endfunction()
