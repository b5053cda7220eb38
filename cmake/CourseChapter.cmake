# How a chapter becomes targets.
#
# A chapter's exercises are listed once, in chapters/NN_topic/exercises.tsv (id, function,
# file, title); this file, the `course` script and CI all read that list.
#
# Every exercise file is compiled once per variant (solutions/ and exercises/), as an object
# library; chapter model code and main.cpp are compiled once. Executables are then *linked*
# from the variant each one needs, which is cheap:
#   ch00            main + model code + solutions of chapters <= 00   (the reference run)
#   ch00_mine       main + model code + the learner's exercises of chapters <= 00 (--mine)
#   ch00_tests      all tests of chapter 00 against the reference (registered with ctest)
#   check_00_softmax  the tests of exercise 00.1 against the learner's softmax.cpp and the
#                     reference for everything else (docs/design.md: a check judges one exercise)
#   mutant_00_softmax_no_max_subtraction  the same tests against a plausible mistake (CI)

set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)

# A target that compiles with the project's flags and the shared precompiled header.
function(course_use_toolkit target)
  target_link_libraries(${target} PRIVATE xt_deps)
  target_precompile_headers(${target} REUSE_FROM attn_common)
endfunction()

# The same for test code: the tests' own precompiled header (doctest and the checks), and -O1
# in optimised builds. Test code only calls the toolkit and the chapters, which keep -O2; at
# -O1 the test files compile a third faster (xtensor's templates make them heavy), and every
# value they compute is the same, as no -O level reorders floating-point arithmetic here.
function(course_use_test_toolkit target)
  target_link_libraries(${target} PRIVATE xt_deps doctest::doctest)
  target_compile_options(${target} PRIVATE ${COURSE_TEST_OPTIMIZATION})
  target_precompile_headers(${target} REUSE_FROM course_test_support)
endfunction()
set(COURSE_TEST_OPTIMIZATION $<$<CONFIG:Release>:-O1>)

# Reads chapters/NN_topic/exercises.tsv: sets <prefix>_IDS, <prefix>_FUNCTIONS and
# <prefix>_FILES (lists in file order) in the caller's scope; fails loudly on a bad line.
function(course_read_exercises manifest prefix)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest})
  if(NOT EXISTS ${manifest})
    message(FATAL_ERROR "${manifest} is missing: every chapter lists its exercises there (docs/extending.md)")
  endif()
  file(STRINGS ${manifest} lines ENCODING UTF-8)
  set(ids "")
  set(functions "")
  set(files "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    if(NOT line MATCHES "^([0-9][0-9]\\.[0-9]+)\t([a-z_0-9]+)\t([a-z_0-9]+\\.cpp)\t(.+)$")
      message(FATAL_ERROR "${manifest}: '${line}' is not 'NN.M<TAB>function<TAB>file.cpp<TAB>title'")
    endif()
    list(APPEND ids ${CMAKE_MATCH_1})
    list(APPEND functions ${CMAKE_MATCH_2})
    list(APPEND files ${CMAKE_MATCH_3})
  endforeach()
  set(${prefix}_IDS ${ids} PARENT_SCOPE)
  set(${prefix}_FUNCTIONS ${functions} PARENT_SCOPE)
  set(${prefix}_FILES ${files} PARENT_SCOPE)
endfunction()

# add_course_chapter(SOURCES a.cpp ... DEPENDS 00 ...), called from chapters/NN_topic/: the
# chapter's number and name come from its folder, its exercises from exercises.tsv there.
function(add_course_chapter)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  get_filename_component(dir ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  if(NOT dir MATCHES "^([0-9][0-9])_([a-z_0-9]+)$")
    message(FATAL_ERROR "chapter folder '${dir}' must be named NN_topic")
  endif()
  set(id ${CMAKE_MATCH_1})
  set(name ${CMAKE_MATCH_2})

  # Every chapter this one stands on, itself included, in course order.
  set(closure "")
  foreach(dep IN LISTS ARG_DEPENDS)
    get_property(dep_closure GLOBAL PROPERTY COURSE_CH${dep}_CLOSURE)
    if(NOT DEFINED dep_closure OR dep_closure STREQUAL "")
      message(FATAL_ERROR "chapter ${id} depends on chapter ${dep}, which is not declared before it")
    endif()
    list(APPEND closure ${dep_closure})
  endforeach()
  list(APPEND closure ${id})
  list(REMOVE_DUPLICATES closure)
  list(SORT closure)

  course_read_exercises(${CMAKE_CURRENT_SOURCE_DIR}/exercises.tsv EX)
  set(functions "")
  list(LENGTH EX_IDS count)
  foreach(index RANGE 1 ${count})
    if(count EQUAL 0)
      break()
    endif()
    math(EXPR index "${index} - 1")
    list(GET EX_IDS ${index} exercise_id)
    list(GET EX_FUNCTIONS ${index} fn)
    list(GET EX_FILES ${index} file)
    if(NOT exercise_id MATCHES "^${id}\\.")
      message(FATAL_ERROR "${dir}/exercises.tsv: exercise ${exercise_id} does not belong to chapter ${id}")
    endif()
    list(APPEND functions ${fn})
    add_library(sol_${id}_${fn} OBJECT ${PROJECT_SOURCE_DIR}/solutions/${dir}/${file})
    course_use_toolkit(sol_${id}_${fn})
    if(COURSE_WITH_EXERCISES)
      add_library(mine_${id}_${fn} OBJECT ${PROJECT_SOURCE_DIR}/exercises/${dir}/${file})
      course_use_toolkit(mine_${id}_${fn})
    endif()
  endforeach()

  if(ARG_SOURCES)
    add_library(model_${id} OBJECT ${ARG_SOURCES})
    course_use_toolkit(model_${id})
  endif()
  add_library(main_${id} OBJECT main.cpp)
  course_use_toolkit(main_${id})

  set_property(GLOBAL PROPERTY COURSE_CH${id}_CLOSURE ${closure})
  set_property(GLOBAL PROPERTY COURSE_CH${id}_DIR ${dir})
  set_property(GLOBAL PROPERTY COURSE_CH${id}_FUNCTIONS ${functions})
  set_property(GLOBAL PROPERTY COURSE_CH${id}_IDS ${EX_IDS})
  set_property(GLOBAL PROPERTY COURSE_CH${id}_FILES ${EX_FILES})
  set_property(GLOBAL PROPERTY COURSE_CH${id}_HAS_MODEL ${ARG_SOURCES})

  course_objects(ref_objects ${id} sol "" "")
  add_executable(ch${id} $<TARGET_OBJECTS:main_${id}> ${ref_objects})
  target_link_libraries(ch${id} PRIVATE attn_common)
  if(COURSE_WITH_EXERCISES)
    course_mine_objects(mine_objects stand_ins ${id})
    # The program learns which exercises the reference code stands in for from a generated file
    # (rewritten only when the list changes, so an edit elsewhere relinks nothing).
    string(REPLACE ";" " " stand_ins_text "${stand_ins}")
    set(stand_ins_source ${PROJECT_BINARY_DIR}/generated/reference_stand_ins_${id}.cpp)
    file(CONFIGURE OUTPUT ${stand_ins_source} CONTENT
"// Generated by cmake/CourseChapter.cmake (course_mine_objects): the exercises of earlier chapters
// for which ch${id}_mine runs the reference code, the learner's being still stubs.
#include \"common/cli.hpp\"
namespace {
[[maybe_unused]] const bool noted = attn::set_reference_stand_ins(\"@stand_ins_text@\");
}  // namespace
" @ONLY)
    add_executable(ch${id}_mine $<TARGET_OBJECTS:main_${id}> ${mine_objects} ${stand_ins_source})
    target_link_libraries(ch${id}_mine PRIVATE attn_common)
  endif()
endfunction()

# The object files of chapter `id` and every chapter it stands on, in one variant
# ("sol" or "mine"); exercise `swap_fn` of chapter `id` is replaced by `swap_target`.
# The objects of chapter ID's --mine program: the learner's code for every exercise, except those of
# earlier chapters that are still stubs (their file still holds COURSE_TODO("NN.M")): the reference
# code runs for those, so a learner who starts mid-course can run their own chapter. The ones this
# chapter calls (chapters/NN_topic/earlier_exercises.tsv, tools/exercise_uses) go to OUT_STAND_INS.
# Every earlier exercise file is a configure dependency: solving one relinks with the learner's code.
function(course_mine_objects out out_stand_ins id)
  get_property(closure GLOBAL PROPERTY COURSE_CH${id}_CLOSURE)
  get_property(own_dir GLOBAL PROPERTY COURSE_CH${id}_DIR)
  set(called_file ${PROJECT_SOURCE_DIR}/chapters/${own_dir}/earlier_exercises.tsv)
  set(called "")
  if(EXISTS ${called_file})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${called_file})
    file(STRINGS ${called_file} lines REGEX "^[0-9][0-9]\\.[0-9]+\t")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "\t.*" "" exercise_id "${line}")
      list(APPEND called ${exercise_id})
    endforeach()
  endif()
  set(objects "")
  set(stand_ins "")
  foreach(ch IN LISTS closure)
    get_property(functions GLOBAL PROPERTY COURSE_CH${ch}_FUNCTIONS)
    get_property(ids GLOBAL PROPERTY COURSE_CH${ch}_IDS)
    get_property(files GLOBAL PROPERTY COURSE_CH${ch}_FILES)
    get_property(dir GLOBAL PROPERTY COURSE_CH${ch}_DIR)
    get_property(has_model GLOBAL PROPERTY COURSE_CH${ch}_HAS_MODEL)
    if(has_model)
      list(APPEND objects $<TARGET_OBJECTS:model_${ch}>)
    endif()
    list(LENGTH functions count)
    foreach(index RANGE 1 ${count})
      if(count EQUAL 0)
        break()
      endif()
      math(EXPR index "${index} - 1")
      list(GET functions ${index} fn)
      list(GET ids ${index} exercise_id)
      list(GET files ${index} file)
      set(variant mine)
      if(NOT ch STREQUAL id)
        set(source ${PROJECT_SOURCE_DIR}/exercises/${dir}/${file})
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
        set(text "")
        if(EXISTS ${source})
          file(READ ${source} text)
        endif()
        if(text MATCHES "COURSE_TODO\\(\"")
          set(variant sol)
          if(exercise_id IN_LIST called)
            list(APPEND stand_ins ${exercise_id})
          endif()
        endif()
      endif()
      list(APPEND objects $<TARGET_OBJECTS:${variant}_${ch}_${fn}>)
    endforeach()
  endforeach()
  set(${out} ${objects} PARENT_SCOPE)
  set(${out_stand_ins} ${stand_ins} PARENT_SCOPE)
endfunction()

function(course_objects out id variant swap_fn swap_target)
  get_property(closure GLOBAL PROPERTY COURSE_CH${id}_CLOSURE)
  set(objects "")
  foreach(ch IN LISTS closure)
    get_property(functions GLOBAL PROPERTY COURSE_CH${ch}_FUNCTIONS)
    get_property(has_model GLOBAL PROPERTY COURSE_CH${ch}_HAS_MODEL)
    if(has_model)
      list(APPEND objects $<TARGET_OBJECTS:model_${ch}>)
    endif()
    foreach(fn IN LISTS functions)
      if(ch STREQUAL id AND fn STREQUAL swap_fn)
        if(swap_target)
          list(APPEND objects $<TARGET_OBJECTS:${swap_target}>)
        endif()
      else()
        list(APPEND objects $<TARGET_OBJECTS:${variant}_${ch}_${fn}>)
      endif()
    endforeach()
  endforeach()
  set(${out} ${objects} PARENT_SCOPE)
endfunction()

# add_course_tests(EXTRA test_learning_x.cpp ...), called from tests/NN_topic/: the chapter
# comes from the folder's name. Exercise tests follow the exercise names (test_softmax.cpp
# tests 00.1); the mutants are every tests/mutants/NN_topic/FUNCTION.MISTAKE.mutant.
function(add_course_tests)
  cmake_parse_arguments(ARG "" "" "EXTRA" ${ARGN})
  get_filename_component(dir ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  string(SUBSTRING ${dir} 0 2 id)
  get_property(chapter_dir GLOBAL PROPERTY COURSE_CH${id}_DIR)
  if(NOT chapter_dir STREQUAL dir)
    message(FATAL_ERROR "tests/${dir} has no chapter: chapters/${dir} must exist and come first")
  endif()
  get_property(functions GLOBAL PROPERTY COURSE_CH${id}_FUNCTIONS)

  set(test_objects "")
  foreach(fn IN LISTS functions)
    add_library(testobj_${id}_${fn} OBJECT ${CMAKE_CURRENT_SOURCE_DIR}/test_${fn}.cpp)
    course_use_test_toolkit(testobj_${id}_${fn})
    list(APPEND test_objects $<TARGET_OBJECTS:testobj_${id}_${fn}>)
  endforeach()

  # The reference test binary: every test of the chapter, solutions everywhere.
  course_objects(ref_objects ${id} sol "" "")
  add_executable(ch${id}_tests ${test_objects} ${ARG_EXTRA} ${ref_objects})
  course_use_test_toolkit(ch${id}_tests)
  target_link_libraries(ch${id}_tests PRIVATE course_test_support attn_common)
  doctest_discover_tests(ch${id}_tests TEST_PREFIX "ch${id}: "
    PROPERTIES LABELS "ch${id}" ENVIRONMENT "OPENBLAS_NUM_THREADS=1")

  # One check binary per exercise: that exercise's learner file, the reference elsewhere.
  if(COURSE_WITH_EXERCISES)
    foreach(fn IN LISTS functions)
      course_objects(objects ${id} sol ${fn} mine_${id}_${fn})
      add_executable(check_${id}_${fn} $<TARGET_OBJECTS:testobj_${id}_${fn}> ${objects})
      target_link_libraries(check_${id}_${fn} PRIVATE course_test_support attn_common)
    endforeach()
  endif()

  # Mutants: a plausible mistake built in place of the solution; the tests must catch it.
  if(COURSE_WITH_MUTANTS)
    file(GLOB patches CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/mutants/${dir}/*.mutant)
    foreach(patch IN LISTS patches)
      get_filename_component(mutant ${patch} NAME_WLE)
      string(REPLACE "." ";" parts ${mutant})
      list(GET parts 0 fn)
      list(GET parts 1 mistake)
      if(NOT fn IN_LIST functions)
        message(FATAL_ERROR "${patch}: ${fn} is not an exercise of chapter ${id} (exercises.tsv)")
      endif()
      set(src ${PROJECT_BINARY_DIR}/mutants/${dir}/${mutant}.cpp)
      course_write_mutant(${patch} ${PROJECT_SOURCE_DIR}/solutions/${dir}/${fn}.cpp ${src})
      course_objects(objects ${id} sol ${fn} "")
      add_executable(mutant_${id}_${fn}_${mistake} ${src} $<TARGET_OBJECTS:testobj_${id}_${fn}> ${objects})
      course_use_toolkit(mutant_${id}_${fn}_${mistake})
      target_link_libraries(mutant_${id}_${fn}_${mistake} PRIVATE course_test_support attn_common)
    endforeach()
  endif()
endfunction()

# Applies a .mutant patch (tests/mutants/README.md) to a solution file and writes the result.
function(course_write_mutant patch solution out)
  course_write_variant(${patch} ${solution} ${out} mutant MUTANT)
endfunction()

# The same for any variant of a solution: the patch's block after '--- solution' is replaced
# by its block after '+++ KIND' (bench/what_if/ uses KIND = what-if), and the written file
# starts with a comment naming HEADER, the patch and its first line, then the lines of an
# optional last argument (e.g. an #include the new block needs).
function(course_write_variant patch solution out kind header)
  set(prelude "${ARGN}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${patch} ${solution})
  file(READ ${patch} text)
  file(READ ${solution} code)
  string(FIND "${text}" "\n--- solution\n" at_old)
  string(FIND "${text}" "\n+++ ${kind}\n" at_new)
  if(at_old EQUAL -1 OR at_new EQUAL -1)
    message(FATAL_ERROR "${patch}: expected a '--- solution' and a '+++ ${kind}' line")
  endif()
  string(LENGTH "\n+++ ${kind}\n" marker_length)
  math(EXPR old_start "${at_old} + 14")
  math(EXPR old_length "${at_new} - ${old_start} + 1")   # keep the old block's last newline
  math(EXPR new_start "${at_new} + ${marker_length}")
  string(SUBSTRING "${text}" 0 ${at_old} why)
  string(SUBSTRING "${text}" ${old_start} ${old_length} old_lines)
  string(SUBSTRING "${text}" ${new_start} -1 new_lines)
  string(FIND "${code}" "${old_lines}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "${patch}: the solution ${solution} no longer contains the lines this ${kind} replaces")
  endif()
  string(REPLACE "${old_lines}" "${new_lines}" mutated "${code}")
  file(WRITE ${out} "// ${header}, generated from ${patch}: ${why}\n${prelude}${mutated}")
endfunction()
