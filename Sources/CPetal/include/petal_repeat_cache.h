/*
 * petal_repeat_cache.h - a repeated resolution counted in a few instructions: the losers of a
 * resolution race, under Petal's default diagnostics, bump their creation site's count and
 * return, instead of taking the whole report (a key built, the site table probed, the handler
 * read: about 220 instructions a loss, callgrind).
 *
 * Why it is enough to count: the default handler tells only a site's first report, and a thread
 * caches a site only after its report was counted there (so the site has a first). Why it stays
 * exact: the count added to is the site's own word in the diagnostics tally, the one every full
 * report adds to, with the same atomic add. Why per thread: the cache is written only by its
 * thread, so a hit costs no shared write but the count itself.
 *
 * Not part of the C API: this header is in the Clang module CPetal only, never installed for C
 * programs, and the core's C code never reads it.
 */
#ifndef PETAL_REPEAT_CACHE_H
#define PETAL_REPEAT_CACHE_H

#include "petal_atomics.h"
#include "petal_trampoline_state.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A creation site this thread has counted a repeat at: its #fileID text and line, and the
   site's count word in the diagnostics tally (which lives as long as the process). */
typedef struct petal_repeat_site {
    const void *file;
    uintptr_t line;
    petal_atomic_word *count;
} petal_repeat_site;

/* Sites per thread: direct-mapped by line, so a few racing sites in one program stay cached. */
#define PETAL_REPEAT_CACHE_SITES 4u

typedef struct petal_repeat_cache {
    petal_repeat_site sites[PETAL_REPEAT_CACHE_SITES];
} petal_repeat_cache;

/* This thread's cache; zero-initialised (no site), touched by this thread only. */
PETAL_API extern PETAL_THREAD_LOCAL petal_repeat_cache petal_repeat_cache_current;

/* Non-zero while counting alone is enough: the default handler is installed. Starts at 1;
   Diagnostics clears it (FULL) before it installs another handler, which must see every report.
   Read with ACQUIRE, though only its own value matters: a thread that read 1 just before the
   clear counts as the default handler it read would have (it tells no report after a site's
   first). */
PETAL_API extern petal_atomic_word petal_repeat_counting_enabled;

/* The cache entry for a site at `line` on this thread. */
PETAL_INLINE petal_repeat_site *petal_repeat_cache_entry(uintptr_t line) {
    return &petal_repeat_cache_current.sites[line & (PETAL_REPEAT_CACHE_SITES - 1)];
}

/* Counts a repeat at (file, line) if this thread has the site cached; returns 1 if it did. FULL
   (the add), as every count of the tally: the site's fields, claimed before its first count,
   stay ordered before every count a reader sees. */
PETAL_INLINE int petal_repeat_cache_count(const void *file, uintptr_t line) {
    petal_repeat_site *site = petal_repeat_cache_entry(line);
    if (site->file != file || site->line != line || site->count == NULL) return 0;
    (void)petal_atomic_fetch_add_full(&site->count->value, (petal_word)1);
    return 1;
}

/* A repeat at (file, line), counted here if counting alone is enough and this thread has the
   site cached; returns 1 if it was, 0 if the caller must report it in full. */
PETAL_INLINE int petal_repeat_count_cached(const void *file, uintptr_t line) {
    if (petal_atomic_word_load(&petal_repeat_counting_enabled) == 0) return 0;
    return petal_repeat_cache_count(file, line);
}

/* Caches (file, line) with its count word on this thread, after a full report counted there. */
PETAL_INLINE void petal_repeat_cache_fill(const void *file, uintptr_t line, petal_atomic_word *count) {
    petal_repeat_site *site = petal_repeat_cache_entry(line);
    site->file = file;
    site->line = line;
    site->count = count;
}

/* The flag's address, for Swift (which may not name a mutable C global from concurrent code). */
PETAL_INLINE petal_atomic_word *petal_repeat_counting_flag(void) {
    return &petal_repeat_counting_enabled;
}

#ifdef __cplusplus
}
#endif

#endif /* PETAL_REPEAT_CACHE_H */
