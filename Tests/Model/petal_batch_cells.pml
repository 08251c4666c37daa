/*
 * petal_batch_cells.pml - the stops' cells of a batch of promises (PromiseBatch,
 * Sources/Petal/Combining/PromiseBatchStorage.swift, installCells): made by the first
 * registration of a stop, so that a batch that registers none allocates none, and installed by
 * one compare-and-swap of the cells' word from 0 to their address. A registration loads the
 * word; if it is 0, it makes cells of its own and tries to install them; the loser of that race
 * frees its own and uses the winner's. What happens in a cell once it is found (the slot's
 * arming, the stop written and taken) is petal_batch.pml's.
 *
 * Processes: three registrations, of different slots, racing from a batch with no cells.
 *
 * Checked: cells are installed once, and those are never freed while the batch lives; every
 * registration writes into the installed cells, never into cells freed or never installed;
 * every registration that made cells of its own and lost frees them (none leak). Seeded bugs
 * (must fail): STORE_NOT_CAS (the cells installed by a plain store: a later registration's
 * replace them under the first's), KEEP_OWN (a loser writes into its own cells, which nobody
 * else reads), FREE_WINNER (a loser frees the cells it found installed).
 */
/* The function of PromiseBatchStorage that moves the cells' word (Scripts/check-model-conformance):
   @driver installed_cells
     Swift PromiseBatchStorage.installCells()
*/
byte cells = 0;     /* the cells' word: 0, or the number (1-3) of the cells installed */
byte made[4];       /* cells i made */
byte freed[4];      /* cells i freed */
byte writes[4];     /* registrations that wrote into cells i */
byte done = 0;

proctype Register(byte me) {
    byte seen = 0, mine = 0;
    seen = cells;  /* the load (ACQUIRE) */
    if
    :: seen != 0 -> mine = seen
    :: else ->
        made[me]++;
#ifdef STORE_NOT_CAS
        cells = me; mine = me
#else
        atomic {  /* @step installed_cells: cellsWord */
            if :: cells == 0 -> cells = me; mine = me :: else -> seen = cells fi
        }
        if
        :: mine == 0 ->
#ifdef FREE_WINNER
            freed[seen]++; mine = seen
#else
#ifdef KEEP_OWN
            mine = me
#else
            freed[me]++; mine = seen
#endif
#endif
        :: else -> skip
        fi
#endif
    fi;
    atomic { assert(mine != 0 && freed[mine] == 0); writes[mine]++ };
    done++
}

init {
    byte i = 1;
    atomic { run Register(1); run Register(2); run Register(3) }
    done == 3;
    assert(cells != 0 && freed[cells] == 0);
    do
    :: i < 4 ->
        /* Only the installed cells are written into; every other cells made were freed. */
        assert(writes[i] == 0 || i == cells);
        assert(i == cells || made[i] == freed[i]);
        i++
    :: else -> break
    od
}
