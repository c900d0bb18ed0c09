/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SR-IOV in the write engine (lib/write.h): numvfs, the eswitch mode, and
 * one VF's settings, each its own typed change.  VLAN and QoS travel in
 * one IFLA_VF_VLAN, the two rates in one IFLA_VF_RATE
 * (include/uapi/linux/if_link.h): a write of one sends the other half as
 * the writes so far leave it, so putting back newest first ends where it
 * began.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/if_link.h>

#include "mlx-private.h"
#include "sriov.h"
#include "write.h"

#define FN_DIR "/sys/bus/pci/devices/%s"

/* Setting name and unit of each enum mlx_sriov_setting (the JSON of
 * `sriov show` spells the same names, with the unit as suffix). */
static const struct {
	const char *name, *unit;
} settings[] = {
	[MLX_SRIOV_NUMVFS] = { "numvfs", NULL },
	[MLX_SRIOV_ESWITCH_MODE] = { "eswitch_mode", NULL },
	[MLX_VF_MAC] = { "mac", NULL },
	[MLX_VF_VLAN] = { "vlan", NULL },
	[MLX_VF_QOS] = { "qos", NULL },
	[MLX_VF_MAX_TX_RATE] = { "max_tx_rate", "Mbit/s" },
	[MLX_VF_MIN_TX_RATE] = { "min_tx_rate", "Mbit/s" },
	[MLX_VF_SPOOFCHK] = { "spoofchk", NULL },
	[MLX_VF_TRUST] = { "trust", NULL },
	[MLX_VF_LINK_STATE] = { "link_state", NULL },
};

int mlx_sriov_plan_add(struct mlx_plan *pl, enum mlx_sriov_setting s, struct mlx_val v)
{
	return mlx_plan_add(pl, settings[s].name, settings[s].unit, (int)s, 0, v);
}

int mlx_sriov_numvfs(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned *n)
{
	char path[PATH_MAX];
	int64_t v;
	int r;

	snprintf(path, sizeof(path), FN_DIR "/sriov_numvfs", pf->bdf);
	r = mlx_read_s64(ctx, path, &v);
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read '%s': %s", path, strerror(-r));
	*n = v > 0 ? (unsigned)v : 0;
	return 0;
}

/* The VF as the kernel reports it now (queried once per state). */
static int vf_now(struct mlx_ctx *ctx, struct mlx_sriov_writer *w, const struct mlx_vf_info **out)
{
	if (!w->fresh) {
		int r;

		if (w->have)
			mlx_link_vfs_free(&w->cur);
		w->have = false;
		r = mlx_sriov_query(ctx, w->pf, &w->cur);
		if (r < 0)
			return r;
		w->have = w->fresh = true;
	}
	for (size_t i = 0; i < w->cur.nvf; i++)
		if (w->cur.vf[i].vf == w->vf) {
			*out = &w->cur.vf[i];
			return 0;
		}
	return mlx_err(ctx, ENODEV, "the kernel did not report VF %u of %s", w->vf, w->pf->bdf);
}

static struct mlx_val vf_val(const struct mlx_vf_info *vf, enum mlx_sriov_setting s)
{
	char mac[24];

	switch (s) {
	case MLX_VF_MAC:
		if (!vf->has_mac)
			return mlx_val_null();
		mlx_fmt_mac(vf->mac, mac, sizeof(mac));
		return mlx_val_str(mac);
	case MLX_VF_VLAN:
		return vf->has_vlan ? mlx_val_uint(vf->vlan) : mlx_val_null();
	case MLX_VF_QOS:
		return vf->has_vlan ? mlx_val_uint(vf->qos) : mlx_val_null();
	case MLX_VF_MAX_TX_RATE:
		return vf->has_rate || vf->max_tx_rate ? mlx_val_uint(vf->max_tx_rate) : mlx_val_null();
	case MLX_VF_MIN_TX_RATE:
		return vf->has_rate || vf->max_tx_rate ? mlx_val_uint(vf->min_tx_rate) : mlx_val_null();
	case MLX_VF_SPOOFCHK:
		return vf->spoofchk < 0 ? mlx_val_null() : mlx_val_bool(vf->spoofchk > 0);
	case MLX_VF_TRUST:
		return vf->trust < 0 ? mlx_val_null() : mlx_val_bool(vf->trust > 0);
	case MLX_VF_LINK_STATE:
		return vf->link_state < 0 ? mlx_val_null() : mlx_val_str(mlx_vf_link_state_str(vf->link_state));
	default:
		return mlx_val_null();
	}
}

static int sr_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct mlx_sriov_writer *w = feat;
	const struct mlx_vf_info *vf;
	struct mlx_eswitch esw;
	unsigned n;
	int r;

	switch ((enum mlx_sriov_setting)c->id) {
	case MLX_SRIOV_NUMVFS:
		r = mlx_sriov_numvfs(ctx, w->pf, &n);
		if (r == 0)
			*out = mlx_val_uint(n);
		return r;
	case MLX_SRIOV_ESWITCH_MODE:
		r = mlx_devlink_eswitch_get(ctx, w->pf, &esw);
		/* A driver that cannot say (no devlink eswitch): unknown. */
		if (r == -EOPNOTSUPP) {
			mlx_err_clear(ctx);
			*out = mlx_val_null();
			return 0;
		}
		if (r == 0)
			*out = mlx_val_str(mlx_eswitch_mode_str(esw.mode));
		return r;
	default:
		r = vf_now(ctx, w, &vf);
		if (r == 0)
			*out = vf_val(vf, (enum mlx_sriov_setting)c->id);
		return r;
	}
}

static int link_state_of(const char *s, uint32_t *st)
{
	static const uint32_t all[] = { IFLA_VF_LINK_STATE_AUTO, IFLA_VF_LINK_STATE_ENABLE,
					IFLA_VF_LINK_STATE_DISABLE };

	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		if (!strcmp(mlx_vf_link_state_str((int)all[i]), s)) {
			*st = all[i];
			return 0;
		}
	return -EINVAL;
}

static int sr_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_sriov_writer *w = feat;
	const struct mlx_vf_info *vf;
	struct mlx_vf_set s = { .vf = w->vf };
	int r;

	switch ((enum mlx_sriov_setting)c->id) {
	case MLX_SRIOV_NUMVFS:
		return mlx_sriov_set_numvfs(ctx, w->pf, (unsigned)v->u);
	case MLX_SRIOV_ESWITCH_MODE:
		/* Unknown before: nothing to put back. */
		if (v->kind != MLX_VAL_STR)
			return 0;
		return mlx_devlink_eswitch_set(ctx, w->pf, !strcmp(v->s, "switchdev") ?
					       DEVLINK_ESWITCH_MODE_SWITCHDEV :
					       DEVLINK_ESWITCH_MODE_LEGACY);
	default:
		break;
	}
	/* The other half of a shared message: as the VF holds it now. */
	r = vf_now(ctx, w, &vf);
	if (r < 0)
		return r;
	s.vlan = vf->vlan;
	s.qos = vf->qos;
	s.min_tx_rate = vf->min_tx_rate;
	s.max_tx_rate = vf->max_tx_rate;
	switch ((enum mlx_sriov_setting)c->id) {
	case MLX_VF_MAC:
		s.attr = MLX_VF_SET_MAC;
		if (v->kind != MLX_VAL_STR || mlx_parse_mac(v->s, s.mac) < 0)
			return 0;     /* unknown before: nothing to put back */
		break;
	case MLX_VF_VLAN:
	case MLX_VF_QOS:
		s.attr = MLX_VF_SET_VLAN;
		if (v->kind != MLX_VAL_UINT)
			return 0;
		*(c->id == MLX_VF_VLAN ? &s.vlan : &s.qos) = (uint32_t)v->u;
		break;
	case MLX_VF_MAX_TX_RATE:
	case MLX_VF_MIN_TX_RATE:
		s.attr = MLX_VF_SET_RATE;
		if (v->kind != MLX_VAL_UINT)
			return 0;
		*(c->id == MLX_VF_MAX_TX_RATE ? &s.max_tx_rate : &s.min_tx_rate) = (uint32_t)v->u;
		break;
	case MLX_VF_SPOOFCHK:
	case MLX_VF_TRUST:
		s.attr = c->id == MLX_VF_TRUST ? MLX_VF_SET_TRUST : MLX_VF_SET_SPOOFCHK;
		if (v->kind != MLX_VAL_BOOL)
			return 0;
		s.on = v->b;
		break;
	case MLX_VF_LINK_STATE:
		s.attr = MLX_VF_SET_STATE;
		if (v->kind != MLX_VAL_STR || link_state_of(v->s, &s.link_state) < 0)
			return 0;
		break;
	default:
		return -EINVAL;
	}
	/* Whatever the outcome, the VF must be read again. */
	w->fresh = false;
	return mlx_sriov_vf_set(ctx, w->pf, &w->cur, &s, 1);
}

/*
 * The rate pair as the writes leave it: a maximum of 0 is no limit, else
 * the minimum may not exceed it (mlx5 refuses: mlx5_eswitch_set_vport_rate);
 * the half not given is the VF's current one, read under the lock.  Each
 * rate is its own write with the other half as it stands, so the order
 * keeps every step valid: the maximum first, unless it drops below the
 * current minimum.
 */
static int sr_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl)
{
	struct mlx_change *mx = mlx_plan_find(pl, "max_tx_rate");
	struct mlx_change *mn = mlx_plan_find(pl, "min_tx_rate");
	const struct mlx_vf_info *vf;
	uint64_t max, min;
	int r;

	if (!mx && !mn)
		return 0;
	r = vf_now(ctx, feat, &vf);
	if (r < 0)
		return r;
	max = mx ? mx->new.u : vf->max_tx_rate;
	min = mn ? mn->new.u : vf->min_tx_rate;
	if (max && min > max)
		return mlx_err(ctx, EINVAL, "invalid rate: min-rate %llu would be above max-rate %llu "
			       "Mb/s", (unsigned long long)min, (unsigned long long)max);
	if (mx && mn && ((mx < mn) == (max && max < vf->min_tx_rate))) {
		struct mlx_change t = *mn;

		*mn = *mx;
		*mx = t;
	}
	return 0;
}

const struct mlx_write_ops mlx_sriov_write_ops = {
	.read = sr_read,
	.plan = sr_plan,
	.write = sr_write,
};

void mlx_sriov_writer_free(struct mlx_sriov_writer *w)
{
	if (w->have)
		mlx_link_vfs_free(&w->cur);
	w->have = w->fresh = false;
}
