/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SR-IOV in the write engine (lib/write.h): numvfs, the eswitch mode, and
 * one VF's settings, each its own typed change.  VLAN and QoS travel in
 * one IFLA_VF_VLAN, the two rates in one IFLA_VF_RATE
 * (include/uapi/linux/if_link.h), and a VF's writes are one all-or-nothing
 * set: they are gathered and sent by the flush.
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

	mlx_fn_sysfs_dir(pf, path, sizeof(path));
	strncat(path, "/sriov_numvfs", sizeof(path) - strlen(path) - 1);
	r = mlx_read_s64(ctx, path, &v);
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read '%s': %s", path, strerror(-r));
	*n = v > 0 ? (unsigned)v : 0;
	return 0;
}

/* The VF as the kernel reports it now (queried once per state). */
static int vf_now(struct mlx_ctx *ctx, struct mlx_sriov_writer *w, const struct mlx_vf_info **out)
{
	const struct mlx_link_vfs *t = w->table && !w->fresh ? w->table : &w->cur;

	if (!w->fresh && !w->table) {
		int r;

		if (w->have)
			mlx_link_vfs_free(&w->cur);
		w->have = false;
		r = mlx_sriov_query(ctx, w->pf, &w->cur);
		if (r < 0)
			return r;
		w->have = w->fresh = true;
	}
	for (size_t i = 0; i < t->nvf; i++)
		if (t->vf[i].vf == w->vf) {
			*out = &t->vf[i];
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

int mlx_sriov_plan_vf(struct mlx_plan *pl, const struct mlx_vf_info *vf)
{
	for (int s = MLX_VF_MAC; s <= MLX_VF_LINK_STATE; s++) {
		struct mlx_val v = vf_val(vf, (enum mlx_sriov_setting)s);

		if (v.kind != MLX_VAL_NULL && mlx_sriov_plan_add(pl, (enum mlx_sriov_setting)s, v) < 0)
			return -ENOMEM;
	}
	return 0;
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
		if (w->absent) {
			/* made by the planned numvfs change: unknown until then */
			*out = mlx_val_null();
			return 0;
		}
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

/* Put @v into the gathered VF state. */
static void vf_put(struct mlx_vf_info *vf, enum mlx_sriov_setting s, const struct mlx_val *v)
{
	uint32_t st;

	switch (s) {
	case MLX_VF_MAC:
		if (v->kind == MLX_VAL_STR && mlx_parse_mac(v->s, vf->mac) == 0)
			vf->has_mac = true;
		break;
	case MLX_VF_VLAN:
	case MLX_VF_QOS:
		if (v->kind == MLX_VAL_UINT)
			*(s == MLX_VF_VLAN ? &vf->vlan : &vf->qos) = (uint32_t)v->u;
		break;
	case MLX_VF_MAX_TX_RATE:
	case MLX_VF_MIN_TX_RATE:
		if (v->kind == MLX_VAL_UINT)
			*(s == MLX_VF_MAX_TX_RATE ? &vf->max_tx_rate : &vf->min_tx_rate) = (uint32_t)v->u;
		break;
	case MLX_VF_SPOOFCHK:
	case MLX_VF_TRUST:
		if (v->kind == MLX_VAL_BOOL)
			*(s == MLX_VF_TRUST ? &vf->trust : &vf->spoofchk) = v->b;
		break;
	case MLX_VF_LINK_STATE:
		if (v->kind == MLX_VAL_STR && link_state_of(v->s, &st) == 0)
			vf->link_state = (int)st;
		break;
	default:
		break;
	}
}

/*
 * Numvfs and the eswitch mode are written at once; a VF's settings are
 * gathered into the state the writes ask for, and sent by the flush.
 * (A value unknown before, null, has nothing to put back.)
 */
static int sr_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_sriov_writer *w = feat;
	const struct mlx_vf_info *vf;
	int r;

	switch ((enum mlx_sriov_setting)c->id) {
	case MLX_SRIOV_NUMVFS:
		r = mlx_sriov_set_numvfs(ctx, w->pf, (unsigned)v->u);
		if (r == 0)
			w->numvfs_written = true;
		return r;
	case MLX_SRIOV_ESWITCH_MODE:
		if (v->kind != MLX_VAL_STR)
			return 0;
		return mlx_devlink_eswitch_set(ctx, w->pf, !strcmp(v->s, "switchdev") ?
					       DEVLINK_ESWITCH_MODE_SWITCHDEV :
					       DEVLINK_ESWITCH_MODE_LEGACY);
	default:
		break;
	}
	if (!w->gathering) {
		/* the set's own put-back needs the table as read now (w->cur) */
		w->table = NULL;
		r = vf_now(ctx, w, &vf);
		if (r < 0)
			return r;
		w->sent = w->want = *vf;
		w->gathering = true;
	}
	vf_put(&w->want, (enum mlx_sriov_setting)c->id, v);
	return 0;
}

/*
 * Send what the gathered state changes, as one set of RTM_SETLINK writes
 * (mlx_sriov_vf_set: all or nothing, on a captured system one change of
 * its files); nothing when it holds what the VF holds, so a put-back after
 * a refused set writes nothing.
 */
static int sr_flush(struct mlx_ctx *ctx, void *feat)
{
	struct mlx_sriov_writer *w = feat;
	const struct mlx_vf_info *a = &w->sent, *b = &w->want;
	struct mlx_vf_set s[6];
	size_t n = 0;
	int r;

	if (!w->gathering)
		return 0;
	memset(s, 0, sizeof(s));
	if (b->has_mac && memcmp(a->mac, b->mac, 6)) {
		s[n].attr = MLX_VF_SET_MAC;
		memcpy(s[n++].mac, b->mac, 6);
	}
	if (a->vlan != b->vlan || a->qos != b->qos) {
		s[n].attr = MLX_VF_SET_VLAN;
		s[n].vlan = b->vlan;
		s[n++].qos = b->qos;
	}
	if (a->min_tx_rate != b->min_tx_rate || a->max_tx_rate != b->max_tx_rate) {
		s[n].attr = MLX_VF_SET_RATE;
		s[n].min_tx_rate = b->min_tx_rate;
		s[n++].max_tx_rate = b->max_tx_rate;
	}
	if (a->spoofchk != b->spoofchk) {
		s[n].attr = MLX_VF_SET_SPOOFCHK;
		s[n++].on = b->spoofchk > 0;
	}
	if (a->trust != b->trust) {
		s[n].attr = MLX_VF_SET_TRUST;
		s[n++].on = b->trust > 0;
	}
	if (a->link_state != b->link_state) {
		s[n].attr = MLX_VF_SET_STATE;
		s[n++].link_state = (uint32_t)b->link_state;
	}
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		s[i].vf = w->vf;
	r = mlx_sriov_vf_set(ctx, w->pf, &w->cur, s, n);
	/* Read the VF again either way; what the set left is in sent. */
	w->fresh = false;
	if (r < 0) {
		w->want = w->sent;
		return r;
	}
	w->sent = w->want;
	return 0;
}

/*
 * The rate pair as the writes leave it: a maximum of 0 is no limit, else
 * the minimum may not exceed it (mlx5 refuses: mlx5_eswitch_set_vport_rate);
 * the half not given is the VF's current one, read under the lock.  The
 * pair goes in one IFLA_VF_RATE, so no order of the two can be wrong.
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
	if (((struct mlx_sriov_writer *)feat)->absent) {
		/* a VF still to be made: the driver's default, no limit */
		max = mx ? mx->new.u : 0;
		min = mn ? mn->new.u : 0;
		goto check;
	}
	r = vf_now(ctx, feat, &vf);
	if (r < 0)
		return r;
	max = mx ? mx->new.u : vf->max_tx_rate;
	min = mn ? mn->new.u : vf->min_tx_rate;
check:
	if (max && min > max)
		return mlx_err(ctx, EINVAL, "invalid rate: min-rate %llu would be above max-rate %llu "
			       "Mb/s", (unsigned long long)min, (unsigned long long)max);
	return 0;
}

const struct mlx_write_ops mlx_sriov_write_ops = {
	.read = sr_read,
	.plan = sr_plan,
	.write = sr_write,
	.flush = sr_flush,
};

void mlx_sriov_writer_free(struct mlx_sriov_writer *w)
{
	if (w->have)
		mlx_link_vfs_free(&w->cur);
	if (w->have_before)
		mlx_link_vfs_free(&w->before);
	if (w->have_vftable)
		mlx_link_vfs_free(&w->vftable);
	w->have = w->fresh = w->gathering = w->have_before = w->have_vftable = false;
}
