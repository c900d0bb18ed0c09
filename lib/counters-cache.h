/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-run cache of counter names (struct mlx_cstate, private to
 * lib/counters*.c): which names each (source, key) has, catalogued.
 *
 * Two hash tables, because both numbers get large: keys (an ifname, an
 * "mlx5_0/1", a BDF: one per port and source, 4,000 for 2,000 netdevs) and
 * listings (a list of names with its catalogue matches).  Ports whose
 * names are the same (every veth, every port of one ConnectX model at one
 * channel count) share one listing, so the catalogue is matched once per
 * distinct list rather than once per port, and the matches (some 300
 * bytes each) are held once.
 */
#ifndef MLX_COUNTERS_CACHE_H
#define MLX_COUNTERS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"

/* One catalogued list of names; never freed before the state (samples
 * point into it). */
struct clist {
	uint8_t src;
	uint64_t hash;
	char **names;
	struct mlx_cat_match *m;
	size_t n;
	struct clist *next;         /* hash chain */
};

/* The names of one source of one key. */
struct cnames {
	uint8_t src;
	bool stale;                 /* replaced by a newer listing */
	char key[128];              /* ifname, "mlx5_0/1", BDF, "rtnl/24" */
	const struct clist *l;      /* NULL when the listing failed */
	/* l's fields, for brevity at the users */
	char *const *names;
	const struct mlx_cat_match *m;
	size_t n;
	int err;                    /* listing failed: do not retry each sample */
	bool netlink;               /* ethtool names from netlink */
	struct cnames *next;        /* hash chain */
};

/* The current (not stale) entry of (src, key), or NULL. */
struct cnames *cn_find(struct mlx_cstate *st, enum mlx_csrc src, const char *key);
/* A new listing for (src, key) from @names (n strings, taken over and
 * freed here, also on failure); a previous entry of the key turns stale
 * but stays allocated for the samples that point into it.  NULL: out of
 * memory. */
struct cnames *cn_add(struct mlx_cstate *st, enum mlx_csrc src, const char *key,
		      char **names, size_t n, int err);
/* Whether the current listing of (src, key) is exactly @names. */
bool cn_same(const struct cnames *cn, char *const *names, size_t n);

#endif
