/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCQCN in the write engine (lib/write.h): one change per parameter and
 * side, keyed by its index in the table (id) and its side (arg).  The
 * rules of a DCQCN set live here, next to the table they follow, not in
 * the commands: table order, the line-rate clamp of the WinOF-2 manual,
 * and the debugfs side effect (cong.c: writing np_cnp_prio sets
 * np_cnp_prio_mode to 0).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcqcn.h"
#include "write.h"

static const struct mlx_dcqcn_param *param(const struct mlx_change *c)
{
	size_t n;

	return &mlx_dcqcn_params(&n)[c->id];
}

static int index_of(const struct mlx_dcqcn_param *p)
{
	size_t n;

	return (int)(p - mlx_dcqcn_params(&n));
}

int mlx_dcqcn_plan_add(struct mlx_plan *pl, const struct mlx_dcqcn_param *p,
		       enum mlx_dcqcn_side side, enum mlx_dcqcn_layout l, uint64_t val)
{
	char setting[64];
	int i;

	mlx_dcqcn_name(p, side, l, MLX_DCQCN_SIDE_FILE, setting, sizeof(setting));
	i = mlx_plan_add(pl, setting, p->unit, index_of(p), (int)side, mlx_val_uint(val));
	if (i >= 0 && p->mlx5cmd)
		mlx_dcqcn_name(p, side, l, MLX_DCQCN_MLX5CMD, pl->c[i].label, sizeof(pl->c[i].label));
	return i;
}

static int dq_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct mlx_dcqcn_writer *w = feat;
	uint64_t v;
	int r;

	r = mlx_dcqcn_read(ctx, w->dp, param(c), (enum mlx_dcqcn_side)c->arg, &v);
	if (r < 0)
		return r;
	*out = mlx_val_uint(v);
	return 0;
}

static int dq_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_dcqcn_writer *w = feat;

	return mlx_dcqcn_write(ctx, w->dp, param(c), (enum mlx_dcqcn_side)c->arg, v->u);
}

static int cmp_change(const void *a, const void *b)
{
	const struct mlx_change *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->arg - y->arg;
}

/* Does a write before @i (one that is written) reset @i's parameter to
 * something other than what @i should hold? */
static bool reset_before(const struct mlx_plan *pl, size_t i, enum mlx_dcqcn_layout l)
{
	for (size_t j = 0; j < i; j++) {
		const struct mlx_change *c = &pl->c[j];
		uint64_t sv;

		if ((!mlx_val_eq(&c->old, &c->new) || c->rewrite) &&
		    mlx_dcqcn_side_effect(param(c), l, &sv) == param(&pl->c[i]) &&
		    sv != pl->c[i].new.u)
			return true;
	}
	return false;
}

static int dq_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl)
{
	struct mlx_dcqcn_writer *w = feat;
	enum mlx_dcqcn_layout l = w->dp->layout;
	size_t n = pl->n;

	/* Table order: a write that resets another file comes before it. */
	qsort(pl->c, pl->n, sizeof(*pl->c), cmp_change);
	for (size_t i = 0; i < n; i++) {
		struct mlx_change *c = &pl->c[i];
		const struct mlx_dcqcn_param *p = param(c);
		bool clamped;

		if (!p->line_rate)
			continue;
		c->new.u = mlx_dcqcn_clamp(p, c->new.u, w->speed_mbps, &clamped);
		if (clamped) {
			w->clamped = true;
			c->note = "above the line rate: set to it";
			c->flags |= MLX_CHG_CLAMPED;
		}
		w->speed_unknown |= w->speed_mbps <= 0;
		if (mlx_dcqcn_disables_cc(p, c->new.u, w->speed_mbps)) {
			c->note = "at the line rate: congestion control is off";
			c->flags |= MLX_CHG_DISABLES;
		}
	}
	/*
	 * A parameter the driver resets on an earlier write, not in the set,
	 * whose value is not what the reset leaves: added with its current
	 * value and written back, so the set changes only what it names.
	 */
	for (size_t i = 0; i < n; i++) {
		const struct mlx_dcqcn_param *p = param(&pl->c[i]), *se;
		uint64_t sv, cur;
		int e, k;

		se = mlx_dcqcn_side_effect(p, l, &sv);
		if (!se || mlx_val_eq(&pl->c[i].old, &pl->c[i].new))
			continue;
		for (k = 0; k < (int)pl->n; k++)
			if (param(&pl->c[k]) == se)
				break;
		if (k < (int)pl->n)
			continue;
		e = mlx_dcqcn_read(ctx, w->dp, se, se->side, &cur);
		if (e == -ENOENT || (e == 0 && cur == sv))
			continue;
		if (e < 0)
			return e;
		k = mlx_dcqcn_plan_add(pl, se, se->side, l, cur);
		if (k < 0)
			return k;
		pl->c[k].note = "kept: the driver resets it on the write above, so it is written again";
	}
	qsort(pl->c, pl->n, sizeof(*pl->c), cmp_change);
	/* What an earlier write resets is written even when unchanged. */
	for (size_t i = 0; i < pl->n; i++)
		pl->c[i].rewrite = reset_before(pl, i, l);
	return 0;
}

const struct mlx_write_ops mlx_dcqcn_write_ops = {
	.read = dq_read,
	.plan = dq_plan,
	.write = dq_write,
};
