# CTest script: the C libraries reference no symbol of an atomics library. The core's atomics are
# inline operations on either backend (petal_atomics.h): libatomic_ops' compile to instructions
# where the processor has them, and the C11 backend insists on lock-free atomics, which the
# compiler emits inline. So libpetal needs the atomics' headers to be built and nothing to be
# linked: that is why petal.pc and the Petal::CPetal targets name no atomics library at all. Where
# an operation is emulated in a library instead (libatomic_ops' AO_* with locks, or libatomic's
# __atomic_* calls), this check fails, and the libraries would need that library at link time
# (Libs.private in petal.pc, a LINK_ONLY dependency of Petal::CPetal): fail here rather than in a
# consumer's link.
#
#   cmake -DNM=<nm> -DSTATIC_LIBRARY=<libpetal.a> [-DSHARED_LIBRARY=<libpetal.so>] -P CheckAtomicsInline.cmake

foreach(var IN ITEMS NM STATIC_LIBRARY)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "CheckAtomicsInline.cmake: pass -D${var}=...")
  endif()
endforeach()

set(libraries "${STATIC_LIBRARY}")
if(DEFINED SHARED_LIBRARY AND NOT "${SHARED_LIBRARY}" STREQUAL "")
  list(APPEND libraries "${SHARED_LIBRARY}")
endif()

foreach(library IN LISTS libraries)
  execute_process(
    COMMAND "${NM}" -u --format=posix "${library}"
    OUTPUT_VARIABLE nm_output
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${NM} -u ${library} failed")
  endif()
  string(REPLACE "\n" ";" nm_lines "${nm_output}")
  set(needed "")
  foreach(line IN LISTS nm_lines)
    # posix format: "<name> U ..."; Mach-O names carry a leading underscore.
    if(line MATCHES "^(_?AO_[A-Za-z0-9_]*|_?__atomic_[A-Za-z0-9_]*) ")
      list(APPEND needed "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(needed)
    list(REMOVE_DUPLICATES needed)
    message(FATAL_ERROR "${library} needs an atomics library at link time (${needed}): its atomics "
                        "are not inline on this platform, so petal.pc and Petal::CPetal must "
                        "link it (see this script's opening comment)")
  endif()
  message(STATUS "${library} references no libatomic_ops or libatomic symbol")
endforeach()
