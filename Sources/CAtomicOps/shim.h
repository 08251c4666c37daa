/* The one header of libatomic_ops that Petal's core needs, as a SwiftPM system library. */
#include <atomic_ops.h>
