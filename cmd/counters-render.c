/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A port's counters as `counters` shows them (issue 28), one renderer for
 * the text table and both JSON shapes:
 *
 *   text     a row per counter: NAME VALUE UNIT GROUP SOURCE DESCRIPTION
 *            (errors: USUALLY MEANS), as before schema 3;
 *   JSON     compact (the default since schema_version 3): per source an
 *            object of values keyed by name ("counters": {"ethtool":
 *            {"rx_packets": 123, ...}, "netdev": {...}}), and what is
 *            a property of the counter, not of the sample (unit, group,
 *            width, scale, labels, description, meaning) once in the
 *            document's "catalogue", for the counters it shows;
 *   --describe  schema 2's objects, one per counter with its catalogue
 *            entry folded in (name, value, unit, group, source, ...).
 *
 * A counter of 2,001 veths repeated its unit, group and description
 * 80,000 times: 14 MB where `ip -s -j link` prints 0.9 MB.  The catalogue
 * of such a document has some 40 entries.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "counters-phy.h"
#include "counters-views.h"

/* ---- the catalogue of a document ------------------------------------------ */

/* One entry: a counter name of a source, its key in the document. */
struct cat_ent {
	char *key;                       /* the name, "name#2" for a repeated one */
	const char *src;                 /* "ethtool", ..., "module", "fec" */
	const struct mlx_cat_match *m;   /* a catalogue counter, or NULL: */
	struct phy_row phy;              /* a phy row (its strings are static) */
	uint64_t hash;
};

struct cat_set {
	struct cat_ent *e;               /* in order of first appearance */
	size_t n, cap;
	uint32_t *byname;                /* open addressing: index + 1, 0 empty */
	size_t nb;
	/* the catalogue matches already entered: a pointer into a listing's
	 * matches is enough to know a counter (2,001 veths share two
	 * listings), so most counters cost a pointer lookup */
	const struct mlx_cat_match **byptr;
	size_t np, nptr;
	bool oom;
};

struct cat_set *cat_set_new(void)
{
	return calloc(1, sizeof(struct cat_set));
}

void cat_set_free(struct cat_set *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->n; i++)
		free(cs->e[i].key);
	free(cs->e);
	free(cs->byname);
	free(cs->byptr);
	free(cs);
}

bool cat_set_failed(const struct cat_set *cs)
{
	return cs && cs->oom;
}

static uint64_t hash_key(const char *src, const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *s = src; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	h = (h ^ '/') * 0x100000001b3ULL;
	for (const char *s = key; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* Double the name table (kept at most half full). */
static int grow_names(struct cat_set *cs)
{
	size_t nb = cs->nb ? cs->nb * 2 : 128;
	uint32_t *b = calloc(nb, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < cs->n; i++) {
		size_t k = (size_t)cs->e[i].hash & (nb - 1);

		while (b[k])
			k = (k + 1) & (nb - 1);
		b[k] = (uint32_t)i + 1;
	}
	free(cs->byname);
	cs->byname = b;
	cs->nb = nb;
	return 0;
}

/* Enter (@src, @key) unless there; false when out of memory. */
static bool cat_find_add(struct cat_set *cs, const char *src, const char *key,
			 const struct mlx_cat_match *m, const struct phy_row *w)
{
	uint64_t h = hash_key(src, key);
	struct cat_ent *e;
	size_t k;

	if (cs->oom)
		return false;
	if ((cs->n + 1) * 2 > cs->nb && grow_names(cs) < 0)
		goto nomem;
	for (k = (size_t)h & (cs->nb - 1); cs->byname[k]; k = (k + 1) & (cs->nb - 1)) {
		e = &cs->e[cs->byname[k] - 1];
		if (e->hash == h && !strcmp(e->src, src) && !strcmp(e->key, key))
			return true;
	}
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 64;
		struct cat_ent *ne = realloc(cs->e, cap * sizeof(*ne));

		if (!ne)
			goto nomem;
		cs->e = ne;
		cs->cap = cap;
	}
	e = &cs->e[cs->n];
	memset(e, 0, sizeof(*e));
	e->key = strdup(key);
	if (!e->key)
		goto nomem;
	e->src = src;
	e->m = m;
	if (w)
		e->phy = *w;
	e->hash = h;
	cs->byname[k] = (uint32_t)++cs->n;
	return true;
nomem:
	cs->oom = true;
	return false;
}

static size_t ptr_home(const struct mlx_cat_match *m, size_t np)
{
	return (size_t)(((uintptr_t)m >> 4) * 0x9e3779b97f4a7c15ULL) & (np - 1);
}

/* Whether @m was entered; else enter it (open addressing, at most half
 * full). */
static bool ptr_seen(struct cat_set *cs, const struct mlx_cat_match *m)
{
	size_t k;

	if ((cs->nptr + 1) * 2 > cs->np) {
		size_t np = cs->np ? cs->np * 2 : 256;
		const struct mlx_cat_match **b = calloc(np, sizeof(*b));

		if (!b) {
			cs->oom = true;
			return false;
		}
		for (size_t j = 0; j < cs->np; j++) {
			if (!cs->byptr[j])
				continue;
			for (k = ptr_home(cs->byptr[j], np); b[k]; k = (k + 1) & (np - 1))
				;
			b[k] = cs->byptr[j];
		}
		free(cs->byptr);
		cs->byptr = b;
		cs->np = np;
	}
	for (k = ptr_home(m, cs->np); cs->byptr[k]; k = (k + 1) & (cs->np - 1))
		if (cs->byptr[k] == m)
			return true;
	cs->byptr[k] = m;
	cs->nptr++;
	return false;
}

/* Counter @c is shown under @key. */
static void cat_add_counter(struct cat_set *cs, const struct mlx_counter *c, const char *key)
{
	if (!cs || cs->oom || ptr_seen(cs, c->m))
		return;
	cat_find_add(cs, mlx_csrc_name(c->src), key, c->m, NULL);
}

/* ---- rows ----------------------------------------------------------------- */

/* The description: the catalogue's text, or @buf holding it prefixed. */
static const char *describe(const struct mlx_cat_match *m, char *buf, size_t len)
{
	if (!m->e)
		return "(uncatalogued)";
	if (!m->prefix || !m->prefix[0])
		return m->e->desc;
	snprintf(buf, len, "%s%s", m->prefix, m->e->desc);
	return buf;
}

/* A counter's key in a document keyed by name: the name, "name#2" for
 * the second counter of that name in its listing. */
static const char *counter_key(const struct mlx_counter *c, char *buf, size_t len)
{
	if (!c->m->dup)
		return c->name;
	snprintf(buf, len, "%s#%u", c->name, c->m->dup + 1);
	return buf;
}

/* A phy row's name as text shows it, and its key: "bias lane 1". */
static const char *phy_name(const struct phy_row *w, char *buf, size_t len)
{
	if (!w->lane)
		return w->name;
	snprintf(buf, len, "%s lane %u", w->name, w->lane);
	return buf;
}

void cat_collect(struct cat_set *cs, const struct mlx_counter *c)
{
	char kbuf[300];

	cat_add_counter(cs, c, counter_key(c, kbuf, sizeof(kbuf)));
}

void cat_collect_phy(struct cat_set *cs, const struct phy_row *w)
{
	char name[48];

	if (cs)
		cat_find_add(cs, w->source, phy_name(w, name, sizeof(name)), NULL, w);
}

void crender_begin(struct crender *r, struct out *o, bool describe, bool meaning,
		   struct cat_set *cat)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->describe = describe && out_is_json(o);
	r->meaning = meaning;
	r->cat = cat;
	if (r->describe)
		out_table_begin(o, "counters");
	else
		out_keyed_begin(o, "counters");
}

/* Compact JSON: the object of source @src open for the next member. */
static void in_source(struct crender *r, const char *src)
{
	if (r->src && (r->src == src || !strcmp(r->src, src)))
		return;
	if (r->src)
		out_obj_end(r->o);
	out_obj_begin(r->o, src, NULL);
	r->src = src;
}

/* Schema 2's object of a catalogue counter (--describe). */
static void describe_counter(struct crender *r, const struct mlx_counter *c)
{
	struct out *o = r->o;
	char buf[400];
	const char *desc = describe(c->m, buf, sizeof(buf));

	out_row_begin(o);
	out_str(o, "name", NULL, c->name);
	if (c->valid)
		out_u64(o, "value", NULL, c->value);
	else
		out_null(o, "value", NULL);
	out_str(o, "unit", NULL, c->m->unit);
	out_str(o, "group", NULL, c->m->group);
	out_str(o, "source", NULL, mlx_csrc_name(c->src));
	if (c->m->scale > 1)
		out_u64(o, "raw_value", NULL, c->raw);
	out_bool(o, "catalogued", NULL, c->m->e != NULL);
	if (c->m->width)
		out_u64(o, "width", NULL, c->m->width);
	else
		out_null(o, "width", NULL);     /* uncatalogued: not known */
	out_obj_begin(o, "labels", NULL);
	for (unsigned l = 0; l < c->m->nlabels; l++)
		if (c->m->e)          /* uncatalogued: source and name are fields already */
			out_str(o, c->m->labels[l].name, NULL, c->m->labels[l].value);
	out_obj_end(o);
	out_str(o, "description", NULL, desc);
	if (r->meaning)
		out_str(o, "meaning", NULL, c->m->e && c->m->e->meaning ? c->m->e->meaning : desc);
	out_row_end(o);
}

void crender_counter(struct crender *r, const struct mlx_counter *c)
{
	struct out *o = r->o;
	char buf[400], kbuf[300];
	const char *desc, *key;

	if (r->describe) {
		describe_counter(r, c);
		return;
	}
	key = counter_key(c, kbuf, sizeof(kbuf));
	if (out_is_json(o)) {
		in_source(r, mlx_csrc_name(c->src));
		cat_add_counter(r->cat, c, key);
	}
	out_keyed_row_begin(o);
	out_text(o, "NAME", c->name);
	if (c->valid)
		out_u64(o, key, "VALUE", c->value);
	else
		out_null(o, key, "VALUE");
	if (!out_is_json(o)) {
		desc = describe(c->m, buf, sizeof(buf));
		out_text(o, "UNIT", c->m->unit);
		out_text(o, "GROUP", c->m->group);
		out_text(o, "SOURCE", mlx_csrc_name(c->src));
		if (r->meaning)
			out_text(o, "USUALLY MEANS",
				 c->m->e && c->m->e->meaning ? c->m->e->meaning : desc);
		else
			out_text(o, "DESCRIPTION", desc);
	}
	out_keyed_row_end(o);
}

void crender_phy(struct crender *r, const struct phy_row *w)
{
	struct out *o = r->o;
	char buf[48], desc[128];
	const char *name;

	if (r->describe) {
		phy_row_out(o, w);
		return;
	}
	name = phy_name(w, buf, sizeof(buf));
	if (out_is_json(o)) {
		in_source(r, w->source);
		cat_collect_phy(r->cat, w);
	}
	out_keyed_row_begin(o);
	out_text(o, "NAME", name);
	if (w->valid)
		out_s64(o, name, "VALUE", w->v);
	else
		out_null(o, name, "VALUE");
	if (!out_is_json(o)) {
		snprintf(desc, sizeof(desc), "%s%s", phy_row_desc(w), w->lane ? " (per lane)" : "");
		out_text(o, "UNIT", w->unit);
		out_text(o, "GROUP", "phy");
		out_text(o, "SOURCE", w->source);
		out_text(o, "DESCRIPTION", desc);
	}
	out_keyed_row_end(o);
}

void crender_end(struct crender *r)
{
	if (r->describe) {
		out_table_end(r->o);
		return;
	}
	if (r->src)
		out_obj_end(r->o);
	out_keyed_end(r->o);
}

/* ---- the catalogue ------------------------------------------------------------ */

static int src_rank(const char *a)
{
	static const char *const order[] = { "ethtool", "netdev", "hw_counters", "ib_counters",
					     "aer", "module", "fec" };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (!strcmp(a, order[i]))
			return (int)i;
	return 99;
}

/* One entry: text a row of --catalogue's table, JSON its object named by
 * the counter's key. */
static void out_entry(struct out *o, const struct cat_ent *e)
{
	char buf[400];

	out_keyed_row_begin(o);
	out_text(o, "NAME", e->key);
	out_text(o, "SOURCE", e->src);
	out_obj_begin(o, e->key, NULL);
	if (e->m) {
		const struct mlx_cat_match *m = e->m;
		const char *desc = describe(m, buf, sizeof(buf));

		out_str(o, "unit", "UNIT", m->unit);
		out_str(o, "group", "GROUP", m->group);
		out_bool(o, "catalogued", NULL, m->e != NULL);
		if (m->width)
			out_u64(o, "width", "WIDTH", m->width);
		else
			out_null(o, "width", "WIDTH");
		out_u64(o, "scale", NULL, m->scale ? m->scale : 1);
		out_bool(o, "gauge", NULL, (m->flags & MLX_CF_GAUGE) != 0);
		out_obj_begin(o, "labels", NULL);
		for (unsigned l = 0; l < m->nlabels; l++)
			if (m->e)
				out_str(o, m->labels[l].name, NULL, m->labels[l].value);
		out_obj_end(o);
		out_str(o, "description", "DESCRIPTION", desc);
		out_str(o, "meaning", NULL, m->e && m->e->meaning ? m->e->meaning : NULL);
	} else {
		const struct phy_row *w = &e->phy;

		snprintf(buf, sizeof(buf), "%s%s", phy_row_desc(w), w->lane ? " (per lane)" : "");
		out_str(o, "unit", "UNIT", w->unit);
		out_str(o, "group", "GROUP", "phy");
		out_bool(o, "catalogued", NULL, true);
		if (w->gauge)
			out_null(o, "width", "WIDTH");
		else
			out_u64(o, "width", "WIDTH", 64);
		out_u64(o, "scale", NULL, 1);
		out_bool(o, "gauge", NULL, w->gauge);
		out_obj_begin(o, "labels", NULL);
		if (w->lane)
			out_u64(o, "lane_number", NULL, w->lane);
		out_obj_end(o);
		out_str(o, "description", "DESCRIPTION", buf);
		out_null(o, "meaning", NULL);
	}
	out_obj_end(o);
	out_keyed_row_end(o);
}

static int cmp_ent(const void *a, const void *b, void *arg)
{
	const struct cat_set *cs = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int d = src_rank(cs->e[x].src) - src_rank(cs->e[y].src);

	return d ? d : (x > y) - (x < y);
}

void out_catalogue(struct out *o, const struct cat_set *cs)
{
	const char *cur = NULL;
	size_t *ix = NULL, n = cs ? cs->n : 0;

	out_keyed_begin(o, "catalogue");
	if (n && (ix = malloc(n * sizeof(*ix)))) {
		/* by source, in the order counters show them; within one, as
		 * the counters came */
		for (size_t i = 0; i < n; i++)
			ix[i] = i;
		qsort_r(ix, n, sizeof(*ix), cmp_ent, (void *)cs);
		for (size_t i = 0; i < n; i++) {
			const struct cat_ent *e = &cs->e[ix[i]];

			if (!cur || strcmp(cur, e->src)) {
				if (cur)
					out_obj_end(o);
				out_obj_begin(o, e->src, NULL);
				cur = e->src;
			}
			out_entry(o, e);
		}
		if (cur)
			out_obj_end(o);
	}
	free(ix);
	out_keyed_end(o);
}
