/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SR-IOV in the settings model (lib/settings.h): a PF's numvfs and eswitch
 * mode, and each VF's settings; their validators; the plans of the PF's
 * step (the eswitch mode, then numvfs) and of each VF's step, written by
 * lib/sriov/sriov-write.c's operations.
 *
 * A numvfs change takes every VF away and makes the new ones with the
 * driver's defaults (drivers/pci/iov.c): the PF's step reads the VFs'
 * settings before it (what a confirmation lists: MLX_CHG_DESTROYS), and
 * when that change is put back, writes them again on the VFs the old
 * count makes (after_put_back): so `sriov set numvfs` and apply both get
 * their VFs back, and so does the recovery of an interrupted transaction
 * (the journal keeps them: journal_save/journal_load).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/if_link.h>

#include "mlx-private.h"
#include "settings-private.h"

void mlx_vf_settings_from_info(struct mlx_vf_settings *s, const struct mlx_vf_info *vf)
{
	memset(s, 0, sizeof(*s));
	s->vf = vf->vf;
	s->mac_h = vf->has_mac ? MLX_SET : MLX_NULL;
	memcpy(s->mac, vf->mac, 6);
	s->vlan_h = s->qos_h = vf->has_vlan ? MLX_SET : MLX_NULL;
	s->vlan = vf->vlan;
	s->qos = vf->qos;
	s->proto_h = vf->vlan_proto ? MLX_SET : MLX_NULL;
	s->proto = vf->vlan_proto;
	s->min_h = s->max_h = vf->has_rate || vf->max_tx_rate ? MLX_SET : MLX_NULL;
	s->min_rate = vf->min_tx_rate;
	s->max_rate = vf->max_tx_rate;
	s->spoofchk_h = vf->spoofchk >= 0 ? MLX_SET : MLX_NULL;
	s->spoofchk = vf->spoofchk > 0;
	s->trust_h = vf->trust >= 0 ? MLX_SET : MLX_NULL;
	s->trust = vf->trust > 0;
	s->link_h = mlx_vf_link_state_str(vf->link_state) ? MLX_SET : MLX_NULL;
	s->link_state = vf->link_state;
}

void mlx_sriov_release(struct mlx_port_settings *p)
{
	struct mlx_sriov_settings *s = &p->sriov;

	free(s->vf);
	s->vf = NULL;
	s->nvf = s->cap = 0;
}

int mlx_sriov_dup(struct mlx_port_settings *dst, const struct mlx_port_settings *src)
{
	size_t n = src->sriov.nvf;

	dst->sriov.vf = NULL;
	dst->sriov.nvf = dst->sriov.cap = 0;
	if (!n)
		return 0;
	dst->sriov.vf = malloc(n * sizeof(*dst->sriov.vf));
	if (!dst->sriov.vf)
		return -ENOMEM;
	memcpy(dst->sriov.vf, src->sriov.vf, n * sizeof(*dst->sriov.vf));
	dst->sriov.nvf = dst->sriov.cap = n;
	return 0;
}

struct mlx_vf_settings *mlx_sriov_vf(struct mlx_ctx *ctx, struct mlx_sriov_settings *s,
				     uint32_t vf, bool add)
{
	struct mlx_vf_settings *v;

	for (size_t i = 0; i < s->nvf; i++)
		if (s->vf[i].vf == vf)
			return &s->vf[i];
	if (!add)
		return NULL;
	if (s->nvf == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;

		v = realloc(s->vf, cap * sizeof(*v));
		if (!v) {
			mlx_err(ctx, ENOMEM, "out of memory");
			return NULL;
		}
		s->vf = v;
		s->cap = cap;
	}
	v = &s->vf[s->nvf++];
	memset(v, 0, sizeof(*v));
	v->vf = vf;
	s->have = s->vfs_h = MLX_SET;
	return v;
}

/* Does @pf have SR-IOV: TotalVFs above 0, or, on a device of another bus
 * (netdevsim), an sriov_numvfs without sriov_totalvfs (its kernel refuses
 * a count too high; lib/sriov/sriov.c mlx_sriov_set_numvfs). */
static bool has_sriov(const struct mlx_function *pf)
{
	return pf && (pf->sriov_totalvfs > 0 || (pf->sriov_totalvfs < 0 && pf->sriov_numvfs >= 0));
}

void mlx_sriov_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		     struct mlx_port_settings *out)
{
	struct mlx_ctx *ctx = rd->ctx;
	struct mlx_sriov_settings *s = &out->sriov;
	const struct mlx_function *pf = t->fn;
	struct mlx_link_vfs l;
	struct mlx_eswitch esw;

	mlx_sriov_release(out);
	memset(s, 0, sizeof(*s));
	if (!has_sriov(pf)) {
		s->have = MLX_NULL;
		return;
	}
	s->have = MLX_SET;
	s->numvfs_h = pf->sriov_numvfs >= 0 ? MLX_SET : MLX_NULL;
	s->numvfs = pf->sriov_numvfs >= 0 ? (unsigned)pf->sriov_numvfs : 0;
	s->esw_h = MLX_NULL;
	if (mlx_devlink_eswitch_get(ctx, pf, &esw) == 0 && mlx_eswitch_mode_str(esw.mode)) {
		s->esw_h = MLX_SET;
		s->esw_mode = esw.mode;
	}
	mlx_err_clear(ctx);
	memset(&l, 0, sizeof(l));
	if (mlx_sriov_query(ctx, pf, &l) < 0) {
		mlx_err_clear(ctx);
		s->vfs_h = MLX_NULL;
	} else {
		s->vfs_h = MLX_SET;
		s->vf = l.nvf ? calloc(l.nvf, sizeof(*s->vf)) : NULL;
		for (size_t i = 0; s->vf && i < l.nvf; i++)
			mlx_vf_settings_from_info(&s->vf[i], &l.vf[i]);
		s->nvf = s->cap = s->vf ? l.nvf : 0;
	}
	mlx_link_vfs_free(&l);
}

/* ---- validators ---- */

int mlx_vf_put_mac(struct mlx_ctx *ctx, struct mlx_vf_settings *v, const char *text)
{
	uint8_t mac[6];

	if (mlx_parse_mac(text, mac) < 0)
		return mlx_err(ctx, EINVAL, "expected xx:xx:xx:xx:xx:xx");
	/* is_valid_ether_addr(): the broadcast address is a multicast one */
	if (mac[0] & 1)
		return mlx_err(ctx, EINVAL, "a multicast address cannot be a VF's address");
	memcpy(v->mac, mac, 6);
	v->mac_h = MLX_SET;
	return 0;
}

static int range(struct mlx_ctx *ctx, int64_t v, int64_t min, int64_t max)
{
	if (v >= min && v <= max)
		return 0;
	return mlx_err(ctx, ERANGE, "%" PRId64 " is out of range (%" PRId64 "-%" PRId64 ")", v, min,
		       max);
}

int mlx_vf_put_vlan(struct mlx_ctx *ctx, struct mlx_vf_settings *v, int64_t vlan)
{
	int r = range(ctx, vlan, 0, 4095);

	if (r == 0) {
		v->vlan = (uint32_t)vlan;
		v->vlan_h = MLX_SET;
	}
	return r;
}

int mlx_vf_put_qos(struct mlx_ctx *ctx, struct mlx_vf_settings *v, int64_t qos)
{
	int r = range(ctx, qos, 0, 7);

	if (r == 0) {
		v->qos = (uint32_t)qos;
		v->qos_h = MLX_SET;
	}
	return r;
}

int mlx_vf_put_proto(struct mlx_ctx *ctx, struct mlx_vf_settings *v, const char *text)
{
	/* IFLA_VF_VLAN writes 802.1Q; 802.1ad needs IFLA_VF_VLAN_LIST */
	if (strcmp(text, "0x8100"))
		return mlx_err(ctx, EINVAL, "'%s' is not one of the values it takes", text);
	v->proto = 0x8100;
	v->proto_h = MLX_SET;
	return 0;
}

int mlx_vf_put_rate(struct mlx_ctx *ctx, struct mlx_vf_settings *v, bool max, int64_t mbps)
{
	int r = range(ctx, mbps, 0, UINT32_MAX);

	if (r < 0)
		return r;
	if (max) {
		v->max_rate = (uint32_t)mbps;
		v->max_h = MLX_SET;
	} else {
		v->min_rate = (uint32_t)mbps;
		v->min_h = MLX_SET;
	}
	return 0;
}

int mlx_vf_put_link_state(struct mlx_ctx *ctx, struct mlx_vf_settings *v, const char *text)
{
	static const int states[] = { IFLA_VF_LINK_STATE_AUTO, IFLA_VF_LINK_STATE_ENABLE,
				      IFLA_VF_LINK_STATE_DISABLE };

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(text, mlx_vf_link_state_str(states[i]))) {
			v->link_state = states[i];
			v->link_h = MLX_SET;
			return 0;
		}
	return mlx_err(ctx, EINVAL, "'%s' is not one of the values it takes", text);
}

int mlx_eswitch_mode_parse(const char *s, int *mode)
{
	if (!strcmp(s, "legacy"))
		*mode = DEVLINK_ESWITCH_MODE_LEGACY;
	else if (!strcmp(s, "switchdev"))
		*mode = DEVLINK_ESWITCH_MODE_SWITCHDEV;
	else
		return -EINVAL;
	return 0;
}

/* ---- the plans ---- */

bool mlx_sriov_wanted(const struct mlx_port_settings *want, size_t vf)
{
	const struct mlx_sriov_settings *s = &want->sriov;

	(void)vf;
	return s->esw_h == MLX_SET || s->numvfs_h == MLX_SET || s->nvf;
}

bool mlx_vf_wanted(const struct mlx_port_settings *want, size_t vf)
{
	return vf < want->sriov.nvf;
}

int mlx_sriov_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_sriov_writer *w = feat;

	(void)ctx;
	memset(w, 0, sizeof(*w));
	w->pf = t->fn;
	w->parent = parent;
	return 0;
}

void mlx_sriov_close_step(void *feat)
{
	mlx_sriov_writer_free(feat);
}

/* The PF's step: the eswitch mode, then numvfs. */
int mlx_sriov_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			size_t vf, struct mlx_plan *pl)
{
	struct mlx_sriov_writer *w = feat;
	const struct mlx_sriov_settings *s = &want->sriov;
	const struct mlx_function *pf = w->pf;
	char why[400];
	unsigned n;
	int i;

	(void)vf;
	if (!pf || pf->role != MLX_FN_PF || !has_sriov(pf))
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "sriov", "%s has no SR-IOV",
				     pf ? pf->bdf : want->netdev);
	/* read now: under the transaction's locks, or for a dry run */
	if (mlx_sriov_numvfs(ctx, pf, &w->cur_numvfs) < 0) {
		snprintf(why, sizeof(why), "%s", mlx_errmsg(ctx));
		return mlx_plan_fail(ctx, pl, EIO, "sriov", "%s", why);
	}
	n = s->numvfs_h == MLX_SET ? s->numvfs : w->cur_numvfs;
	if (pf->sriov_totalvfs >= 0 && n > (unsigned)pf->sriov_totalvfs)
		return mlx_plan_fail(ctx, pl, ERANGE, "sriov.num_vfs", "%u is above the %d VFs %s can "
				     "have (TotalVFs)", n, pf->sriov_totalvfs, pf->bdf);
	w->recreates = n != w->cur_numvfs;
	if (w->recreates && w->cur_numvfs) {
		/* What the change loses (unknown without rtnetlink: the VFs
		 * are still listed, and a put-back leaves them at the defaults). */
		w->have_before = mlx_sriov_query(ctx, pf, &w->before) == 0;
		if (!w->have_before)
			mlx_log(ctx, MLX_LOG_WARN, "%s: the VFs' settings cannot be read (%s): a "
				"put-back would leave them at the defaults", pf->bdf, mlx_errmsg(ctx));
		mlx_err_clear(ctx);
	}
	/* The VF steps' old values, read once (2,032 VFs of 16 PFs: one
	 * table per PF instead of one per VF); none to share when numvfs
	 * changes, the VFs are made anew. */
	if (!w->recreates && s->nvf) {
		w->have_vftable = mlx_sriov_query(ctx, pf, &w->vftable) == 0;
		mlx_err_clear(ctx);
	}
	if (s->esw_h == MLX_SET &&
	    mlx_sriov_plan_add(pl, MLX_SRIOV_ESWITCH_MODE, mlx_val_str(mlx_eswitch_mode_str(s->esw_mode))) < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	if (s->numvfs_h == MLX_SET) {
		i = mlx_sriov_plan_add(pl, MLX_SRIOV_NUMVFS, mlx_val_uint(n));
		if (i < 0)
			return mlx_err(ctx, ENOMEM, "out of memory");
		/* between two non-zero counts: the VFs there are go, with their
		 * settings (from 0, the boot case, nothing is lost) */
		if (w->recreates && w->cur_numvfs)
			pl->c[i].flags |= MLX_CHG_DESTROYS;
	}
	return 0;
}

/* One VF's step: its element of sriov.vfs. */
int mlx_vf_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		     size_t vf, struct mlx_plan *pl)
{
	struct mlx_sriov_writer *w = feat, *pfw = w->parent;
	const struct mlx_sriov_settings *s = &want->sriov;
	const struct mlx_vf_settings *v = &s->vf[vf];
	static const enum mlx_sriov_setting canon[] = {
		MLX_VF_MAC, MLX_VF_VLAN, MLX_VF_QOS, MLX_VF_MIN_TX_RATE, MLX_VF_MAX_TX_RATE,
		MLX_VF_SPOOFCHK, MLX_VF_TRUST, MLX_VF_LINK_STATE,
	};
	char where[48], mac[24];
	unsigned count = 0;

	snprintf(where, sizeof(where), "sriov.vfs[%zu]", vf);
	if (!w->pf || w->pf->role != MLX_FN_PF)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "sriov", "%s has no SR-IOV",
				     w->pf ? w->pf->bdf : want->netdev);
	/* the count the desired state asks for (a dry run plans before
	 * numvfs is written) */
	if (s->numvfs_h == MLX_SET)
		count = s->numvfs;
	else if (pfw && pfw->cur_numvfs)
		count = pfw->cur_numvfs;
	else if (mlx_sriov_numvfs(ctx, w->pf, &count) < 0)
		mlx_err_clear(ctx);
	if (v->vf >= count)
		return mlx_plan_fail(ctx, pl, EINVAL, where, "%s has no VF %" PRIu32 " (num_vfs %u)",
				     w->pf->bdf, v->vf, count);
	w->vf = v->vf;
	w->table = pfw && pfw->have_vftable && !pfw->recreates ? &pfw->vftable : NULL;
	w->absent = pfw && pfw->recreates && !pfw->numvfs_written;
	for (size_t i = 0; i < (v->norder ? v->norder : sizeof(canon) / sizeof(canon[0])); i++) {
		enum mlx_sriov_setting id = v->norder ? (enum mlx_sriov_setting)v->order[i] : canon[i];
		struct mlx_val x;
		uint8_t h;

		switch (id) {
		case MLX_VF_MAC:
			/* lower case, as the kernel reports it: a second apply is equal */
			mlx_fmt_mac(v->mac, mac, sizeof(mac));
			h = v->mac_h, x = mlx_val_str(mac);
			break;
		case MLX_VF_VLAN:
			h = v->vlan_h, x = mlx_val_uint(v->vlan);
			break;
		case MLX_VF_QOS:
			h = v->qos_h, x = mlx_val_uint(v->qos);
			break;
		case MLX_VF_MIN_TX_RATE:
			h = v->min_h, x = mlx_val_uint(v->min_rate);
			break;
		case MLX_VF_MAX_TX_RATE:
			h = v->max_h, x = mlx_val_uint(v->max_rate);
			break;
		case MLX_VF_SPOOFCHK:
			h = v->spoofchk_h, x = mlx_val_bool(v->spoofchk);
			break;
		case MLX_VF_TRUST:
			h = v->trust_h, x = mlx_val_bool(v->trust);
			break;
		case MLX_VF_LINK_STATE:
			h = v->link_h, x = mlx_val_str(mlx_vf_link_state_str(v->link_state) ?
						      mlx_vf_link_state_str(v->link_state) : "");
			break;
		default:
			continue;
		}
		if (h == MLX_SET && mlx_sriov_plan_add(pl, id, x) < 0)
			goto oom;
	}
	return 0;
oom:
	return mlx_err(ctx, ENOMEM, "out of memory");
}

/*
 * numvfs went back to the count before: the VFs are there again, with the
 * defaults; each gets its settings from before, through the engine (which
 * writes only what differs, and reads each back).  The transaction's locks
 * are held.
 */
int mlx_sriov_after_put_back(struct mlx_ctx *ctx, void *feat)
{
	struct mlx_sriov_writer *w = feat;
	char first[400] = "";
	int err = 0;

	if (!w->recreates || !w->have_before)
		return 0;
	for (size_t i = 0; i < w->before.nvf; i++) {
		struct mlx_sriov_writer vw = { .pf = w->pf, .vf = w->before.vf[i].vf };
		struct mlx_write_req req = { .on = w->pf->bdf };
		struct mlx_write_result res;
		struct mlx_plan pl = { 0 };
		int e;

		e = mlx_sriov_plan_vf(&pl, &w->before.vf[i]);
		if (e == 0)
			e = mlx_write_prepare(ctx, &mlx_sriov_write_ops, &vw, &req, &pl, &res);
		if (e == 0)
			e = mlx_write_commit(ctx, &mlx_sriov_write_ops, &vw, &req, &pl, &res, NULL);
		if (e < 0 && !err) {
			snprintf(first, sizeof(first), "could not put back the settings of VF %" PRIu32
				 " of %s: %s", w->before.vf[i].vf, w->pf->bdf, mlx_errmsg(ctx));
			err = e;
		}
		mlx_sriov_writer_free(&vw);
		mlx_plan_free(&pl);
	}
	return err < 0 ? mlx_err(ctx, -err, "%s", first) : 0;
}

/* ---- the journal: the VFs' settings before, for a put-back after a crash ---- */

int mlx_sriov_journal_save(void *feat, int (*line)(void *arg, const char *text), void *arg)
{
	struct mlx_sriov_writer *w = feat;
	char buf[256];
	int r = 0;

	if (!w->recreates || !w->have_before)
		return 0;
	for (size_t i = 0; i < w->before.nvf && r == 0; i++) {
		const struct mlx_vf_info *v = &w->before.vf[i];

		snprintf(buf, sizeof(buf), "vf %" PRIu32 " %d %02x%02x%02x%02x%02x%02x %d %" PRIu32
			 " %" PRIu32 " %d %" PRIu32 " %" PRIu32 " %d %d %d", v->vf, v->has_mac,
			 v->mac[0], v->mac[1], v->mac[2], v->mac[3], v->mac[4], v->mac[5],
			 v->has_vlan, v->vlan, v->qos, v->has_rate, v->min_tx_rate, v->max_tx_rate,
			 v->spoofchk, v->trust, v->link_state);
		r = line(arg, buf);
	}
	return r;
}

int mlx_sriov_journal_load(struct mlx_ctx *ctx, void *feat, const char *text)
{
	struct mlx_sriov_writer *w = feat;
	struct mlx_vf_info v, *nv;
	unsigned mac[6];
	int has_mac, has_vlan, has_rate;

	memset(&v, 0, sizeof(v));
	if (sscanf(text, "vf %" SCNu32 " %d %2x%2x%2x%2x%2x%2x %d %" SCNu32 " %" SCNu32 " %d %"
		   SCNu32 " %" SCNu32 " %d %d %d", &v.vf, &has_mac, &mac[0], &mac[1], &mac[2],
		   &mac[3], &mac[4], &mac[5], &has_vlan, &v.vlan, &v.qos, &has_rate,
		   &v.min_tx_rate, &v.max_tx_rate, &v.spoofchk, &v.trust, &v.link_state) != 17)
		return mlx_err(ctx, EBADMSG, "not a VF's settings: '%.60s'", text);
	for (int i = 0; i < 6; i++)
		v.mac[i] = (uint8_t)mac[i];
	v.has_mac = has_mac != 0;
	v.has_vlan = has_vlan != 0;
	v.has_rate = has_rate != 0;
	v.rss_query_en = -1;
	nv = realloc(w->before.vf, (w->before.nvf + 1) * sizeof(*nv));
	if (!nv)
		return mlx_err(ctx, ENOMEM, "out of memory");
	w->before.vf = nv;
	w->before.vf[w->before.nvf++] = v;
	w->have_before = w->recreates = true;
	return 0;
}

/* ---- diff ---- */

void mlx_sriov_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	const struct mlx_sriov_settings *s = &p->sriov;
	char path[96], buf[32];

	if (s->have == MLX_NULL) {
		mlx_flat_null(fn, arg, "sriov");
		return;
	}
	if (s->have != MLX_SET)
		return;
	{
		struct mlx_val n = mlx_val_uint(s->numvfs);
		struct mlx_val e = mlx_val_str(mlx_eswitch_mode_str(s->esw_mode) ?
					       mlx_eswitch_mode_str(s->esw_mode) : "");

		mlx_flat_val(fn, arg, "sriov.num_vfs", s->numvfs_h, &n);
		mlx_flat_val(fn, arg, "sriov.eswitch_mode", s->esw_h, &e);
	}
	if (s->vfs_h == MLX_NULL)
		mlx_flat_null(fn, arg, "sriov.vfs");
	for (size_t i = 0; s->vfs_h == MLX_SET && i < s->nvf; i++) {
		const struct mlx_vf_settings *v = &s->vf[i];
		struct mlx_val x;
		int n = snprintf(path, sizeof(path), "sriov.vfs.%" PRIu32 ".", v->vf);
		char *k = path + n;
		size_t kl = sizeof(path) - (size_t)n;

		/* the key by memcpy, not snprintf: 9 a VF, thousands of VFs */
#define FLAT(key, have, val) do { memcpy(k, key, sizeof(key) <= kl ? sizeof(key) : 0); \
		x = (val); mlx_flat_val(fn, arg, path, have, &x); } while (0)
		if (kl < sizeof("min_tx_rate_mbps"))
			continue;
		mlx_fmt_mac(v->mac, buf, sizeof(buf));
		FLAT("mac", v->mac_h, mlx_val_str(buf));
		FLAT("vlan", v->vlan_h, mlx_val_uint(v->vlan));
		FLAT("qos", v->qos_h, mlx_val_uint(v->qos));
		snprintf(buf, sizeof(buf), "0x%04x", v->proto);
		FLAT("vlan_protocol", v->proto_h, mlx_val_str(buf));
		FLAT("min_tx_rate_mbps", v->min_h, mlx_val_uint(v->min_rate));
		FLAT("max_tx_rate_mbps", v->max_h, mlx_val_uint(v->max_rate));
		FLAT("spoofchk", v->spoofchk_h, mlx_val_bool(v->spoofchk));
		FLAT("trusted", v->trust_h, mlx_val_bool(v->trust));
		FLAT("link_state", v->link_h, mlx_val_str(mlx_vf_link_state_str(v->link_state) ?
							  mlx_vf_link_state_str(v->link_state) : ""));
#undef FLAT
	}
}

int mlx_sriov_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add)
{
	struct mlx_sriov_settings *dst = &pd->sriov;
	const struct mlx_sriov_settings *src = &ps->sriov;
	/* a VF the destination lacks: taken when it may be added, or when
	 * the destination has no VF list at all */
	bool vfs_add = add || dst->vfs_h != MLX_SET;

	if (src->have != MLX_SET)
		return 0;
	dst->have = MLX_SET;
	if (src->numvfs_h == MLX_SET) {
		dst->numvfs_h = MLX_SET;
		dst->numvfs = src->numvfs;
	}
	if (src->esw_h == MLX_SET) {
		dst->esw_h = MLX_SET;
		dst->esw_mode = src->esw_mode;
	}
	if (src->vfs_h == MLX_SET)
		dst->vfs_h = MLX_SET;
	for (size_t i = 0; i < src->nvf; i++) {
		const struct mlx_vf_settings *s = &src->vf[i];
		struct mlx_vf_settings *d = NULL;

		for (size_t j = 0; j < dst->nvf && !d; j++)
			if (dst->vf[j].vf == s->vf)
				d = &dst->vf[j];
		if (!d && !vfs_add)
			continue;
		if (!d) {
			struct mlx_vf_settings *v = realloc(dst->vf, (dst->nvf + 1) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			dst->vf = v;
			dst->cap = dst->nvf + 1;
			d = &dst->vf[dst->nvf++];
			memset(d, 0, sizeof(*d));
			d->vf = s->vf;
		}
#define TAKE(h, ...) do { if (s->h == MLX_SET) { d->h = MLX_SET; __VA_ARGS__; } } while (0)
		TAKE(mac_h, memcpy(d->mac, s->mac, 6));
		TAKE(vlan_h, d->vlan = s->vlan);
		TAKE(qos_h, d->qos = s->qos);
		TAKE(proto_h, d->proto = s->proto);
		TAKE(min_h, d->min_rate = s->min_rate);
		TAKE(max_h, d->max_rate = s->max_rate);
		TAKE(spoofchk_h, d->spoofchk = s->spoofchk);
		TAKE(trust_h, d->trust = s->trust);
		TAKE(link_h, d->link_state = s->link_state);
#undef TAKE
	}
	return 0;
}
