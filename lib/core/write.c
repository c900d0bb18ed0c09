/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The write engine (lib/write.h): one order of steps for every write, so
 * no feature can read before it locks, forget a read-back, or put things
 * back in an order of its own.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lock.h"
#include "write.h"

struct mlx_val mlx_val_null(void)
{
	struct mlx_val v = { .kind = MLX_VAL_NULL };

	return v;
}

struct mlx_val mlx_val_uint(uint64_t u)
{
	struct mlx_val v = { .kind = MLX_VAL_UINT, .u = u };

	return v;
}

struct mlx_val mlx_val_int(int64_t i)
{
	struct mlx_val v = { .kind = MLX_VAL_INT, .i = i };

	return v;
}

struct mlx_val mlx_val_bool(bool b)
{
	struct mlx_val v = { .kind = MLX_VAL_BOOL, .b = b };

	return v;
}

struct mlx_val mlx_val_str(const char *s)
{
	struct mlx_val v = { .kind = MLX_VAL_STR };
	/* not snprintf: a state of 2,048 functions makes tens of thousands */
	size_t n = strnlen(s, sizeof(v.s) - 1);

	memcpy(v.s, s, n);
	v.s[n] = '\0';
	return v;
}

struct mlx_val mlx_val_u8list(const uint8_t *p, size_t n)
{
	struct mlx_val v = { .kind = MLX_VAL_U8LIST };

	v.n = (uint8_t)(n < MLX_VAL_LIST_MAX ? n : MLX_VAL_LIST_MAX);
	memcpy(v.u8, p, v.n);
	return v;
}

struct mlx_val mlx_val_u32list(const uint32_t *p, size_t n)
{
	struct mlx_val v = { .kind = MLX_VAL_U32LIST };

	v.n = (uint8_t)(n < 8 ? n : 8);
	memcpy(v.u32, p, v.n * sizeof(*p));
	return v;
}

struct mlx_val mlx_val_strlist(const char *const *p, size_t n)
{
	struct mlx_val v = { .kind = MLX_VAL_STRLIST };

	v.n = (uint8_t)(n < 8 ? n : 8);
	for (size_t i = 0; i < v.n; i++)
		snprintf(v.sl[i], sizeof(v.sl[i]), "%s", p[i]);
	return v;
}

bool mlx_val_eq(const struct mlx_val *a, const struct mlx_val *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case MLX_VAL_NULL:
		return true;
	case MLX_VAL_UINT:
		return a->u == b->u;
	case MLX_VAL_INT:
		return a->i == b->i;
	case MLX_VAL_BOOL:
		return a->b == b->b;
	case MLX_VAL_STR:
		return !strcmp(a->s, b->s);
	case MLX_VAL_U8LIST:
		return a->n == b->n && !memcmp(a->u8, b->u8, a->n);
	case MLX_VAL_U32LIST:
		return a->n == b->n && !memcmp(a->u32, b->u32, a->n * sizeof(a->u32[0]));
	case MLX_VAL_STRLIST:
		if (a->n != b->n)
			return false;
		for (size_t i = 0; i < a->n; i++)
			if (strcmp(a->sl[i], b->sl[i]))
				return false;
		return true;
	}
	return false;
}

void mlx_val_fmt(const struct mlx_val *v, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	buf[0] = '\0';
	switch (v->kind) {
	case MLX_VAL_NULL:
		snprintf(buf, len, "unknown");
		break;
	case MLX_VAL_UINT:
		snprintf(buf, len, "%" PRIu64, v->u);
		break;
	case MLX_VAL_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		break;
	case MLX_VAL_BOOL:
		snprintf(buf, len, "%s", v->b ? "on" : "off");
		break;
	case MLX_VAL_STR:
		snprintf(buf, len, "%s", v->s);
		break;
	case MLX_VAL_U8LIST:
	case MLX_VAL_U32LIST:
	case MLX_VAL_STRLIST:
		if (!v->n)
			snprintf(buf, len, "none");
		for (size_t i = 0; i < v->n && o < len; i++) {
			const char *sep = i ? "," : "";

			if (v->kind == MLX_VAL_STRLIST)
				o += (size_t)snprintf(buf + o, len - o, "%s%s", sep, v->sl[i]);
			else if (v->kind == MLX_VAL_U8LIST && v->u8[i] == MLX_VAL_U8_NONE)
				o += (size_t)snprintf(buf + o, len - o, "%s-", sep);
			else
				o += (size_t)snprintf(buf + o, len - o, "%s%" PRIu32, sep,
						      v->kind == MLX_VAL_U8LIST ? v->u8[i] : v->u32[i]);
		}
		break;
	}
}

/* The journal's spelling of a value: a kind letter, then the payload in
 * hex where it may hold blanks. */
static int hex_out(const void *p, size_t n, char *buf, size_t len)
{
	static const char d[] = "0123456789abcdef";
	const unsigned char *b = p;

	if (2 * n + 1 > len)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = d[b[i] >> 4];
		buf[2 * i + 1] = d[b[i] & 15];
	}
	buf[2 * n] = '\0';
	return 0;
}

static int hex_in(const char *s, void *p, size_t cap, size_t *n)
{
	size_t l = strlen(s);
	unsigned char *b = p;

	if (l % 2 || l / 2 > cap)
		return -EBADMSG;
	for (size_t i = 0; i < l / 2; i++) {
		int v = 0;

		for (int k = 0; k < 2; k++) {
			char c = s[2 * i + (size_t)k];

			v <<= 4;
			if (c >= '0' && c <= '9')
				v |= c - '0';
			else if (c >= 'a' && c <= 'f')
				v |= c - 'a' + 10;
			else
				return -EBADMSG;
		}
		b[i] = (unsigned char)v;
	}
	*n = l / 2;
	return 0;
}

int mlx_val_encode(const struct mlx_val *v, char *buf, size_t len)
{
	if (len < 2)
		return -ENOSPC;
	switch (v->kind) {
	case MLX_VAL_NULL:
		return snprintf(buf, len, "n") < (int)len ? 0 : -ENOSPC;
	case MLX_VAL_UINT:
		return snprintf(buf, len, "u%" PRIu64, v->u) < (int)len ? 0 : -ENOSPC;
	case MLX_VAL_INT:
		return snprintf(buf, len, "i%" PRId64, v->i) < (int)len ? 0 : -ENOSPC;
	case MLX_VAL_BOOL:
		return snprintf(buf, len, "b%d", v->b) < (int)len ? 0 : -ENOSPC;
	case MLX_VAL_STR:
		buf[0] = 's';
		return hex_out(v->s, strlen(v->s), buf + 1, len - 1);
	case MLX_VAL_U8LIST:
		buf[0] = '8';
		return hex_out(v->u8, v->n, buf + 1, len - 1);
	case MLX_VAL_U32LIST:
		buf[0] = '4';
		return hex_out(v->u32, v->n * sizeof(v->u32[0]), buf + 1, len - 1);
	case MLX_VAL_STRLIST:
		buf[0] = 'l';
		return hex_out(v->sl, v->n * sizeof(v->sl[0]), buf + 1, len - 1);
	}
	return -EINVAL;
}

int mlx_val_decode(const char *t, struct mlx_val *v)
{
	char *end;
	size_t n = 0;
	int r = 0;

	memset(v, 0, sizeof(*v));
	switch (t[0]) {
	case 'n':
		v->kind = MLX_VAL_NULL;
		return t[1] ? -EBADMSG : 0;
	case 'u':
		/* digits only: strtoull would take blanks, a sign, "-1" */
		v->kind = MLX_VAL_UINT;
		if (t[1] < '0' || t[1] > '9')
			return -EBADMSG;
		errno = 0;
		v->u = strtoull(t + 1, &end, 10);
		return errno || *end ? -EBADMSG : 0;
	case 'i':
		v->kind = MLX_VAL_INT;
		if ((t[1] < '0' || t[1] > '9') && (t[1] != '-' || t[2] < '0' || t[2] > '9'))
			return -EBADMSG;
		errno = 0;
		v->i = strtoll(t + 1, &end, 10);
		return errno || *end ? -EBADMSG : 0;
	case 'b':
		v->kind = MLX_VAL_BOOL;
		v->b = t[1] == '1';
		return (t[1] == '0' || t[1] == '1') && !t[2] ? 0 : -EBADMSG;
	case 's':
		v->kind = MLX_VAL_STR;
		r = hex_in(t + 1, v->s, sizeof(v->s) - 1, &n);
		if (r == 0 && memchr(v->s, '\0', n))
			r = -EBADMSG;
		v->s[n] = '\0';
		return r;
	case '8':
		v->kind = MLX_VAL_U8LIST;
		r = hex_in(t + 1, v->u8, sizeof(v->u8), &n);
		v->n = (uint8_t)n;
		return r;
	case '4':
		v->kind = MLX_VAL_U32LIST;
		r = hex_in(t + 1, v->u32, sizeof(v->u32), &n);
		v->n = (uint8_t)(n / sizeof(v->u32[0]));
		return r == 0 && n % sizeof(v->u32[0]) ? -EBADMSG : r;
	case 'l':
		v->kind = MLX_VAL_STRLIST;
		r = hex_in(t + 1, v->sl, sizeof(v->sl), &n);
		v->n = (uint8_t)(n / sizeof(v->sl[0]));
		for (size_t i = 0; r == 0 && i < v->n; i++)
			if (!memchr(v->sl[i], '\0', sizeof(v->sl[i])))
				r = -EBADMSG;
		return r == 0 && n % sizeof(v->sl[0]) ? -EBADMSG : r;
	}
	return -EBADMSG;
}

int mlx_plan_add(struct mlx_plan *pl, const char *setting, const char *unit, int id, int arg,
		 struct mlx_val new)
{
	struct mlx_change *c;

	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? 2 * pl->cap : 8;
		struct mlx_change *nc = realloc(pl->c, cap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		pl->c = nc;
		pl->cap = cap;
	}
	c = &pl->c[pl->n];
	memset(c, 0, sizeof(*c));
	snprintf(c->setting, sizeof(c->setting), "%s", setting);
	c->unit = unit;
	c->id = id;
	c->arg = arg;
	c->new = new;
	c->old = mlx_val_null();
	return (int)pl->n++;
}

struct mlx_change *mlx_plan_find(struct mlx_plan *pl, const char *setting)
{
	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->c[i].setting, setting))
			return &pl->c[i];
	return NULL;
}

int mlx_plan_note(struct mlx_plan *pl, const char *fmt, ...)
{
	char **v = realloc(pl->notes, (pl->nnotes + 1) * sizeof(*v));
	va_list ap;
	int r;

	if (!v)
		return -ENOMEM;
	pl->notes = v;
	va_start(ap, fmt);
	r = vasprintf(&v[pl->nnotes], fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	pl->nnotes++;
	return 0;
}

void mlx_plan_free(struct mlx_plan *pl)
{
	for (size_t i = 0; i < pl->nnotes; i++)
		free(pl->notes[i]);
	free(pl->notes);
	free(pl->c);
	memset(pl, 0, sizeof(*pl));
}

size_t mlx_plan_nchanged(const struct mlx_plan *pl)
{
	size_t n = 0;

	for (size_t i = 0; i < pl->n; i++)
		n += pl->c[i].changed;
	return n;
}

static bool same(const struct mlx_write_ops *ops, const struct mlx_change *c,
		 const struct mlx_val *want, const struct mlx_val *got)
{
	return ops->same ? ops->same(c, want, got) : mlx_val_eq(want, got);
}

static int flush(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat)
{
	return ops->flush ? ops->flush(ctx, feat) : 0;
}

/* How a change is named in messages. */
static const char *name(const struct mlx_change *c)
{
	return c->label[0] ? c->label : c->setting;
}

/* " on enp8s0f0", or "". */
static void on_str(const struct mlx_write_req *req, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", req->on ? " on " : "", req->on ? req->on : "");
}

/* Read the old value of every change that has none yet. */
static int read_old(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		    const struct mlx_write_req *req, struct mlx_plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct mlx_change *c = &pl->c[i];
		int e;

		if (c->have_old)
			continue;
		/* an action (a reload): nothing to read, nothing to put back */
		if (!ops->read) {
			c->old = mlx_val_null();
			c->have_old = true;
			continue;
		}
		e = ops->read(ctx, feat, c, &c->old);
		if (e < 0) {
			char why[256], on[80];

			/* mlx_err() writes the buffer mlx_errmsg() returns: copy it. */
			snprintf(why, sizeof(why), "%s", *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
			on_str(req, on, sizeof(on));
			return mlx_err(ctx, -e, "cannot read the current %s%s: %s; nothing was changed",
				       name(c), on, why);
		}
		c->have_old = true;
	}
	return 0;
}

/*
 * Put back what was written, newest first: the reverse of the order the
 * plan chose, so a setting written as the other half of an earlier one
 * (VLAN and QoS share one message) is undone before that one.  A put-back
 * can itself be undone by the driver's side effect of an older one
 * (debugfs np_cnp_prio resets np_cnp_prio_mode), so a second pass reads
 * each back and writes again what does not hold its old value.
 */
static int put_back(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		    struct mlx_plan *pl, long failed)
{
	int first = 0, e;

	/* an action cannot be undone: was one done? */
	if (!ops->read) {
		for (size_t i = 0; i < pl->n; i++)
			if (pl->c[i].written)
				return -ENOTRECOVERABLE;
		return 0;
	}

	for (size_t i = pl->n; i-- > 0;) {
		struct mlx_change *c = &pl->c[i];

		if (!c->written)
			continue;
		e = ops->write(ctx, feat, c, &c->old);
		if (e < 0 && !first)
			first = e;
	}
	e = flush(ctx, ops, feat);
	if (e < 0 && !first)
		first = e;
	for (size_t i = 0; i < pl->n; i++) {
		struct mlx_change *c = &pl->c[i];
		struct mlx_val got;

		/* The failed write too: it may have done part of its work. */
		if (!c->written && (long)i != failed)
			continue;
		e = ops->read(ctx, feat, c, &got);
		if (e == 0 && same(ops, c, &c->old, &got))
			continue;
		e = ops->write(ctx, feat, c, &c->old);
		if (e == 0)
			e = flush(ctx, ops, feat);
		if (e == 0)
			e = ops->read(ctx, feat, c, &got);
		if (e == 0 && !same(ops, c, &c->old, &got))
			e = -EIO;
		if (e < 0 && !first)
			first = e;
	}
	return first;
}

/* The end of a failure's story: what became of the earlier writes. */
static int fail_story(struct mlx_ctx *ctx, int err, const char *what, struct mlx_write_result *res,
		      size_t nput)
{
	char buf[512];

	/* @what may quote mlx_errmsg(), which mlx_err() rewrites. */
	snprintf(buf, sizeof(buf), "%s", what);
	if (res->restore_err)
		return mlx_err(ctx, -err, "%s; putting back the %zu value(s) written failed too (%s): "
			       "the device may hold a mix of old and new values", buf, nput,
			       strerror(-res->restore_err));
	if (nput)
		return mlx_err(ctx, -err, "%s; the %zu value(s) written were put back, newest first; "
			       "nothing was changed", buf, nput);
	return mlx_err(ctx, -err, "%s; nothing was changed", buf);
}

int mlx_write_prepare(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		      const struct mlx_write_req *req, struct mlx_plan *pl,
		      struct mlx_write_result *res)
{
	int e;

	memset(res, 0, sizeof(*res));
	res->failed = -1;
	res->phase = MLX_WRITE_READ;
	e = read_old(ctx, ops, feat, req, pl);
	if (e == 0 && ops->plan) {
		res->phase = MLX_WRITE_PLAN;
		e = ops->plan(ctx, feat, pl);
		/* What the plan added (a setting a write resets) has no old value yet. */
		if (e == 0) {
			res->phase = MLX_WRITE_READ;
			e = read_old(ctx, ops, feat, req, pl);
		}
	}
	if (e < 0)
		return e;
	for (size_t i = 0; i < pl->n; i++)
		pl->c[i].changed = !same(ops, &pl->c[i], &pl->c[i].old, &pl->c[i].new);
	return 0;
}

static bool stopped(const struct mlx_write_guard *g)
{
	return g && g->stop && g->stop(g->arg);
}

int mlx_write_commit(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		     const struct mlx_write_req *req, struct mlx_plan *pl,
		     struct mlx_write_result *res, const struct mlx_write_guard *guard)
{
	char what[400], a[96], b[96], on[80];
	size_t nput = 0;
	bool gathered = false;
	int e;

	on_str(req, on, sizeof(on));
	res->phase = MLX_WRITE_WRITE;
	/* Unchanged values are not written (fewer writes, fewer to undo),
	 * unless an earlier write resets them. */
	for (size_t i = 0; i < pl->n; i++) {
		struct mlx_change *c = &pl->c[i];

		if (!c->changed && !c->rewrite)
			continue;
		if (stopped(guard)) {
			e = -EINTR;
			snprintf(what, sizeof(what), "interrupted before %s%s was written", name(c), on);
			goto undo;
		}
		e = ops->write(ctx, feat, c, &c->new);
		if (e < 0) {
			res->failed = (long)i;
			mlx_val_fmt(&c->new, a, sizeof(a));
			/* an action's own story says what it could not do */
			if (!ops->read && *mlx_errmsg(ctx))
				snprintf(what, sizeof(what), "%s", mlx_errmsg(ctx));
			else
				snprintf(what, sizeof(what), "cannot set %s to %s%s: %s", name(c), a, on,
					 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
			goto undo;
		}
		c->written = true;
		res->nwritten++;
	}
	e = flush(ctx, ops, feat);
	if (e < 0) {
		/* The gathered writes went out as one request, and failed. */
		for (size_t i = pl->n; i-- > 0;)
			if (pl->c[i].written) {
				res->failed = (long)i;
				break;
			}
		snprintf(what, sizeof(what), "cannot set %s%s: %s", res->failed >= 0 ?
			 name(&pl->c[res->failed]) : "the settings", on,
			 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
		/* A request is all or nothing: none of it was left in place. */
		gathered = true;
		goto undo;
	}
	/* Read back after every write: a later write may have disturbed an
	 * earlier one, and a driver may take a value and keep another. */
	for (size_t i = 0; i < pl->n && ops->read; i++) {
		struct mlx_change *c = &pl->c[i];

		if (!c->written)
			continue;
		if (stopped(guard)) {
			e = -EINTR;
			snprintf(what, sizeof(what), "interrupted before %s%s was read back", name(c), on);
			goto undo;
		}
		e = ops->read(ctx, feat, c, &res->got);
		if (e == 0 && !same(ops, c, &c->new, &res->got))
			e = -ERANGE;
		if (e < 0) {
			res->failed = (long)i;
			res->readback = true;
			mlx_val_fmt(&c->new, a, sizeof(a));
			mlx_val_fmt(&res->got, b, sizeof(b));
			if (e == -ERANGE)
				snprintf(what, sizeof(what), "cannot set %s to %s%s: it reads back %s",
					 name(c), a, on, b);
			else
				snprintf(what, sizeof(what), "cannot set %s to %s%s: it was written but "
					 "cannot be read back: %s", name(c), a, on,
					 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
			goto undo;
		}
	}
	return 0;
undo:
	for (size_t i = 0; i < pl->n && !gathered; i++)
		nput += pl->c[i].written;
	mlx_err_clear(ctx);
	res->restore_err = put_back(ctx, ops, feat, pl, res->failed);
	mlx_err_clear(ctx);
	/* what is put back is no longer written */
	for (size_t i = 0; i < pl->n && !res->restore_err; i++)
		pl->c[i].written = false;
	return fail_story(ctx, e, what, res, nput);
}

int mlx_write_undo(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		   struct mlx_plan *pl)
{
	int e = put_back(ctx, ops, feat, pl, -1);

	if (e == 0)
		for (size_t i = 0; i < pl->n; i++)
			pl->c[i].written = false;
	return e;
}

int mlx_write_run(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		  const struct mlx_write_req *req, struct mlx_plan *pl,
		  struct mlx_write_result *res)
{
	int lockfd = -1, e;

	memset(res, 0, sizeof(*res));
	res->phase = MLX_WRITE_LOCK;
	res->failed = -1;
	/* The lock before the first read: the old values are then the ones
	 * our writes replace, not a state another writer is replacing. */
	if (!req->dry_run && req->lock) {
		e = mlx_lock_device(ctx, req->lock, &lockfd);
		if (e < 0)
			return e;
	}
	e = mlx_write_prepare(ctx, ops, feat, req, pl, res);
	if (e == 0 && !req->dry_run)
		e = mlx_write_commit(ctx, ops, feat, req, pl, res, NULL);
	if (lockfd >= 0)
		close(lockfd);
	return e;
}
