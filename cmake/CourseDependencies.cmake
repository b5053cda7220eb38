# Finding the course's dependencies, with messages a learner can act on.

option(COURSE_ALLOW_UNTESTED_VERSIONS
       "Build against a dependency version outside the tested ranges (a warning instead of an error)" OFF)

# course_find_dependency(NAME OLDEST NEWEST PACKAGE): finds NAME's CMake package in whatever
# version is installed, then holds it to OLDEST .. NEWEST, where NEWEST counts every release
# that begins with it (0.27 takes 0.27.1, 14 takes 14.3). find_package's own version check
# cannot do this: xsimd's version file accepts only its own major version, so
# find_package(xsimd 8) turns away xsimd 13 with a message that names no supported range.
# A macro, not a function: the packages' configs set variables the build reads
# (BLAS_LIBRARIES; doctest's module path).
macro(course_find_dependency name oldest newest package)
  find_package(${name} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR
      "${name} was not found. Install it with ./course setup (on Debian and Ubuntu it is the "
      "package ${package}; ./course setup prints the commands for other systems), or point "
      "CMAKE_PREFIX_PATH at the folder it is installed in.")
  endif()
  # The found version cut to as many parts as NEWEST has: 0.27.1 -> 0.27, 14.3.0 -> 14.
  string(REGEX MATCHALL "[0-9]+" _course_newest_parts "${newest}")
  list(LENGTH _course_newest_parts _course_parts)
  string(REGEX MATCHALL "[0-9]+" _course_found_parts "${${name}_VERSION}")
  list(SUBLIST _course_found_parts 0 ${_course_parts} _course_found_parts)
  string(REPLACE ";" "." _course_found_cut "${_course_found_parts}")
  if(${name}_VERSION VERSION_LESS ${oldest} OR _course_found_cut VERSION_GREATER ${newest})
    string(CONCAT _course_message
      "${name} ${${name}_VERSION} (found in ${${name}_DIR}) is outside the versions the course "
      "is built and tested with: ${oldest} to ${newest}.x. Install a supported version "
      "(./course setup names them for each system)")
    if(COURSE_ALLOW_UNTESTED_VERSIONS)
      message(WARNING "${_course_message}. Building anyway (COURSE_ALLOW_UNTESTED_VERSIONS).")
    else()
      message(FATAL_ERROR
        "${_course_message}, or configure with -DCOURSE_ALLOW_UNTESTED_VERSIONS=ON to try it anyway.")
    endif()
  else()
    message(STATUS "Found ${name} ${${name}_VERSION} (the course supports ${oldest} to ${newest}.x)")
  endif()
endmacro()

# course_choose_cxx_standard(): C++17, unless the found xtensor (or its xtl) asks for C++20, as
# xtensor 0.26 and later do through their targets' compile features.
macro(course_choose_cxx_standard)
  set(CMAKE_CXX_STANDARD 17)
  foreach(_course_target IN ITEMS xtensor xtl)
    if(TARGET ${_course_target})
      get_target_property(_course_features ${_course_target} INTERFACE_COMPILE_FEATURES)
      if("${_course_features}" MATCHES "cxx_std_20")
        set(CMAKE_CXX_STANDARD 20)
      endif()
    endif()
  endforeach()
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(CMAKE_CXX_EXTENSIONS OFF)
  message(STATUS "C++ standard: C++${CMAKE_CXX_STANDARD} (what xtensor ${xtensor_VERSION} requires)")
endmacro()
