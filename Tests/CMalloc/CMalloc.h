/* glibc's <malloc.h>, for mallinfo2 in the soak test; empty where there is no such header. */
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
