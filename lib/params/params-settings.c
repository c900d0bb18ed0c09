/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's knobs in the settings model (lib/settings.h): the knobs of
 * a port that change at run time, typed as `params -j` types them; the
 * plan, written by lib/params/params-write.c's operations (the ones
 * `params set` has always used).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "settings-private.h"

/*
 * The knobs of one port that `apply` can set back (issue 17's catalogue):
 * the netdev's ethtool knobs and MTU, the function's devlink parameters in
 * cmode runtime, and in cmode permanent the catalogued firmware NV settings
 * (enable_sriov, total_vfs: written to NV, in effect after a firmware
 * reset; state marks them, firmware_nv below).  Not mlx5_core's module parameters (host-wide, not a
 * port's), not rdma_cm's (the "roce" section holds them) or MLNX_OFED's
 * traffic_class (its "unset" is a state no write restores).
 */
bool mlx_params_state_knob(const struct mlx_knob *k)
{
	return k && k->src != MLX_KS_MODULE && k->src != MLX_KS_RDMA;
}

struct mlx_val mlx_knob_value_typed(const char *val, enum mlx_knob_type t)
{
	uint64_t u;

	if (!val)
		return mlx_val_null();
	if (!strcmp(val, "on") || !strcmp(val, "true") || (t == MLX_KT_BOOL && !strcmp(val, "1")))
		return mlx_val_bool(true);
	if (!strcmp(val, "off") || !strcmp(val, "false") || (t == MLX_KT_BOOL && !strcmp(val, "0")))
		return mlx_val_bool(false);
	if (t != MLX_KT_STRING && mlx_parse_u64(val, &u) == 0)
		return mlx_val_uint(u);
	return mlx_val_str(val);
}

static struct mlx_knob_setting *knob_add(struct mlx_params_settings *p)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct mlx_knob_setting *v = realloc(p->kv, cap * sizeof(*v));

		if (!v)
			return NULL;
		p->kv = v;
		p->cap = cap;
	}
	memset(&p->kv[p->n], 0, sizeof(p->kv[p->n]));
	return &p->kv[p->n++];
}

/* A row for what the catalogue lacks, named by the setting's own name: a
 * private flag, a devlink parameter (issue 27) */
static bool own(const struct mlx_knob *k)
{
	return k == &mlx_knob_any_privflag || k == &mlx_knob_any_devlink;
}

const char *mlx_knob_setting_name(const struct mlx_knob_setting *ks)
{
	return own(ks->k) ? ks->name : ks->k->name;
}

/* @k's setting; a private flag or a devlink parameter the catalogue lacks
 * by @name */
static struct mlx_knob_setting *knob_named(const struct mlx_params_settings *p,
					   const struct mlx_knob *k, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->kv[i].k == k && (!own(k) || !strcmp(p->kv[i].name, name)))
			return &p->kv[i];
	return NULL;
}

static struct mlx_knob_setting *knob_of(const struct mlx_params_settings *p, const struct mlx_knob *k)
{
	return knob_named(p, k, "");
}

/* A row of the catalogue (not a private flag's own row, lib/params/params.c) */
static bool in_catalogue(const struct mlx_knob *k)
{
	return k >= mlx_knobs && k < mlx_knobs + mlx_nknobs;
}

void mlx_params_release(struct mlx_port_settings *ps)
{
	struct mlx_params_settings *p = &ps->params;

	free(p->kv);
	p->kv = NULL;
	p->n = p->cap = 0;
}

int mlx_params_dup(struct mlx_port_settings *dst, const struct mlx_port_settings *src)
{
	size_t n = src->params.n;

	dst->params.kv = NULL;
	dst->params.n = dst->params.cap = 0;
	if (!n)
		return 0;
	dst->params.kv = malloc(n * sizeof(*dst->params.kv));
	if (!dst->params.kv)
		return -ENOMEM;
	memcpy(dst->params.kv, src->params.kv, n * sizeof(*dst->params.kv));
	dst->params.n = dst->params.cap = n;
	return 0;
}

/*
 * Firmware NV settings (issue 27): row @i of @p is a devlink parameter in
 * cmode permanent (mlx5's enable_sriov, total_vfs, cqe_compress_type; one
 * the catalogue lacks by a name params set takes) that has no runtime
 * row.  `apply` writes its NV value (the plan flags it: in effect after a
 * firmware reset), so the state carries it, marked.
 */
static bool firmware_nv(const struct mlx_params *p, size_t i)
{
	const struct mlx_knob_value *v = &p->v[i];

	if (v->src != MLX_KS_DEVLINK || v->apply != MLX_KA_FIRMWARE ||
	    (v->k ? !in_catalogue(v->k) : !mlx_privflag_name_ok(v->name)))
		return false;
	for (size_t j = 0; j < p->n; j++)
		if (p->v[j].src == MLX_KS_DEVLINK && !strcmp(p->v[j].name, v->name) &&
		    p->v[j].apply == MLX_KA_RUNTIME)
			return false;
	return true;
}

void mlx_params_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		      struct mlx_port_settings *out)
{
	struct mlx_ctx *ctx = rd->ctx;
	struct mlx_params_settings *ps = &out->params;
	const struct mlx_function *fn = t->fn;
	/* devlink parameters: the function's, with its first port; a
	 * netdevsim port's (--any-netdev) its device's */
	struct mlx_devlink_name dn;
	const char *bus, *bdf = mlx_port_ref_devlink(ctx, t, &dn, &bus);
	struct mlx_params p;

	ps->have = MLX_NULL;
	if (!rd->params || (!t->ifname && !bdf) ||
	    mlx_params_port(ctx, rd->params, t->ifname, bus, bdf, fn && fn->role == MLX_FN_PF,
			    &p) < 0) {
		mlx_err_clear(ctx);
		return;
	}
	mlx_err_clear(ctx);
	ps->have = MLX_SET;
	for (size_t i = 0; i < p.n; i++) {
		const struct mlx_knob_value *v = &p.v[i];
		struct mlx_knob_setting *ks;
		bool dup = false;

		bool nv_own = !v->k && firmware_nv(&p, i);

		if (!nv_own && (!mlx_params_state_knob(v->k) || v->fixed ||
				(v->apply != MLX_KA_RUNTIME && !firmware_nv(&p, i))))
			continue;
		/* a devlink parameter reported in several cmodes: its runtime row once */
		for (size_t j = 0; j < i && !dup && !nv_own; j++)
			dup = p.v[j].k == v->k && p.v[j].apply == MLX_KA_RUNTIME && !p.v[j].fixed;
		if (dup)
			continue;
		if (!(ks = knob_add(ps)))
			break;
		if (nv_own) {
			/* the catalogue lacks it: its name, its value in its
			 * devlink type */
			ks->k = &mlx_knob_any_devlink;
			snprintf(ks->name, sizeof(ks->name), "%s", v->name);
			ks->have = v->known ? MLX_SET : MLX_NULL;
			ks->v = mlx_knob_value_typed(v->known ? v->value : NULL,
						     v->dl_type == MLX_DL_BOOL ? MLX_KT_BOOL :
						     v->dl_type == MLX_DL_STRING ? MLX_KT_STRING :
						     MLX_KT_U64);
			ks->apply = v->apply;
			continue;
		}
		ks->k = v->k;
		/* a private flag the catalogue lacks: its row is @p's, freed
		 * below; the setting keeps its name */
		if (!in_catalogue(v->k)) {
			ks->k = &mlx_knob_any_privflag;
			snprintf(ks->name, sizeof(ks->name), "%s", v->k->name);
		}
		ks->have = v->known ? MLX_SET : MLX_NULL;
		ks->v = mlx_knob_value_typed(v->known ? v->value : NULL, v->k->type);
		ks->apply = v->apply;
	}
	mlx_params_free(&p);
}

int mlx_params_put(struct mlx_ctx *ctx, struct mlx_params_settings *p, const struct mlx_knob *k,
		   struct mlx_val v)
{
	struct mlx_knob_setting *ks;

	if (knob_of(p, k))
		return mlx_err(ctx, EEXIST, "%s is given twice", k->name);
	if (!(ks = knob_add(p)))
		return mlx_err(ctx, ENOMEM, "out of memory");
	p->have = MLX_SET;
	ks->k = k;
	ks->have = v.kind == MLX_VAL_NULL ? MLX_NULL : MLX_SET;
	ks->v = v;
	return 0;
}

int mlx_params_put_devlink(struct mlx_ctx *ctx, struct mlx_params_settings *p, const char *name,
			   struct mlx_val v)
{
	struct mlx_knob_setting *ks;

	if (!mlx_privflag_name_ok(name))
		return mlx_err(ctx, EINVAL, "no knob '%s' (mlxcli params info lists them)", name);
	if (v.kind != MLX_VAL_UINT && v.kind != MLX_VAL_STR && v.kind != MLX_VAL_NULL)
		return mlx_err(ctx, EINVAL, "%s: a devlink parameter takes a number or a word", name);
	if (knob_named(p, &mlx_knob_any_devlink, name))
		return mlx_err(ctx, EEXIST, "%s is given twice", name);
	if (!(ks = knob_add(p)))
		return mlx_err(ctx, ENOMEM, "out of memory");
	p->have = MLX_SET;
	ks->k = &mlx_knob_any_devlink;
	snprintf(ks->name, sizeof(ks->name), "%s", name);
	ks->have = v.kind == MLX_VAL_NULL ? MLX_NULL : MLX_SET;
	ks->v = v;
	return 0;
}

int mlx_params_put_privflag(struct mlx_ctx *ctx, struct mlx_params_settings *p, const char *name,
			    struct mlx_val v)
{
	struct mlx_knob_setting *ks;

	if (!mlx_privflag_name_ok(name))
		return mlx_err(ctx, EINVAL, "no knob '%s' (mlxcli params info lists them)", name);
	if (v.kind != MLX_VAL_BOOL && v.kind != MLX_VAL_NULL)
		return mlx_err(ctx, EINVAL, "%s: a private flag takes on or off", name);
	if (knob_named(p, &mlx_knob_any_privflag, name))
		return mlx_err(ctx, EEXIST, "%s is given twice", name);
	if (!(ks = knob_add(p)))
		return mlx_err(ctx, ENOMEM, "out of memory");
	p->have = MLX_SET;
	ks->k = &mlx_knob_any_privflag;
	snprintf(ks->name, sizeof(ks->name), "%s", name);
	ks->have = v.kind == MLX_VAL_NULL ? MLX_NULL : MLX_SET;
	ks->v = v;
	return 0;
}

/* ---- the plan ---- */

bool mlx_params_wanted(const struct mlx_port_settings *want, size_t vf)
{
	(void)vf;
	for (size_t i = 0; i < want->params.n; i++)
		if (want->params.kv[i].have == MLX_SET)
			return true;
	return false;
}

int mlx_params_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_params_writer *w = feat;

	(void)parent;
	memset(w, 0, sizeof(*w));
	w->ifname = t->ifname;
	/* devlink parameters are the function's: with its first port; a
	 * netdev that is no ConnectX port (--any-netdev): the devlink
	 * instance of the device it sits on (a netdevsim port's) */
	w->bdf = mlx_port_ref_devlink(ctx, t, &w->dl, &w->bus);
	/* a netdev that is no ConnectX port (--any-netdev): the RDMA port on
	 * it (rdma_rxe), whose RDMA CM knobs params set writes */
	w->rdma_dev_avail = mlx_port_ref_rdma(ctx, t, w->rdma_buf, sizeof(w->rdma_buf),
					      &w->rdma_port);
	/* a VF: no firmware NV settings of its own (the plan says whose) */
	w->vf = t->fn && t->fn->role == MLX_FN_VF;
	w->pf_bdf = w->vf && t->fn->pf ? t->fn->pf->bdf : NULL;
	return 0;
}

void mlx_params_close_step(void *feat)
{
	mlx_params_writer_free(feat);
}

static int add(struct mlx_ctx *ctx, struct mlx_params_writer *w, struct mlx_plan *pl,
	       const struct mlx_knob_setting *ks)
{
	bool mine = own(ks->k);

	/* an RDMA knob (roce_mode, params set's): its device's files too */
	if (ks->k->src == MLX_KS_RDMA)
		w->rdma_dev = w->rdma_dev_avail;
	/* a private flag the catalogue lacks: the plan asks the device
	 * whether it has one; a reset (arg 1): whether the default holds for
	 * the port's driver (lib/params/params-write.c) */
	if (mlx_plan_add(pl, mine ? ks->name : ks->k->name, ks->k->unit,
			 !mine ? (int)(ks->k - mlx_knobs) : ks->k == &mlx_knob_any_devlink ?
			 MLX_PARAMS_ID_DEVLINK : MLX_PARAMS_ID_PRIVFLAG, ks->reset ? 1 : 0,
			 ks->v) < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	return 0;
}

int mlx_params_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			 size_t vf, struct mlx_plan *pl)
{
	const struct mlx_params_settings *p = &want->params;
	int e;

	(void)vf;
	if (p->in_order) {
		for (size_t i = 0; i < p->n; i++)
			if (p->kv[i].have == MLX_SET && (e = add(ctx, feat, pl, &p->kv[i])) < 0)
				return e;
		return 0;
	}
	/* the catalogue's order (the order apply documents: private flags,
	 * rings, channels, coalescing, features, MTU, devlink), whatever the
	 * desired state's */
	for (size_t k = 0; k < mlx_nknobs; k++) {
		const struct mlx_knob_setting *ks = knob_of(p, &mlx_knobs[k]);

		if (ks && ks->have == MLX_SET && (e = add(ctx, feat, pl, ks)) < 0)
			return e;
	}
	/* then the private flags and devlink parameters the catalogue lacks,
	 * in the file's order */
	for (size_t i = 0; i < p->n; i++)
		if (own(p->kv[i].k) && p->kv[i].have == MLX_SET &&
		    (e = add(ctx, feat, pl, &p->kv[i])) < 0)
			return e;
	return 0;
}

/* ---- diff ---- */

void mlx_params_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	char path[96];

	if (p->params.have == MLX_NULL) {
		mlx_flat_null(fn, arg, "params");
		return;
	}
	for (size_t i = 0; i < p->params.n; i++) {
		snprintf(path, sizeof(path), "params.%s", mlx_knob_setting_name(&p->params.kv[i]));
		mlx_flat_val(fn, arg, path, p->params.kv[i].have, &p->params.kv[i].v);
	}
}

int mlx_params_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add)
{
	struct mlx_params_settings *dst = &pd->params;
	const struct mlx_params_settings *src = &ps->params;

	(void)add;
	if (src->have != MLX_SET)
		return 0;
	dst->have = MLX_SET;
	dst->in_order |= src->in_order;
	for (size_t i = 0; i < src->n; i++) {
		struct mlx_knob_setting *ks;

		if (src->kv[i].have != MLX_SET)
			continue;
		ks = knob_named(dst, src->kv[i].k, src->kv[i].name);
		if (!ks && !(ks = knob_add(dst)))
			return -ENOMEM;
		*ks = src->kv[i];
	}
	return 0;
}
