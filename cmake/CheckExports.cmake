# CTest script: the shared library exports exactly the functions petal.h marks PETAL_API.
# Everything else (static functions, the static inline protocol, the trampoline's thread-local
# state) stays hidden by -fvisibility=hidden.
#
#   cmake -DNM=<nm> -DLIBRARY=<libpetal.so> -DHEADER=<petal.h> -P CheckExports.cmake

foreach(var IN ITEMS NM LIBRARY HEADER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckExports.cmake: pass -D${var}=...")
  endif()
endforeach()

file(STRINGS "${HEADER}" declarations REGEX "^PETAL_API ")
set(expected "")
foreach(declaration IN LISTS declarations)
  if(NOT declaration MATCHES "([A-Za-z_][A-Za-z0-9_]*)\\(")
    message(FATAL_ERROR "cannot find the function name in: ${declaration}")
  endif()
  list(APPEND expected "${CMAKE_MATCH_1}")
endforeach()
list(SORT expected)
if(NOT expected)
  message(FATAL_ERROR "no PETAL_API declarations found in ${HEADER}")
endif()

execute_process(
  COMMAND "${NM}" -D --defined-only --format=posix "${LIBRARY}"
  OUTPUT_VARIABLE nm_output
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_output}")
set(exported "")
foreach(line IN LISTS nm_lines)
  # posix format: "<name> <type> <value> [<size>]"; lower-case types are local symbols.
  if(line MATCHES "^([^ ]+) ([A-Z]) ")
    list(APPEND exported "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT exported)

set(extra ${exported})
list(REMOVE_ITEM extra ${expected})
# Symbols some linkers (gold, older bfd) define in every shared object: not Petal's code.
list(REMOVE_ITEM extra __bss_start _edata _end _init _fini)
set(missing ${expected})
list(REMOVE_ITEM missing ${exported})
list(LENGTH expected count)
if(extra OR missing)
  message(FATAL_ERROR "exported symbols of ${LIBRARY} differ from the PETAL_API functions of "
                      "petal.h\n  exported but not PETAL_API: ${extra}\n"
                      "  PETAL_API but not exported: ${missing}")
endif()
message(STATUS "${LIBRARY} exports exactly the ${count} PETAL_API functions: ${expected}")
