/*
 * The cell protocol on one thread: every phase transition and every query of petal.h, driven
 * step by step so that each expectation about the word can be pinned to a single call.
 */
#include "petal_test.h"

#include <string.h>

/* A waiter as a user of the core would write it: the node embedded in the owner. The node is
   the first member, so a node pointer converts back to its owner. */
typedef struct item {
    petal_node node;
    int id;
} item;

static item *item_of(petal_node *node) {
    return (item *)node;
}

static void items_init(item *items, int count) {
    for (int i = 0; i < count; i++) {
        items[i].node.next = NULL;
        items[i].id = i;
    }
}

/* Checks that `list` holds exactly the ids first..first+count-1, in that order. */
static void check_ids(petal_node *list, int first, int count) {
    int expected = first;
    for (petal_node *node = list; node != NULL; node = node->next) {
        CHECK(expected < first + count);
        if (expected >= first + count) return;
        CHECK(item_of(node)->id == expected);
        expected++;
    }
    CHECK(expected == first + count);
}

static void test_node_alignment(void) {
    /* The word keeps four tag bits below the node pointer; a misaligned node would corrupt them. */
    item items[3];
    CHECK(_Alignof(petal_node) >= 16);
    CHECK(_Alignof(item) >= 16);
    for (int i = 0; i < 3; i++) CHECK(((uintptr_t)&items[i].node & PETAL_TAG_MASK) == 0);
}

static void test_init_is_pending_and_empty(void) {
    petal_cell cell;
    memset(&cell, 0xA5, sizeof cell); /* garbage first: init must not rely on zeroed memory */
    petal_cell_init(&cell);
    petal_word word = petal_cell_load(&cell);
    CHECK((word & PETAL_PHASE_MASK) == PETAL_PHASE_PENDING);
    CHECK(petal_word_list(word) == NULL);
    CHECK(!petal_word_has_outcome(word));
    CHECK(!petal_word_is_resolved(word));
    CHECK(!petal_word_is_claimed(word));
    CHECK(petal_word_slot_free(word));
    CHECK(!petal_word_slot_ready(word));
    CHECK(!petal_word_has_waiters(word));

    /* The header promises that zeroed memory is a valid PENDING cell as well. */
    petal_cell zeroed = {0};
    CHECK(petal_cell_load(&zeroed) == word);
}

static void test_subscribe_pushes(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    item items[3];
    items_init(items, 3);
    petal_word observed = 0;
    petal_word before = petal_cell_load(&cell);
    for (int i = 0; i < 3; i++) {
        CHECK(petal_cell_subscribe(&cell, &items[i].node, &observed) == PETAL_SUBSCRIBED);
        CHECK(observed == before); /* the word the push replaced */
        petal_word now = petal_cell_load(&cell);
        CHECK(petal_word_list(now) == &items[i].node); /* newest first */
        CHECK((now & PETAL_PHASE_MASK) == PETAL_PHASE_PENDING);
        before = now;
    }
    /* LIFO links: 2 -> 1 -> 0. */
    CHECK(items[2].node.next == &items[1].node);
    CHECK(items[1].node.next == &items[0].node);
    CHECK(items[0].node.next == NULL);
}

static void test_claim_wins_once(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    item items[2];
    items_init(items, 2);
    petal_word observed;
    CHECK(petal_cell_subscribe(&cell, &items[0].node, &observed) == PETAL_SUBSCRIBED);

    CHECK(petal_cell_claim(&cell) == 1);
    petal_word claimed = petal_cell_load(&cell);
    CHECK((claimed & PETAL_PHASE_MASK) == PETAL_PHASE_CLAIMED);
    CHECK(petal_word_is_claimed(claimed));
    CHECK(!petal_word_has_outcome(claimed));
    CHECK(petal_word_list(claimed) == &items[0].node); /* the claim keeps the list */
    CHECK(petal_cell_claim(&cell) == 0);
    CHECK(petal_cell_load(&cell) == claimed); /* a losing claim changes nothing */

    /* Pushing stays open while CLAIMED. */
    CHECK(petal_cell_subscribe(&cell, &items[1].node, &observed) == PETAL_SUBSCRIBED);
    CHECK((petal_cell_load(&cell) & PETAL_PHASE_MASK) == PETAL_PHASE_CLAIMED);

    petal_word taken = petal_cell_publish(&cell, 1);
    CHECK(petal_word_has_waiters(taken));
    CHECK(petal_cell_claim(&cell) == 0); /* DELIVERING */
    check_ids(petal_list_in_order(taken), 0, 2);
    CHECK(petal_cell_take_more(&cell) == NULL);
    CHECK(petal_cell_claim(&cell) == 0); /* RESOLVED */
    CHECK(petal_word_is_resolved(petal_cell_load(&cell)));
}

static void test_publish_without_waiters_resolves(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    CHECK(petal_cell_claim(&cell) == 1);
    petal_word taken = petal_cell_publish(&cell, 2);
    CHECK(!petal_word_has_waiters(taken));
    CHECK(petal_word_list(taken) == NULL);
    CHECK((taken & PETAL_PHASE_MASK) == PETAL_PHASE_CLAIMED); /* the word publish replaced */
    petal_word word = petal_cell_load(&cell);
    CHECK(petal_word_is_resolved(word));
    CHECK(petal_word_has_outcome(word));
    CHECK(petal_word_kind(word) == 2);
    CHECK(petal_word_list(word) == NULL);
    CHECK(word == petal_word_resolved(2));
}

static void test_publish_with_waiters_delivers_in_order(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    enum { COUNT = 5 };
    item items[COUNT];
    items_init(items, COUNT);
    petal_word observed;
    for (int i = 0; i < COUNT; i++) {
        CHECK(petal_cell_subscribe(&cell, &items[i].node, &observed) == PETAL_SUBSCRIBED);
    }
    CHECK(petal_cell_claim(&cell) == 1);
    petal_word taken = petal_cell_publish(&cell, 3);
    CHECK(petal_word_has_waiters(taken));
    CHECK(!petal_word_slot_ready(taken));
    CHECK(petal_word_list(taken) == &items[COUNT - 1].node);

    petal_word word = petal_cell_load(&cell);
    CHECK((word & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING);
    CHECK(petal_word_has_outcome(word));
    CHECK(!petal_word_is_resolved(word));
    CHECK(petal_word_kind(word) == 3);
    CHECK(petal_word_list(word) == NULL); /* the publisher took the whole list */
    CHECK(!petal_word_slot_free(word));

    check_ids(petal_list_in_order(taken), 0, COUNT);
}

static void test_take_more_collects_late_subscribers(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    enum { EARLY = 2, LATE = 3, LATER = 2 };
    item items[EARLY + LATE + LATER];
    items_init(items, EARLY + LATE + LATER);
    petal_word observed;
    for (int i = 0; i < EARLY; i++) {
        CHECK(petal_cell_subscribe(&cell, &items[i].node, &observed) == PETAL_SUBSCRIBED);
    }
    CHECK(petal_cell_claim(&cell) == 1);
    petal_word taken = petal_cell_publish(&cell, 1);
    check_ids(petal_list_in_order(taken), 0, EARLY);

    /* Late subscribers queue behind the running batch instead of running themselves. */
    for (int i = EARLY; i < EARLY + LATE; i++) {
        CHECK(petal_cell_subscribe(&cell, &items[i].node, &observed) == PETAL_SUBSCRIBED);
        CHECK((observed & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING);
    }
    petal_node *batch = petal_cell_take_more(&cell);
    CHECK(batch != NULL);
    check_ids(batch, EARLY, LATE);
    petal_word word = petal_cell_load(&cell);
    CHECK((word & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING);
    CHECK(petal_word_list(word) == NULL);
    CHECK(petal_word_kind(word) == 1);

    for (int i = EARLY + LATE; i < EARLY + LATE + LATER; i++) {
        CHECK(petal_cell_subscribe(&cell, &items[i].node, &observed) == PETAL_SUBSCRIBED);
    }
    check_ids(petal_cell_take_more(&cell), EARLY + LATE, LATER);

    /* Nothing left: the deliverer finishes, and the kind survives into RESOLVED. */
    CHECK(petal_cell_take_more(&cell) == NULL);
    word = petal_cell_load(&cell);
    CHECK(petal_word_is_resolved(word));
    CHECK(petal_word_kind(word) == 1);
    CHECK(petal_word_list(word) == NULL);
}

static void test_subscribe_after_resolved_reports_it(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    CHECK(petal_cell_claim(&cell) == 1);
    petal_cell_publish(&cell, 2);
    petal_word terminal = petal_cell_load(&cell);

    item late;
    late.id = 99;
    late.node.next = (petal_node *)&late; /* a sentinel: a refused push must not link the node */
    petal_word observed = 0;
    CHECK(petal_cell_subscribe(&cell, &late.node, &observed) == PETAL_ALREADY_RESOLVED);
    CHECK(observed == terminal);
    CHECK(petal_word_is_resolved(observed));
    CHECK(petal_word_kind(observed) == 2);
    CHECK(late.node.next == (petal_node *)&late);
    CHECK(petal_cell_load(&cell) == terminal);
}

static void test_slot_reserve_commit_publish(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    petal_word observed = 0;
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 1);
    CHECK((observed & PETAL_SLOT_TAKEN) != 0);
    CHECK(!petal_word_slot_free(petal_cell_load(&cell)));
    CHECK(!petal_word_slot_ready(petal_cell_load(&cell))); /* reserved, not yet filled */

    /* The slot is used at most once. */
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 0);
    CHECK((observed & PETAL_SLOT_TAKEN) != 0);

    CHECK(petal_cell_commit_slot(&cell, &observed) == 1);
    CHECK(petal_word_slot_ready(observed));
    CHECK(petal_word_slot_ready(petal_cell_load(&cell)));
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 0);

    /* A list alongside the slot: the slot stays the oldest, and both survive the claim. */
    item items[2];
    items_init(items, 2);
    for (int i = 0; i < 2; i++) {
        CHECK(petal_cell_subscribe(&cell, &items[i].node, &observed) == PETAL_SUBSCRIBED);
    }
    CHECK(petal_word_slot_ready(petal_cell_load(&cell)));
    CHECK(petal_cell_claim(&cell) == 1);
    CHECK(petal_word_slot_ready(petal_cell_load(&cell)));

    petal_word taken = petal_cell_publish(&cell, 0);
    CHECK(petal_word_slot_ready(taken));
    CHECK(petal_word_has_waiters(taken));
    CHECK((petal_cell_load(&cell) & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING);
    check_ids(petal_list_in_order(taken), 0, 2);
    CHECK(petal_cell_take_more(&cell) == NULL);
    CHECK(petal_cell_load(&cell) == petal_word_resolved(0));
}

static void test_slot_alone_is_a_waiter(void) {
    /* A ready slot without any list still makes publish deliver rather than resolve. */
    petal_cell cell;
    petal_cell_init(&cell);
    petal_word observed;
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 1);
    CHECK(petal_cell_commit_slot(&cell, &observed) == 1);
    CHECK(petal_cell_claim(&cell) == 1);
    petal_word taken = petal_cell_publish(&cell, 2);
    CHECK(petal_word_slot_ready(taken));
    CHECK(petal_word_list(taken) == NULL);
    CHECK(petal_word_has_waiters(taken));
    petal_word word = petal_cell_load(&cell);
    CHECK((word & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING);
    CHECK(!petal_word_slot_ready(word)); /* the tag bits now hold the kind, not slot state */
    CHECK(petal_cell_take_more(&cell) == NULL);
    CHECK(petal_cell_load(&cell) == petal_word_resolved(2));
}

static void test_slot_reserved_during_claim(void) {
    /* CLAIMED is still unresolved: the slot can be reserved and committed until publish. */
    petal_cell cell;
    petal_cell_init(&cell);
    petal_word observed;
    CHECK(petal_cell_claim(&cell) == 1);
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 1);
    CHECK(petal_cell_commit_slot(&cell, &observed) == 1);
    CHECK(petal_word_is_claimed(observed));
    petal_word taken = petal_cell_publish(&cell, 1);
    CHECK(petal_word_slot_ready(taken));
}

static void test_slot_commit_after_publish_fails(void) {
    petal_cell cell;
    petal_cell_init(&cell);
    petal_word observed;
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 1);
    CHECK(petal_cell_claim(&cell) == 1);
    petal_word taken = petal_cell_publish(&cell, 3);
    /* The publisher skips a slot that is reserved but not committed. */
    CHECK((taken & PETAL_SLOT_TAKEN) != 0);
    CHECK(!petal_word_slot_ready(taken));
    CHECK(!petal_word_has_waiters(taken));
    CHECK(petal_word_is_resolved(petal_cell_load(&cell)));

    observed = 0;
    CHECK(petal_cell_commit_slot(&cell, &observed) == 0);
    CHECK(petal_word_has_outcome(observed));
    CHECK(petal_word_kind(observed) == 3);
    CHECK(petal_cell_load(&cell) == petal_word_resolved(3)); /* a failed commit writes nothing */

    /* The subscriber's fallback: subscribe with a node, which reports RESOLVED. */
    item fallback;
    items_init(&fallback, 1);
    CHECK(petal_cell_subscribe(&cell, &fallback.node, &observed) == PETAL_ALREADY_RESOLVED);
}

static void test_slot_commit_fails_while_delivering(void) {
    /* The same race with a list: the failed committer must queue behind the running batch. */
    petal_cell cell;
    petal_cell_init(&cell);
    item items[2];
    items_init(items, 2);
    petal_word observed;
    CHECK(petal_cell_reserve_slot(&cell, &observed) == 1);
    CHECK(petal_cell_subscribe(&cell, &items[0].node, &observed) == PETAL_SUBSCRIBED);
    CHECK(petal_cell_claim(&cell) == 1);
    petal_word taken = petal_cell_publish(&cell, 1);
    CHECK(!petal_word_slot_ready(taken));
    CHECK(petal_word_has_waiters(taken));
    check_ids(petal_list_in_order(taken), 0, 1);

    CHECK(petal_cell_commit_slot(&cell, &observed) == 0);
    CHECK(petal_word_has_outcome(observed));
    CHECK(!petal_word_is_resolved(observed));
    CHECK(petal_cell_subscribe(&cell, &items[1].node, &observed) == PETAL_SUBSCRIBED);
    check_ids(petal_cell_take_more(&cell), 1, 1);
    CHECK(petal_cell_take_more(&cell) == NULL);
    CHECK(petal_cell_load(&cell) == petal_word_resolved(1));
}

static void test_reserve_fails_after_publish(void) {
    petal_word observed;

    petal_cell resolved;
    petal_cell_init(&resolved);
    CHECK(petal_cell_claim(&resolved) == 1);
    petal_cell_publish(&resolved, 0);
    CHECK(petal_cell_reserve_slot(&resolved, &observed) == 0);
    CHECK(petal_word_is_resolved(observed));
    CHECK(petal_cell_load(&resolved) == petal_word_resolved(0));

    petal_cell delivering;
    petal_cell_init(&delivering);
    item waiter;
    items_init(&waiter, 1);
    CHECK(petal_cell_subscribe(&delivering, &waiter.node, &observed) == PETAL_SUBSCRIBED);
    CHECK(petal_cell_claim(&delivering) == 1);
    petal_cell_publish(&delivering, 0);
    petal_word before = petal_cell_load(&delivering);
    CHECK(petal_cell_reserve_slot(&delivering, &observed) == 0);
    CHECK(petal_word_has_outcome(observed));
    CHECK(petal_cell_load(&delivering) == before);
    CHECK(petal_cell_take_more(&delivering) == NULL);
}

static void test_kinds_round_trip(void) {
    for (unsigned kind = 0; kind <= PETAL_KIND_MAX; kind++) {
        /* Straight to RESOLVED. */
        petal_cell plain;
        petal_cell_init(&plain);
        CHECK(petal_cell_claim(&plain) == 1);
        petal_cell_publish(&plain, kind);
        CHECK(petal_word_kind(petal_cell_load(&plain)) == kind);
        CHECK(petal_cell_load(&plain) == petal_word_resolved(kind));

        /* Through DELIVERING, where the kind must survive take_more. */
        petal_cell cell;
        petal_cell_init(&cell);
        item items[2];
        items_init(items, 2);
        petal_word observed;
        CHECK(petal_cell_reserve_slot(&cell, &observed) == 1);
        CHECK(petal_cell_commit_slot(&cell, &observed) == 1);
        CHECK(petal_cell_subscribe(&cell, &items[0].node, &observed) == PETAL_SUBSCRIBED);
        CHECK(petal_cell_claim(&cell) == 1);
        petal_word taken = petal_cell_publish(&cell, kind);
        CHECK(petal_word_slot_ready(taken));
        CHECK(petal_word_kind(petal_cell_load(&cell)) == kind);
        CHECK(petal_cell_subscribe(&cell, &items[1].node, &observed) == PETAL_SUBSCRIBED);
        CHECK(petal_word_kind(observed) == kind);
        CHECK(petal_cell_take_more(&cell) != NULL);
        CHECK(petal_word_kind(petal_cell_load(&cell)) == kind);
        CHECK(petal_cell_take_more(&cell) == NULL);
        CHECK(petal_cell_load(&cell) == petal_word_resolved(kind));

        /* A container created already resolved. */
        petal_word word = petal_word_resolved(kind);
        CHECK(petal_word_is_resolved(word));
        CHECK(petal_word_has_outcome(word));
        CHECK(petal_word_is_claimed(word));
        CHECK(petal_word_kind(word) == kind);
        CHECK(petal_word_list(word) == NULL);
        CHECK(!petal_word_slot_free(word));
        petal_cell premade;
        premade.word = word;
        item late;
        items_init(&late, 1);
        CHECK(petal_cell_subscribe(&premade, &late.node, &observed) == PETAL_ALREADY_RESOLVED);
        CHECK(petal_word_kind(observed) == kind);
        CHECK(petal_cell_claim(&premade) == 0);
    }
}

int main(void) {
    RUN_TEST(test_node_alignment);
    RUN_TEST(test_init_is_pending_and_empty);
    RUN_TEST(test_subscribe_pushes);
    RUN_TEST(test_claim_wins_once);
    RUN_TEST(test_publish_without_waiters_resolves);
    RUN_TEST(test_publish_with_waiters_delivers_in_order);
    RUN_TEST(test_take_more_collects_late_subscribers);
    RUN_TEST(test_subscribe_after_resolved_reports_it);
    RUN_TEST(test_slot_reserve_commit_publish);
    RUN_TEST(test_slot_alone_is_a_waiter);
    RUN_TEST(test_slot_reserved_during_claim);
    RUN_TEST(test_slot_commit_after_publish_fails);
    RUN_TEST(test_slot_commit_fails_while_delivering);
    RUN_TEST(test_reserve_fails_after_publish);
    RUN_TEST(test_kinds_round_trip);
    return petal_test_finish("test_cell");
}
