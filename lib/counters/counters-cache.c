/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-run cache of counter names: see lib/counters-cache.h.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters-cache.h"

/* Chained hash table of a power-of-two size, grown at load 1. */
struct htab {
	void **b;
	size_t nb, n;
};

struct mlx_cstate {
	struct htab keys;           /* struct cnames, by (src, key) */
	struct htab lists;          /* struct clist, by (src, names) */
};

/* FNV-1a, 64 bit: short keys, no adversary (the names come from the
 * kernel of this host), so a simple hash does. */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;      /* terminator: "ab","c" != "a","bc" */
}

#define FNV_INIT 0xcbf29ce484222325ULL

static uint64_t key_hash(enum mlx_csrc src, const char *key)
{
	return fnv(FNV_INIT ^ (uint64_t)src, key);
}

static uint64_t list_hash(enum mlx_csrc src, char *const *names, size_t n)
{
	uint64_t h = FNV_INIT ^ (uint64_t)src ^ ((uint64_t)n << 8);

	for (size_t i = 0; i < n; i++)
		h = fnv(h, names[i]);
	return h;
}

/* Grow @t when full.  @next_of gives the chain link of an element and
 * @hash_of its hash. */
static int htab_grow(struct htab *t, void **(*next_of)(void *), uint64_t (*hash_of)(void *))
{
	size_t nb = t->nb ? t->nb * 2 : 64;
	void **b;

	if (t->n < t->nb)
		return 0;
	b = calloc(nb, sizeof(*b));
	if (!b)
		return t->nb ? 0 : -ENOMEM;    /* a full table still works, only slower */
	for (size_t i = 0; i < t->nb; i++) {
		void *e = t->b[i];

		while (e) {
			void *next = *next_of(e);
			size_t k = (size_t)(hash_of(e) & (nb - 1));

			*next_of(e) = b[k];
			b[k] = e;
			e = next;
		}
	}
	free(t->b);
	t->b = b;
	t->nb = nb;
	return 0;
}

static void **cn_next(void *e)
{
	return (void **)&((struct cnames *)e)->next;
}

static uint64_t cn_hash(void *e)
{
	const struct cnames *c = e;

	return key_hash(c->src, c->key);
}

static void **cl_next(void *e)
{
	return (void **)&((struct clist *)e)->next;
}

static uint64_t cl_hash(void *e)
{
	return ((struct clist *)e)->hash;
}

struct mlx_cstate *mlx_cstate_new(void)
{
	return calloc(1, sizeof(struct mlx_cstate));
}

static void strs_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void mlx_cstate_free(struct mlx_cstate *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->keys.nb; i++)
		for (struct cnames *c = st->keys.b[i], *next; c; c = next) {
			next = c->next;
			free(c);
		}
	for (size_t i = 0; i < st->lists.nb; i++)
		for (struct clist *l = st->lists.b[i], *next; l; l = next) {
			next = l->next;
			strs_free(l->names, l->n);
			free(l->m);
			free(l);
		}
	free(st->keys.b);
	free(st->lists.b);
	free(st);
}

struct cnames *cn_find(struct mlx_cstate *st, enum mlx_csrc src, const char *key)
{
	if (!st->keys.nb)
		return NULL;
	for (struct cnames *c = st->keys.b[key_hash(src, key) & (st->keys.nb - 1)]; c; c = c->next)
		if (c->src == src && !c->stale && !strcmp(c->key, key))
			return c;
	return NULL;
}

static bool names_equal(char *const *a, char *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

bool cn_same(const struct cnames *cn, char *const *names, size_t n)
{
	return cn && cn->n == n && names_equal(cn->names, names, n);
}

static int cmp_idx(const void *a, const void *b, void *arg)
{
	const struct clist *l = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(l->names[x], l->names[y]);

	return r ? r : (x > y) - (x < y);
}

/* Number the second and later counters of a name in @l (m[].dup): a
 * document keyed by name needs its keys unique.  Sorted indices, so a
 * listing of 2,000 names costs n log n compares once per run.  Out of
 * memory: no numbers (the keys may repeat, as the names do). */
static void number_dups(struct clist *l)
{
	size_t *ix;

	if (l->n < 2)
		return;
	ix = malloc(l->n * sizeof(*ix));
	if (!ix)
		return;
	for (size_t i = 0; i < l->n; i++)
		ix[i] = i;
	qsort_r(ix, l->n, sizeof(*ix), cmp_idx, l);
	for (size_t i = 1, run = 0; i < l->n; i++) {
		run = strcmp(l->names[ix[i]], l->names[ix[i - 1]]) ? 0 : run + 1;
		l->m[ix[i]].dup = (unsigned)run;
	}
	free(ix);
}

/* The shared listing equal to @names (which it then frees), or a new one
 * that takes them over. */
static struct clist *list_intern(struct mlx_cstate *st, enum mlx_csrc src, char **names, size_t n)
{
	uint64_t h = list_hash(src, names, n);
	struct clist *l;
	size_t k;

	if (st->lists.nb)
		for (l = st->lists.b[h & (st->lists.nb - 1)]; l; l = l->next)
			if (l->hash == h && l->src == src && l->n == n &&
			    names_equal(l->names, names, n)) {
				strs_free(names, n);
				return l;
			}
	if (htab_grow(&st->lists, cl_next, cl_hash) < 0)
		goto nomem;
	l = calloc(1, sizeof(*l));
	if (!l)
		goto nomem;
	l->m = calloc(n ? n : 1, sizeof(*l->m));
	if (!l->m) {
		free(l);
		goto nomem;
	}
	l->src = (uint8_t)src;
	l->hash = h;
	l->names = names;
	l->n = n;
	for (size_t i = 0; i < n; i++)
		mlx_cat_lookup(src, names[i], &l->m[i]);
	number_dups(l);
	k = (size_t)(h & (st->lists.nb - 1));
	l->next = st->lists.b[k];
	st->lists.b[k] = l;
	st->lists.n++;
	return l;
nomem:
	strs_free(names, n);
	return NULL;
}

struct cnames *cn_add(struct mlx_cstate *st, enum mlx_csrc src, const char *key,
		      char **names, size_t n, int err)
{
	struct cnames *old = cn_find(st, src, key), *c;
	const struct clist *l = NULL;
	size_t k;

	if (names) {
		l = list_intern(st, src, names, n);
		if (!l)
			return NULL;
	}
	if (htab_grow(&st->keys, cn_next, cn_hash) < 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->src = (uint8_t)src;
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->l = l;
	c->names = l ? l->names : NULL;
	c->m = l ? l->m : NULL;
	c->n = l ? l->n : 0;
	c->err = err;
	if (old)
		old->stale = true;
	k = (size_t)(key_hash(src, c->key) & (st->keys.nb - 1));
	c->next = st->keys.b[k];
	st->keys.b[k] = c;
	st->keys.n++;
	return c;
}
