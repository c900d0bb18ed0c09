/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCQCN in the settings model (lib/settings.h): per side the per-priority
 * enables and every parameter of the table (lib/dcqcn/dcqcn.c), named as
 * `state` names them (MLNX_OFED's file name first, the same on both
 * layouts); their validators; the plan, whose changes lib/dcqcn/
 * dcqcn-write.c orders, clamps and completes.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mlx-private.h"
#include "settings-private.h"

static size_t index_of(const struct mlx_dcqcn_param *p)
{
	size_t n;

	return (size_t)(p - mlx_dcqcn_params(&n));
}

/* The name `state` gives @p on @side. */
static void state_name(const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, char *buf,
		       size_t len)
{
	mlx_dcqcn_name(p, side, MLX_DCQCN_NONE, MLX_DCQCN_FILE, buf, len);
}

const struct mlx_dcqcn_param *mlx_dcqcn_state_param(const char *name, enum mlx_dcqcn_side side)
{
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);

	for (size_t i = 0; i < n; i++) {
		char fname[64];

		if (t[i].prio >= 0 || t[i].side != side)
			continue;
		state_name(&t[i], side, fname, sizeof(fname));
		if (!strcmp(fname, name))
			return &t[i];
	}
	return NULL;
}

void mlx_dcqcn_settings_read(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
			     struct mlx_dcqcn_settings *d)
{
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);
	int en[2][8];

	memset(d, 0, sizeof(*d));
	d->have = MLX_SET;
	d->layout = dp->layout;
	mlx_dcqcn_prio_state(ctx, dp, en[0], en[1]);
	for (int s = 0; s < 2; s++) {
		struct mlx_dcqcn_side_settings *ss = &d->side[s];

		for (int p = 0; p < 8; p++) {
			ss->en[p] = en[s][p] >= 0 ? MLX_SET : MLX_NULL;
			ss->on[p] = en[s][p] == 1;
		}
	}
	for (size_t i = 0; i < n && i < MLX_DCQCN_MAXP; i++) {
		struct mlx_dcqcn_side_settings *ss;
		int r;

		if (t[i].prio >= 0)
			continue;
		ss = &d->side[mlx_dcqcn_side_index(t[i].side)];
		r = mlx_dcqcn_read(ctx, dp, &t[i], t[i].side, &ss->v[i]);
		ss->h[i] = r == 0 ? MLX_SET : MLX_NULL;
		ss->err[i] = r;
	}
	mlx_err_clear(ctx);
}

void mlx_dcqcn_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		     struct mlx_port_settings *out)
{
	struct mlx_dcqcn_port dp;

	if (!t->fn || mlx_dcqcn_open(rd->ctx, t->fn, t->port, &dp) < 0) {
		mlx_err_clear(rd->ctx);
		memset(&out->dcqcn, 0, sizeof(out->dcqcn));
		out->dcqcn.have = MLX_NULL;
		return;
	}
	mlx_dcqcn_settings_read(rd->ctx, &dp, &out->dcqcn);
}

/* ---- validators ---- */

int mlx_dcqcn_put(struct mlx_ctx *ctx, struct mlx_dcqcn_settings *d,
		  const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t v)
{
	size_t i = index_of(p);
	char name[64];

	if (p->prio >= 0) {
		/* DcqcnEnablePrio<N>: both sides unless one is named */
		if (side & MLX_DCQCN_RP) {
			int r = mlx_dcqcn_put_enable(ctx, d, MLX_DCQCN_RP, (unsigned)p->prio, v != 0);

			if (r < 0)
				return r;
		}
		return side & MLX_DCQCN_NP ? mlx_dcqcn_put_enable(ctx, d, MLX_DCQCN_NP,
								   (unsigned)p->prio, v != 0) : 0;
	}
	state_name(p, p->side, name, sizeof(name));
	if (i >= MLX_DCQCN_MAXP)
		return mlx_err(ctx, EINVAL, "%s: not in the model", name);
	if (v < p->min || v > p->max)
		return mlx_err(ctx, ERANGE, "%" PRIu64 " is out of range (%" PRIu64 "-%" PRIu64 ")", v,
			       p->min, p->max);
	if (d->side[mlx_dcqcn_side_index(p->side)].h[i] == MLX_SET)
		return mlx_err(ctx, EEXIST, "%s is given twice", name);
	d->have = MLX_SET;
	d->side[mlx_dcqcn_side_index(p->side)].h[i] = MLX_SET;
	d->side[mlx_dcqcn_side_index(p->side)].v[i] = v;
	return 0;
}

int mlx_dcqcn_put_enable(struct mlx_ctx *ctx, struct mlx_dcqcn_settings *d,
			 enum mlx_dcqcn_side side, unsigned prio, bool on)
{
	struct mlx_dcqcn_side_settings *ss = &d->side[mlx_dcqcn_side_index(side)];

	if (prio > 7)
		return mlx_err(ctx, ERANGE, "priority %u is out of range (0-7)", prio);
	if (ss->en[prio] == MLX_SET)
		return mlx_err(ctx, EEXIST, "the %s enable of priority %u is given twice",
			       side == MLX_DCQCN_RP ? "rp" : "np", prio);
	d->have = MLX_SET;
	ss->en[prio] = MLX_SET;
	ss->on[prio] = on;
	return 0;
}

/* ---- the plan ---- */

bool mlx_dcqcn_wanted(const struct mlx_port_settings *want, size_t vf)
{
	(void)vf;
	for (int s = 0; s < 2; s++) {
		const struct mlx_dcqcn_side_settings *ss = &want->dcqcn.side[s];

		for (int p = 0; p < 8; p++)
			if (ss->en[p] == MLX_SET)
				return true;
		for (size_t i = 0; i < MLX_DCQCN_MAXP; i++)
			if (ss->h[i] == MLX_SET)
				return true;
	}
	return false;
}

int mlx_dcqcn_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_dcqcn_writer *w = feat;

	(void)ctx;
	(void)parent;
	memset(w, 0, sizeof(*w));
	w->fn = t->fn;
	w->port = t->port;
	w->speed_mbps = t->port ? t->port->speed_mbps : -1;
	w->dp = &w->own;
	return 0;
}

static const struct mlx_dcqcn_param *enable_param(int prio)
{
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);

	for (size_t i = 0; i < n; i++)
		if (t[i].prio == prio)
			return &t[i];
	return NULL;
}

static int add(struct mlx_ctx *ctx, struct mlx_dcqcn_writer *w, struct mlx_plan *pl,
	       const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t v,
	       const char *where)
{
	const char *on = w->port && w->port->ifname[0] ? w->port->ifname : w->fn->bdf;
	char why[400];

	if (mlx_dcqcn_writable(ctx, w->dp, p, side) < 0) {
		snprintf(why, sizeof(why), "%s", mlx_errmsg(ctx));
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, where, "cannot set it on %s: %s", on, why);
	}
	if (mlx_dcqcn_plan_add(pl, p, side, w->dp->layout, v) < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	return 0;
}

int mlx_dcqcn_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			size_t vf, struct mlx_plan *pl)
{
	struct mlx_dcqcn_writer *w = feat;
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);
	char where[64], why[400];
	int e;

	(void)vf;
	if (!w->fn || mlx_dcqcn_open(ctx, w->fn, w->port, &w->own) < 0) {
		snprintf(why, sizeof(why), "%s", w->fn ? mlx_errmsg(ctx) : "no ConnectX port");
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "dcqcn", "%s", why);
	}
	for (int s = 0; s < 2; s++) {
		enum mlx_dcqcn_side side = s ? MLX_DCQCN_NP : MLX_DCQCN_RP;
		const struct mlx_dcqcn_side_settings *ss = &want->dcqcn.side[s];

		for (int p = 0; p < 8; p++) {
			if (ss->en[p] != MLX_SET)
				continue;
			snprintf(where, sizeof(where), "dcqcn.%s.enable[%d]", s ? "np" : "rp", p);
			if ((e = add(ctx, w, pl, enable_param(p), side, ss->on[p], where)) < 0)
				return e;
		}
		for (size_t i = 0; i < n && i < MLX_DCQCN_MAXP; i++) {
			char name[64];

			if (ss->h[i] != MLX_SET || t[i].prio >= 0)
				continue;
			state_name(&t[i], side, name, sizeof(name));
			snprintf(where, sizeof(where), "dcqcn.%s.parameters (%s)", s ? "np" : "rp", name);
			if ((e = add(ctx, w, pl, &t[i], side, ss->v[i], where)) < 0)
				return e;
		}
	}
	return 0;
}

/* ---- diff ---- */

void mlx_dcqcn_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	const struct mlx_dcqcn_settings *d = &p->dcqcn;
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);
	char path[96], name[64];

	if (d->have == MLX_NULL) {
		mlx_flat_null(fn, arg, "dcqcn");
		return;
	}
	if (d->have != MLX_SET)
		return;
	for (int s = 0; s < 2; s++) {
		const struct mlx_dcqcn_side_settings *ss = &d->side[s];
		enum mlx_dcqcn_side side = s ? MLX_DCQCN_NP : MLX_DCQCN_RP;
		const char *sn = s ? "np" : "rp";

		for (int pr = 0; pr < 8; pr++) {
			struct mlx_val v = mlx_val_bool(ss->on[pr]);

			snprintf(path, sizeof(path), "dcqcn.%s.enable.%d", sn, pr);
			mlx_flat_val(fn, arg, path, ss->en[pr], &v);
		}
		for (size_t i = 0; i < n && i < MLX_DCQCN_MAXP; i++) {
			struct mlx_val v = mlx_val_uint(ss->v[i]);

			if (t[i].prio >= 0 || t[i].side != side)
				continue;
			state_name(&t[i], side, name, sizeof(name));
			snprintf(path, sizeof(path), "dcqcn.%s.%s", sn, name);
			mlx_flat_val(fn, arg, path, ss->h[i], &v);
		}
	}
}

int mlx_dcqcn_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add)
{
	struct mlx_dcqcn_settings *dst = &pd->dcqcn;
	const struct mlx_dcqcn_settings *src = &ps->dcqcn;

	(void)add;
	if (src->have != MLX_SET)
		return 0;
	if (dst->have != MLX_SET)
		dst->layout = src->layout;
	dst->have = MLX_SET;
	for (int s = 0; s < 2; s++) {
		for (int p = 0; p < 8; p++)
			if (src->side[s].en[p] == MLX_SET) {
				dst->side[s].en[p] = MLX_SET;
				dst->side[s].on[p] = src->side[s].on[p];
			}
		for (size_t i = 0; i < MLX_DCQCN_MAXP; i++)
			if (src->side[s].h[i] == MLX_SET) {
				dst->side[s].h[i] = MLX_SET;
				dst->side[s].v[i] = src->side[s].v[i];
			}
	}
	return 0;
}
