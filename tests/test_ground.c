/* test_ground.c -- small ground-floor helpers: the bump allocator
 * (polytope/arena.c) and sorting by a permutation (polytope/order.c). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/arena.h"
#include "polytope/order.h"
#include "tests/helpers.h"

/* Allocations are zeroed, aligned and distinct; grow copies the old items;
 * a reset reuses the blocks (the same addresses come back); allocations
 * larger than a block get a block of their own. */
START_TEST(arena_allocates_grows_and_resets)
{
    mem_arena a = {0};
    char *first = mem_arena_alloc(&a, 24);
    ck_assert_ptr_nonnull(first);
    for (int k = 0; k < 24; k++)
        ck_assert_int_eq(first[k], 0);
    memset(first, 7, 24);
    char *prev = first;
    for (int k = 0; k < 5000; k++) { /* several blocks */
        char *p = mem_arena_alloc(&a, (size_t)(1 + k % 100));
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq((uintptr_t)p % _Alignof(max_align_t), 0);
        ck_assert(p != prev);
        ck_assert_int_eq(p[0], 0);
        memset(p, 1, (size_t)(1 + k % 100));
        prev = p;
    }
    for (int k = 0; k < 24; k++)
        ck_assert_int_eq(first[k], 7); /* untouched by later allocations */
    int *v = mem_arena_grow(&a, NULL, 0, 3, sizeof(int));
    ck_assert_ptr_nonnull(v);
    v[0] = 1, v[1] = 2, v[2] = 3;
    ck_assert_ptr_eq(mem_arena_grow(&a, v, 3, 2, sizeof(int)), v); /* (no smaller) */
    int *w = mem_arena_grow(&a, v, 3, 1000, sizeof(int));
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(w[0], 1);
    ck_assert_int_eq(w[2], 3);
    double *big = mem_arena_alloc(&a, 1 << 20); /* beyond a block */
    ck_assert_ptr_nonnull(big);
    big[(1 << 17) - 1] = 1;
    ck_assert_ptr_null(mem_arena_grow(&a, NULL, 0, SIZE_MAX / 2, 8)); /* overflow refused */
    mem_arena_reset(&a);
    char *again = mem_arena_alloc(&a, 24);
    ck_assert_ptr_eq(again, first); /* the first block, reused */
    for (int k = 0; k < 24; k++)
        ck_assert_int_eq(again[k], 0);
    for (int k = 0; k < 5000; k++)
        ck_assert_ptr_nonnull(mem_arena_alloc(&a, (size_t)(1 + k % 100)));
    ck_assert_ptr_nonnull(mem_arena_alloc(&a, 1 << 20));
    mem_arena_free(&a);
    ck_assert_ptr_null(a.head);
    ck_assert_ptr_nonnull(mem_arena_strdup(&a, "abc", 2));
    ck_assert_str_eq(mem_arena_strdup(&a, "xyz", 3), "xyz");
    mem_arena_free(&a);
}
END_TEST

static int by_key(void *ctx, int i, int j)
{
    const int *key = ctx;
    return (key[i] > key[j]) - (key[i] < key[j]);
}

/* The permutation sorts (against a direct check), keeps ties in index
 * order, and order_holds accepts exactly the strictly increasing ones. */
START_TEST(order_sorts_by_a_permutation)
{
    uint64_t rng = 99;
    for (int round = 0; round < 200; round++) {
        int n = 1 + (int)(t_rng_next(&rng) % 300), range = round % 2 ? 20 : 1000000;
        int *key = malloc(sizeof(int) * (size_t)n), *perm = malloc(sizeof(int) * (size_t)n);
        int *tmp = malloc(sizeof(int) * (size_t)n), *seen = calloc((size_t)n, sizeof(int));
        for (int k = 0; k < n; k++)
            key[k] = (int)(t_rng_next(&rng) % (uint64_t)range);
        order_sort(n, by_key, key, perm, tmp);
        int strict = 1;
        for (int k = 0; k < n; k++) {
            ck_assert(perm[k] >= 0 && perm[k] < n && !seen[perm[k]]);
            seen[perm[k]] = 1;
            if (k > 0) {
                ck_assert_int_le(key[perm[k - 1]], key[perm[k]]);
                if (key[perm[k - 1]] == key[perm[k]])
                    ck_assert_int_lt(perm[k - 1], perm[k]); /* stable */
                strict &= key[perm[k - 1]] < key[perm[k]];
            }
        }
        ck_assert_int_eq(order_holds(n, by_key, key, perm), strict);
        if (n > 1) { /* a swap undoes it */
            int t = perm[0];
            perm[0] = perm[n - 1];
            perm[n - 1] = t;
            if (key[perm[0]] != key[perm[n - 1]])
                ck_assert_int_eq(order_holds(n, by_key, key, perm), 0);
        }
        free(key);
        free(perm);
        free(tmp);
        free(seen);
    }
}
END_TEST

Suite *suite_ground(void)
{
    Suite *s = suite_create("ground");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, arena_allocates_grows_and_resets);
    tcase_add_test(tc, order_sorts_by_a_permutation);
    suite_add_tcase(s, tc);
    return s;
}
