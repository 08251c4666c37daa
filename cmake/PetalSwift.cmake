# Swift support for Petal's CMake build: where swiftc puts things on this platform, and how the
# Petal module is installed. Included by the top-level CMakeLists.txt once Swift is enabled.

# The platform directory of Swift libraries (linux, macosx, ...) and the triple swiftc looks for
# inside a module directory (Petal.swiftmodule/<module triple>.swiftmodule), as the compiler
# itself reports them.
function(petal_swift_target_info platform_var module_triple_var)
  execute_process(
    COMMAND "${CMAKE_Swift_COMPILER}" -print-target-info
    OUTPUT_VARIABLE info
    RESULT_VARIABLE result
    ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "'${CMAKE_Swift_COMPILER} -print-target-info' failed: ${error}")
  endif()
  string(JSON platform GET "${info}" target platform)
  string(JSON module_triple GET "${info}" target moduleTriple)
  set(${platform_var} "${platform}" PARENT_SCOPE)
  set(${module_triple_var} "${module_triple}" PARENT_SCOPE)
endfunction()

# Installs a Swift library target and its module the way the Swift toolchain and its CMake
# projects (swift-collections, swift-system) lay them out:
#
#   <dir>/<platform>/lib<Name>.so | .a
#   <dir>/<platform>/<Name>.swiftmodule/<module triple>.swiftmodule   (+ .swiftdoc)
#
# where <dir> is lib/swift for a shared library and lib/swift_static for a static one. The
# target's INTERFACE_INCLUDE_DIRECTORIES must name <dir>/<platform> for importers (see
# petal_swift_install_dir).
function(petal_install_swift_module target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXPORT;DESTINATION;MODULE_TRIPLE" "")
  get_target_property(module_name ${target} Swift_MODULE_NAME)
  get_target_property(module_dir ${target} Swift_MODULE_DIRECTORY)
  install(TARGETS ${target} EXPORT ${arg_EXPORT}
    ARCHIVE DESTINATION "${arg_DESTINATION}"
    LIBRARY DESTINATION "${arg_DESTINATION}"
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  foreach(ext IN ITEMS swiftmodule swiftdoc)
    install(FILES "${module_dir}/${module_name}.${ext}"
      DESTINATION "${arg_DESTINATION}/${module_name}.swiftmodule"
      RENAME "${arg_MODULE_TRIPLE}.${ext}")
  endforeach()
endfunction()

# lib/swift/<platform> for shared Swift libraries, lib/swift_static/<platform> for static ones.
function(petal_swift_install_dir target platform out_var)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    set(${out_var} "lib/swift_static/${platform}" PARENT_SCOPE)
  else()
    set(${out_var} "lib/swift/${platform}" PARENT_SCOPE)
  endif()
endfunction()
