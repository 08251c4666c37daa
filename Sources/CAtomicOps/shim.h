/* The one header of libatomic_ops that Petal's core can use, as a SwiftPM system library. Where
   it is missing, this module stays empty and the core builds on C11 atomics (petal_atomics.h). */
#if defined(__has_include)
#  if __has_include(<atomic_ops.h>)
#    include <atomic_ops.h>
#  endif
#endif
