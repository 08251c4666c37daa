# CTest script: the C libraries reference no symbol of libatomic_ops. The core's atomics are
# libatomic_ops' inline operations, which compile to instructions where the processor has them,
# so libpetal needs libatomic_ops' headers to be built and nothing of it to be linked: that is
# why petal.pc and the Petal::CPetal targets name no libatomic_ops at all. On a processor where
# libatomic_ops emulates an operation in its library (with locks), this check fails, and the
# libraries then need libatomic_ops at link time (Libs.private in petal.pc, a LINK_ONLY
# dependency of Petal::CPetal): fail here rather than in a consumer's link.
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
    if(line MATCHES "^(_?AO_[A-Za-z0-9_]*) ")
      list(APPEND needed "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(needed)
    list(REMOVE_DUPLICATES needed)
    message(FATAL_ERROR "${library} needs libatomic_ops at link time (${needed}): its atomics "
                        "are not inline on this platform, so petal.pc and Petal::CPetal must "
                        "link libatomic_ops (see this script's opening comment)")
  endif()
  message(STATUS "${library} references no libatomic_ops symbol")
endforeach()
