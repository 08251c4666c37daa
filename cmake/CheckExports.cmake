# CTest script: the shared library exports exactly the symbols Petal's headers mark PETAL_API:
# the functions of petal.h, and the trampoline's thread-local state that the inline fast paths of
# petal_trampoline_state.h read. Everything else (static functions, the static inline protocol)
# stays hidden by -fvisibility=hidden.
#
#   cmake -DNM=<nm> -DLIBRARY=<libpetal.so> -DHEADER_DIR=<Sources/CPetal/include> -P CheckExports.cmake

foreach(var IN ITEMS NM LIBRARY HEADER_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckExports.cmake: pass -D${var}=...")
  endif()
endforeach()

file(GLOB headers "${HEADER_DIR}/*.h")
set(expected "")
foreach(header IN LISTS headers)
  # One header at a time: a declaration ends in ';', which a list of several would split on.
  file(STRINGS "${header}" declarations REGEX "^PETAL_API ")
  foreach(declaration IN LISTS declarations)
    # A function (the name before its parameter list) or a variable (the name before the ';').
    if(declaration MATCHES "([A-Za-z_][A-Za-z0-9_]*)\\(")
      list(APPEND expected "${CMAKE_MATCH_1}")
    elseif(declaration MATCHES "([A-Za-z_][A-Za-z0-9_]*);")
      list(APPEND expected "${CMAKE_MATCH_1}")
    else()
      message(FATAL_ERROR "cannot find the symbol name in: ${declaration}")
    endif()
  endforeach()
endforeach()
list(SORT expected)
if(NOT expected)
  message(FATAL_ERROR "no PETAL_API declarations found in ${HEADER_DIR}")
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
# AddressSanitizer's one-definition-rule marker of each exported global variable (a build with
# -fsanitize=address adds one beside petal_callback_context_enabled): the sanitizer's, not Petal's.
list(FILTER extra EXCLUDE REGEX "^__odr_asan_gen_")
set(missing ${expected})
list(REMOVE_ITEM missing ${exported})
list(LENGTH expected count)
if(extra OR missing)
  message(FATAL_ERROR "exported symbols of ${LIBRARY} differ from the PETAL_API symbols of "
                      "${HEADER_DIR}\n  exported but not PETAL_API: ${extra}\n"
                      "  PETAL_API but not exported: ${missing}")
endif()
message(STATUS "${LIBRARY} exports exactly the ${count} PETAL_API symbols: ${expected}")
