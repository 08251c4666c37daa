/*
 * The hooks that the Swift module's ground floor (Sources/Petal/Core) calls and the floors
 * above it implement, each with @_cdecl under the name declared here: Core declares what it
 * needs and names nothing of Cancellation, Observing or Diagnostics; each of those plugs in.
 * They are bound when the module links, so a hook costs a direct call and no registration has to
 * happen before the first future exists. Every hook but the deadline's runs on a cold path only
 * (a future with a cancellation record, a wait parked on it, a failure nobody observed).
 *
 * Not part of the C API: this header is in the Clang module CPetal only, never installed for C
 * programs, and the core's C code never calls these.
 */
#ifndef PETAL_SWIFT_HOOKS_H
#define PETAL_SWIFT_HOOKS_H

#include <stdint.h>

#include "petal_cell_layout.h"
#include "petal_swift_flags.h"

#if defined(__clang__)
#  pragma clang assume_nonnull begin
#endif

/* A future holding an attachment (the retained object whose address is in its header's
 * cancellation slot, passed as that word) was resolved: the attachment lets go of what only a
 * pending future needs. Called by the resolving thread after its publish, before any callback
 * runs. Implemented by Cancellation. */
void petal_swift_attachment_resolved(petal_word attachment);

/* A cell published with PARKED set: wake the threads and tasks waiting for it. Called by the
 * resolving or delivering thread once the cell is RESOLVED. Implemented by Observing, the only
 * code that sets PARKED. */
void petal_swift_unpark(petal_cell *cell);

/* A future whose failure nobody observed is being freed: `failure` points to Core's
 * UnobservedFailure, valid during the call only. Implemented by Diagnostics. */
void petal_swift_unobserved_failure(const void *failure);

/* Something a promise reports (`report` points to Core's PromiseReport: the promise's creation
 * site, its value type, and a repeated resolution or the promise's abandonment), valid during
 * the call only. Implemented by Diagnostics. */
void petal_swift_promise_report(const void *report);

/* The number a failure of the promise's future records as its site (`report` as above, its
 * event a failure), so that an unobserved failure names the promise; 0 if none can be given.
 * Implemented by Diagnostics. */
uint32_t petal_swift_failure_site(const void *report);

/* The deadline the running task binds with a task-local (the async Deadline.withValue), written
 * into `slot` as petal_swift_flags.h lays it out (clock unretained: the binding holds it while
 * this runs); returns 0, leaving `slot` alone, when the task binds none. Called by a capture
 * with deadlines in use and none bound on the thread's own slot: a warm path, where a hook's
 * direct call replaces a carrier's existential dispatch and value witnesses. Implemented by
 * Deadlines. */
int petal_swift_deadline_task_bound(petal_deadline_slot *slot);

#if defined(__clang__)
#  pragma clang assume_nonnull end
#endif

#endif
