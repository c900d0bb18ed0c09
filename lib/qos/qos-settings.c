/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QoS in the settings model (lib/settings.h): the DCB state of a port as
 * `state` shows it, the validators of its settings, and the one plan that
 * takes a port from the DCB state it has to the one a desired state (or a
 * `qosconfig` write verb) asks for, with the rules of mlx5's DCB
 * (drivers/net/ethernet/mellanox/mlx5/core/en/dcbnl.c): trust follows the
 * APP table's DSCP entries, ETS shares only for ETS traffic classes, the
 * max-rate quantisation.  The changes it makes are lib/qos/dcb-write.c's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "settings-private.h"

void mlx_qos_settings_from_state(struct mlx_qos_settings *q, const struct mlx_dcb_state *st,
				 bool buf_sysfs)
{
	if (!st) {
		/* no DCB on this port: every section unknown */
		memset(q, 0, sizeof(*q));
		q->have = q->dcbx = q->trust = q->dscp2prio = q->pfc = q->ets = q->tcs = q->buffer = MLX_NULL;
		return;
	}
	/* the state may be the model's own (the reader reads into it) */
	if (&q->st != st)
		q->st = *st;
	memset((char *)q + sizeof(q->st), 0, sizeof(*q) - sizeof(q->st));
	st = &q->st;
	q->have = MLX_SET;
	q->buf_sysfs = buf_sysfs;
	q->dcbx = st->has_dcbx ? MLX_SET : MLX_NULL;
	q->dcbx_mode = st->has_dcbx ? MLX_SET : MLX_ABSENT;
	q->trust = MLX_SET;
	q->trust_dscp = mlx_dcb_trust_dscp(st);
	q->dscp2prio = MLX_SET;
	q->pfc = st->has_pfc ? MLX_SET : MLX_NULL;
	q->pfc_prios = q->pfc_cable = st->has_pfc ? MLX_SET : MLX_ABSENT;
	q->ets = q->tcs = st->has_ets ? MLX_SET : MLX_NULL;
	if (st->has_ets) {
		unsigned cap = st->ets.ets_cap && st->ets.ets_cap <= 8 ? st->ets.ets_cap : 8;

		for (unsigned i = 0; i < 8; i++)
			q->prio_tc[i] = MLX_SET;
		for (unsigned tc = 0; tc < cap; tc++) {
			q->tc[tc] = q->tsa[tc] = q->rate[tc] = MLX_SET;
			q->bw[tc] = st->ets.tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS ? MLX_SET : MLX_NULL;
		}
	}
	q->buffer = st->has_buffer ? MLX_SET : MLX_NULL;
	for (int i = 0; st->has_buffer && i < 8; i++)
		q->p2b[i] = q->size[i] = MLX_SET;
}

void mlx_qos_read(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		  struct mlx_port_settings *out)
{
	struct mlx_ctx *ctx = rd->ctx;
	struct mlx_qos_settings *q = &out->qos;
	bool sysfs = false;
	int r;

	memset(&q->st, 0, sizeof(q->st));
	/* a netdev that is no ConnectX port (--any-netdev): its knobs only */
	if (!t->fn) {
		mlx_qos_settings_from_state(q, NULL, false);
		return;
	}
	r = t->ifname ? mlx_dcb_get(ctx, t->ifname, &q->st) : -ENODEV;
	if (r < 0) {
		mlx_log(ctx, MLX_LOG_INFO, "%s: no DCB state: %s", t->ifname ? t->ifname : "-",
			mlx_errmsg(ctx));
		mlx_err_clear(ctx);
		mlx_qos_settings_from_state(q, NULL, false);
		return;
	}
	/* MLNX_OFED shows the buffers in qos/ sysfs where dcbnl has none */
	if (!q->st.has_buffer && mlx_dcb_sysfs_buffer(ctx, t->ifname, &q->st.buffer) == 0)
		q->st.has_buffer = sysfs = true;
	mlx_err_clear(ctx);
	mlx_qos_settings_from_state(q, &q->st, sysfs);
}

/* ---- validators ---- */

/* The section @h of a desired state, now given. */
static void given(uint8_t *h, struct mlx_qos_settings *q)
{
	*h = MLX_SET;
	q->have = MLX_SET;
}

/* "N is out of range (MIN-MAX)": the one wording of a range. */
static int range(struct mlx_ctx *ctx, int64_t v, int64_t min, int64_t max)
{
	if (v >= min && v <= max)
		return 0;
	return mlx_err(ctx, ERANGE, "%" PRId64 " is out of range (%" PRId64 "-%" PRId64 ")", v, min,
		       max);
}

int mlx_qos_put_pfc_prio(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t prio)
{
	int r = range(ctx, prio, 0, 7);

	if (r < 0)
		return r;
	if (q->pfc_prios == MLX_SET && (q->st.pfc.pfc_en >> prio & 1))
		return mlx_err(ctx, EEXIST, "priority %" PRId64 " is given twice", prio);
	given(&q->pfc, q);
	if (q->pfc_prios != MLX_SET)
		q->st.pfc.pfc_en = 0;
	q->pfc_prios = MLX_SET;
	q->st.pfc.pfc_en |= (uint8_t)(1u << prio);
	return 0;
}

int mlx_qos_put_cable(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t metres)
{
	int r = range(ctx, metres, 0, MLX_DCB_MAX_CABLE_LEN);

	if (r < 0)
		return r;
	given(&q->pfc, q);
	q->pfc_cable = MLX_SET;
	q->st.pfc.delay = (uint16_t)metres;
	return 0;
}

static bool has_dscp(const struct mlx_dcb_state *st, int64_t dscp)
{
	for (size_t i = 0; i < st->napp; i++)
		if (st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP && st->app[i].protocol == dscp)
			return true;
	return false;
}

int mlx_qos_put_dscp(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t dscp, int64_t prio)
{
	int r = range(ctx, dscp, 0, MLX_DCB_NDSCP - 1);

	if (r < 0)
		return r;
	if (q->dscp2prio == MLX_SET && has_dscp(&q->st, dscp))
		return mlx_err(ctx, EEXIST, "DSCP %" PRId64 " is listed twice", dscp);
	if ((r = range(ctx, prio, 0, 7)) < 0)
		return r;
	given(&q->dscp2prio, q);
	if (q->st.napp >= MLX_DCB_MAX_APP)
		return mlx_err(ctx, E2BIG, "more than %d APP entries", MLX_DCB_MAX_APP);
	q->st.app[q->st.napp].selector = IEEE_8021QAZ_APP_SEL_DSCP;
	q->st.app[q->st.napp].protocol = (uint16_t)dscp;
	q->st.app[q->st.napp].priority = (uint8_t)prio;
	q->st.napp++;
	return 0;
}

int mlx_qos_put_prio_tc(struct mlx_ctx *ctx, struct mlx_qos_settings *q, unsigned prio, int64_t tc)
{
	int r = range(ctx, tc, 0, 7);

	if (r < 0 || (r = range(ctx, prio, 0, 7)) < 0)
		return r;
	given(&q->ets, q);
	q->prio_tc[prio] = MLX_SET;
	q->st.ets.prio_tc[prio] = (uint8_t)tc;
	return 0;
}

int mlx_qos_tsa_parse(const char *s, uint8_t *tsa)
{
	if (!strcmp(s, "strict"))
		*tsa = IEEE_8021QAZ_TSA_STRICT;
	else if (!strcmp(s, "ets"))
		*tsa = IEEE_8021QAZ_TSA_ETS;
	else if (!strcmp(s, "vendor"))
		*tsa = IEEE_8021QAZ_TSA_VENDOR;
	else if (!strcmp(s, "cbs"))
		*tsa = IEEE_8021QAZ_TSA_CB_SHAPER;
	else
		return -EINVAL;
	return 0;
}

static int tc_entry(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc)
{
	int r = range(ctx, tc, 0, 7);

	if (r < 0)
		return r;
	given(&q->tcs, q);
	q->tc[tc] = MLX_SET;
	return 0;
}

int mlx_qos_put_tc(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc)
{
	int r = range(ctx, tc, 0, 7);

	if (r < 0)
		return r;
	if (q->tc[tc] == MLX_SET)
		return mlx_err(ctx, EEXIST, "TC %" PRId64 " is named twice", tc);
	return tc_entry(ctx, q, tc);
}

int mlx_qos_put_tsa(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc, const char *tsa)
{
	uint8_t t;
	int r = tc_entry(ctx, q, tc);

	if (r < 0)
		return r;
	if (mlx_qos_tsa_parse(tsa, &t) < 0)
		return mlx_err(ctx, EINVAL, "'%s' is not one of the values it takes", tsa);
	q->tsa[tc] = MLX_SET;
	q->st.ets.tc_tsa[tc] = t;
	return 0;
}

int mlx_qos_put_bw(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc, int64_t pct)
{
	int r = tc_entry(ctx, q, tc);

	if (r < 0 || (r = range(ctx, pct, 0, 100)) < 0)
		return r;
	q->bw[tc] = MLX_SET;
	q->st.ets.tc_tx_bw[tc] = (uint8_t)pct;
	return 0;
}

int mlx_qos_put_rate(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc, int64_t mbps)
{
	int r = tc_entry(ctx, q, tc);

	if (r < 0 || (r = range(ctx, mbps, 0, 4000000)) < 0)
		return r;
	q->rate[tc] = MLX_SET;
	q->st.maxrate.tc_maxrate[tc] = (uint64_t)mbps * 1000;
	return 0;
}

int mlx_qos_put_p2b(struct mlx_ctx *ctx, struct mlx_qos_settings *q, unsigned prio, int64_t buf)
{
	int r = range(ctx, buf, 0, DCBX_MAX_BUFFERS - 1);

	if (r < 0 || (r = range(ctx, prio, 0, 7)) < 0)
		return r;
	given(&q->buffer, q);
	q->p2b[prio] = MLX_SET;
	q->st.buffer.prio2buffer[prio] = (uint8_t)buf;
	return 0;
}

int mlx_qos_put_size(struct mlx_ctx *ctx, struct mlx_qos_settings *q, unsigned buf, int64_t bytes)
{
	int r = range(ctx, bytes, 0, UINT32_MAX);

	if (r < 0 || (r = range(ctx, buf, 0, 7)) < 0)
		return r;
	given(&q->buffer, q);
	q->size[buf] = MLX_SET;
	q->st.buffer.buffer_size[buf] = (uint32_t)bytes;
	return 0;
}

/* ---- the plan ---- */

bool mlx_qos_wanted(const struct mlx_port_settings *want, size_t vf)
{
	const struct mlx_qos_settings *q = &want->qos;

	(void)vf;
	return q->dcbx_mode == MLX_SET || q->trust == MLX_SET || q->dscp2prio == MLX_SET ||
	       q->pfc == MLX_SET || q->ets == MLX_SET || q->tcs == MLX_SET || q->buffer == MLX_SET ||
	       q->d2p_set || q->d2p_del;
}

int mlx_qos_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_dcb_writer *w = feat;

	(void)parent;
	if (mlx_dcb_writer_init(w, t->ifname) < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	return 0;
}

int mlx_qos_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t)
{
	if (mlx_dcb_may_write(ctx))
		return 0;
	return mlx_err(ctx, EPERM, "cannot change the QoS settings of '%s': permission denied (DCB "
		       "changes need CAP_NET_ADMIN); nothing was changed", mlx_port_ref_name(t));
}

void mlx_qos_close(void *feat)
{
	mlx_dcb_writer_free(feat);
}

static void drop_dscp(struct mlx_dcb_state *n)
{
	size_t k = 0;

	for (size_t i = 0; i < n->napp; i++)
		if (n->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
			n->app[k++] = n->app[i];
	n->napp = k;
}

static void add_dscp(struct mlx_dcb_state *n, int dscp, int prio)
{
	if (n->napp >= MLX_DCB_MAX_APP)
		return;
	n->app[n->napp].selector = IEEE_8021QAZ_APP_SEL_DSCP;
	n->app[n->napp].protocol = (uint16_t)dscp;
	n->app[n->napp].priority = (uint8_t)prio;
	n->napp++;
}

/* What the port lacks: exit 4. */
#define LACKS(where, what) \
	mlx_plan_fail(ctx, pl, EOPNOTSUPP, where, "'%s' reports no " what "; nothing was changed", \
		      w->ifname)

/* The DSCP map of @q (a desired state's whole map, or the verbs' edits of
 * single entries) onto @n; the notes mlx5's trust rule makes worth one. */
static int plan_dscp(struct mlx_ctx *ctx, const struct mlx_dcb_writer *w,
		     const struct mlx_qos_settings *q, const struct mlx_dcb_state *old,
		     struct mlx_dcb_state *n, struct mlx_plan *pl)
{
	bool was = mlx_dcb_trust_dscp(old);
	int map[MLX_DCB_NDSCP], added = 0;

	if (q->dscp2prio == MLX_SET) {
		drop_dscp(n);
		for (size_t i = 0; i < q->st.napp; i++)
			if (q->st.app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
				add_dscp(n, q->st.app[i].protocol, q->st.app[i].priority);
	}
	for (int d = 0; d < MLX_DCB_NDSCP; d++) {
		size_t k;

		if (!((q->d2p_set | q->d2p_del) >> d & 1))
			continue;
		for (k = 0; k < n->napp; k++)
			if (n->app[k].selector == IEEE_8021QAZ_APP_SEL_DSCP && n->app[k].protocol == d)
				break;
		if (q->d2p_set >> d & 1) {
			if (k == n->napp)
				add_dscp(n, d, q->d2p_prio[d]);
			else
				n->app[k].priority = q->d2p_prio[d];
			continue;
		}
		if (k == n->napp || n->app[k].priority != q->d2p_prio[d])
			return mlx_plan_fail(ctx, pl, EINVAL, "dscp2prio", "cannot delete DSCP %d -> "
					     "priority %u on %s: the map has %s; nothing was changed",
					     d, q->d2p_prio[d], w->ifname, k == n->napp ?
					     "no entry for that DSCP" : "another priority for it");
		memmove(&n->app[k], &n->app[k + 1], (n->napp - k - 1) * sizeof(n->app[0]));
		n->napp--;
	}
	if (q->trust == MLX_SET && !q->trust_dscp) {
		size_t before = n->napp;

		drop_dscp(n);
		if (before != n->napp)
			mlx_plan_note(pl, "mlx5 trusts PCP when the APP table has no DSCP entry: the %zu "
				      "DSCP entries were removed", before - n->napp);
		return 0;
	}
	if (q->trust == MLX_SET && (q->trust_fill || !mlx_dcb_trust_dscp(n))) {
		/* as mlnx_qos --trust dscp: the default map where there is none
		 * (a desired state's map is what it says: only an empty one) */
		mlx_dcb_dscp_map(n, map);
		for (int d = 0; d < MLX_DCB_NDSCP && n->napp < MLX_DCB_MAX_APP; d++)
			if (map[d] < 0) {
				add_dscp(n, d, d >> 3);
				added++;
			}
		if (added)
			mlx_plan_note(pl, "mlx5 trusts DSCP when the APP table has a DSCP entry: installed "
				      "the default map (priority = DSCP / 8) for the %d DSCP values that "
				      "had no entry, as mlnx_qos --trust dscp does", added);
		return 0;
	}
	if (!was && mlx_dcb_trust_dscp(n))
		mlx_plan_note(pl, "mlx5: the first DSCP entry switches the port to trust dscp; DSCP "
			      "values without an entry map to priority 0 ('trust dscp' installs the full "
			      "default map)");
	if (was && !mlx_dcb_trust_dscp(n))
		mlx_plan_note(pl, "mlx5: deleting the last DSCP entry switches the port back to trust "
			      "pcp");
	return 0;
}

static int plan_ets(struct mlx_ctx *ctx, const struct mlx_dcb_writer *w,
		    const struct mlx_qos_settings *q, const struct mlx_dcb_state *old,
		    struct mlx_dcb_state *n, struct mlx_plan *pl)
{
	struct ieee_ets *e = &n->ets;
	unsigned cap = old->ets.ets_cap && old->ets.ets_cap <= 8 ? old->ets.ets_cap : 8;
	const char *where = q->tcs == MLX_SET ? "tcs" : "ets";
	char why[200];

	if (!old->has_ets)
		return LACKS(where, "ETS configuration (the driver has no ieee_getets)");
	/* mlx5 reports 100 for a strict or vendor TC: a share only of ETS ones */
	for (int tc = 0; tc < 8; tc++)
		if (e->tc_tsa[tc] != IEEE_8021QAZ_TSA_ETS)
			e->tc_tx_bw[tc] = 0;
	for (int p = 0; p < 8; p++) {
		if (q->prio_tc[p] != MLX_SET)
			continue;
		if (q->st.ets.prio_tc[p] >= cap)
			return mlx_plan_fail(ctx, pl, EINVAL, "ets.prio_tc", "cannot map priority %d to "
					     "TC %u on %s: it has %u traffic classes (TC 0-%u); nothing "
					     "was changed", p, q->st.ets.prio_tc[p], w->ifname, cap,
					     cap - 1);
		e->prio_tc[p] = q->st.ets.prio_tc[p];
	}
	for (unsigned tc = 0; tc < 8; tc++) {
		if (q->tc[tc] != MLX_SET)
			continue;
		if (tc >= cap)
			return mlx_plan_fail(ctx, pl, EINVAL, "tcs", "TC %u does not exist on %s: it has "
					     "%u traffic classes (TC 0-%u)", tc, w->ifname, cap, cap - 1);
		if (q->tsa[tc] == MLX_SET) {
			e->tc_tsa[tc] = q->st.ets.tc_tsa[tc];
			if (e->tc_tsa[tc] != IEEE_8021QAZ_TSA_ETS)
				e->tc_tx_bw[tc] = 0;
		}
	}
	for (unsigned tc = 0; tc < cap; tc++) {
		uint8_t bw = q->st.ets.tc_tx_bw[tc];

		if (q->tc[tc] != MLX_SET || q->bw[tc] != MLX_SET)
			continue;
		if (e->tc_tsa[tc] != IEEE_8021QAZ_TSA_ETS && bw)
			return mlx_plan_fail(ctx, pl, EINVAL, "tcs", "cannot give TC %u %u%% on %s: it is "
					     "%s, and bandwidth shares apply only to ETS traffic "
					     "classes (add 'tsa %u:ets'); nothing was changed", tc, bw,
					     w->ifname, mlx_dcb_tsa_name(e->tc_tsa[tc]), tc);
		e->tc_tx_bw[tc] = bw;
	}
	if (memcmp(&n->ets, &old->ets, sizeof(n->ets)) &&
	    mlx_dcb_validate_ets(&n->ets, why, sizeof(why)) < 0)
		return mlx_plan_fail(ctx, pl, EINVAL, where, "cannot set ETS on %s: %s; nothing was "
				     "changed", w->ifname, why);
	return 0;
}

static int plan_rates(struct mlx_ctx *ctx, const struct mlx_dcb_writer *w,
		      const struct mlx_qos_settings *q, const struct mlx_dcb_state *old,
		      struct mlx_dcb_state *n, struct mlx_plan *pl)
{
	for (int tc = 0; tc < 8; tc++) {
		uint64_t mbps = q->st.maxrate.tc_maxrate[tc] / 1000, applied = 0;
		int how = MLX_RATE_EXACT;

		if (q->tc[tc] != MLX_SET || q->rate[tc] != MLX_SET)
			continue;
		if (!old->has_maxrate) {
			if (!mbps)
				continue;       /* no limit on a port that has none */
			return LACKS("tcs", "per-TC max rate (the driver has no ieee_getmaxrate)");
		}
		if (mbps && mlx_dcb_rate_quantize(mbps, &applied, &how) < 0)
			return mlx_plan_fail(ctx, pl, ERANGE, "tcs", "%" PRIu64 " Mb/s is above the "
					     "device's 255 Gb/s (TC %d)", mbps, tc);
		n->maxrate.tc_maxrate[tc] = applied * 1000;
		if (how == MLX_RATE_RAISED)
			mlx_plan_note(pl, "TC %d: %" PRIu64 " Mb/s is below the minimum: raised to 100 "
				      "Mb/s", tc, mbps);
		else if (how == MLX_RATE_ROUNDED)
			mlx_plan_note(pl, "TC %d: %" PRIu64 " Mb/s rounded down to %" PRIu64 " Mb/s (the "
				      "device takes 100 Mb/s steps up to 25.5 Gb/s, 1 Gb/s steps "
				      "above)", tc, mbps, applied);
	}
	return 0;
}

static int plan_buffer(struct mlx_ctx *ctx, const struct mlx_dcb_writer *w,
		       const struct mlx_qos_settings *q, const struct mlx_dcb_state *old,
		       struct mlx_dcb_state *n, struct mlx_plan *pl)
{
	char why[200];

	if (!old->has_buffer) {
		/* Buffers this driver shows only in sysfs (state's "source":
		 * "sysfs") are not written by DCB: equal is fine. */
		struct dcbnl_buffer b;
		bool same = mlx_dcb_sysfs_buffer(ctx, w->ifname, &b) == 0;

		for (int i = 0; i < 8; i++) {
			same = same && (q->p2b[i] != MLX_SET ||
					b.prio2buffer[i] == q->st.buffer.prio2buffer[i]);
			same = same && (q->size[i] != MLX_SET ||
					b.buffer_size[i] == q->st.buffer.buffer_size[i]);
		}
		mlx_err_clear(ctx);
		if (same)
			return 0;
		return LACKS("buffer", "receive buffer configuration (no DCB_ATTR_DCB_BUFFER: the "
			     "driver or firmware has no buffer support)");
	}
	for (int i = 0; i < 8; i++) {
		if (q->p2b[i] == MLX_SET)
			n->buffer.prio2buffer[i] = q->st.buffer.prio2buffer[i];
		if (q->size[i] == MLX_SET)
			n->buffer.buffer_size[i] = q->st.buffer.buffer_size[i];
	}
	if (mlx_dcb_validate_buffer(&n->buffer, why, sizeof(why)) < 0)
		return mlx_plan_fail(ctx, pl, EINVAL, "buffer", "cannot set the buffers of %s: %s; "
				     "nothing was changed", w->ifname, why);
	return 0;
}

int mlx_qos_plan(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		 size_t vf, struct mlx_plan *pl)
{
	struct mlx_dcb_writer *w = feat;
	const struct mlx_qos_settings *q = &want->qos;
	const struct mlx_dcb_state *old;
	struct mlx_dcb_state *n;
	bool ets_touched = q->ets == MLX_SET;
	char why[200];
	int e;

	(void)vf;
	if (!w->ifname)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "", "%s has no netdev, so no QoS settings",
				     want->pci_address[0] ? want->pci_address : "the port");
	e = mlx_dcb_writer_state(ctx, w, &old);
	if (e < 0)      /* mlx_err copies its arguments first: it may quote itself */
		return mlx_err(ctx, -e, "cannot read the QoS settings of %s: %s", w->ifname,
			       *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
	if (!w->planned && !(w->planned = malloc(sizeof(*w->planned))))
		return mlx_err(ctx, ENOMEM, "out of memory");
	n = w->planned;
	*n = *old;
	if (q->dcbx_mode == MLX_SET) {
		if (!old->has_dcbx)
			return LACKS("dcbx", "DCBX configuration (the driver has no getdcbx)");
		n->dcbx = q->st.dcbx & DCB_CAP_DCBX_HOST ? DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE
							  : old->dcbx & (uint8_t)~DCB_CAP_DCBX_HOST;
		if (!(n->dcbx & DCB_CAP_DCBX_HOST))
			mlx_plan_note(pl, "the firmware now negotiates ETS, PFC and APP with the switch "
				      "(LLDP/DCBX): settings made here may be replaced by what the "
				      "switch advertises");
	}
	e = plan_dscp(ctx, w, q, old, n, pl);
	if (e == 0 && q->pfc == MLX_SET) {
		if (!old->has_pfc)
			return LACKS("pfc", "PFC configuration");
		if (q->pfc_prios == MLX_SET)
			n->pfc.pfc_en = q->st.pfc.pfc_en;
		if (q->pfc_cable == MLX_SET) {
			n->pfc.delay = q->st.pfc.delay;
			mlx_plan_note(pl, "mlx5 uses the cable length to size the receive buffers' "
				      "xoff/xon thresholds");
		}
		if (mlx_dcb_validate_pfc(&n->pfc, why, sizeof(why)) < 0)
			return mlx_plan_fail(ctx, pl, EINVAL, "pfc", "cannot set PFC on %s: %s",
					     w->ifname, why);
	}
	for (int tc = 0; tc < 8; tc++)
		ets_touched |= q->tsa[tc] == MLX_SET || q->bw[tc] == MLX_SET;
	if (e == 0 && ets_touched)
		e = plan_ets(ctx, w, q, old, n, pl);
	if (e == 0 && q->tcs == MLX_SET)
		e = plan_rates(ctx, w, q, old, n, pl);
	if (e == 0 && q->buffer == MLX_SET)
		e = plan_buffer(ctx, w, q, old, n, pl);
	if (e < 0)
		return e;
	return mlx_dcb_plan(pl, old, n) < 0 ? mlx_err(ctx, ENOMEM, "out of memory") : 0;
}

/* ---- diff ---- */

static void flat_list_u8(mlx_flat_fn fn, void *arg, const char *pfx, const uint8_t *v,
			 const uint8_t *h)
{
	char path[64];

	for (int i = 0; i < 8; i++) {
		struct mlx_val x = mlx_val_uint(v[i]);

		snprintf(path, sizeof(path), "%s.%d", pfx, i);
		mlx_flat_val(fn, arg, path, h[i], &x);
	}
}

void mlx_qos_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	const struct mlx_qos_settings *q = &p->qos;
	const struct mlx_dcb_state *st = &q->st;
	char path[64];
	uint8_t u8[8];

	if (q->dcbx == MLX_NULL) {
		mlx_flat_null(fn, arg, "dcbx");
	} else if (q->dcbx == MLX_SET && q->dcbx_mode == MLX_SET) {
		mlx_flat_str(fn, arg, "dcbx.mode", st->dcbx & DCB_CAP_DCBX_HOST ? "host" : "firmware");
	}
	if (q->trust == MLX_NULL)
		mlx_flat_null(fn, arg, "trust");
	else if (q->trust == MLX_SET)
		mlx_flat_str(fn, arg, "trust", q->trust_dscp ? "dscp" : "pcp");
	if (q->dscp2prio == MLX_NULL) {
		mlx_flat_null(fn, arg, "dscp2prio");
	} else if (q->dscp2prio == MLX_SET) {
		int map[MLX_DCB_NDSCP];

		mlx_dcb_dscp_map(st, map);
		for (int d = 0; d < MLX_DCB_NDSCP; d++)
			if (map[d] >= 0) {
				snprintf(path, sizeof(path), "dscp2prio.%d", d);
				mlx_flat_uint(fn, arg, path, (uint64_t)map[d]);
			}
	}
	if (q->pfc == MLX_NULL) {
		mlx_flat_null(fn, arg, "pfc");
	} else if (q->pfc == MLX_SET) {
		for (int pr = 0; pr < 8 && q->pfc_prios == MLX_SET; pr++) {
			snprintf(path, sizeof(path), "pfc.enabled_priorities.%d", pr);
			mlx_flat_bool(fn, arg, path, st->pfc.pfc_en >> pr & 1);
		}
		if (q->pfc_cable == MLX_SET)
			mlx_flat_uint(fn, arg, "pfc.cable_length_m", st->pfc.delay);
	}
	if (q->ets == MLX_NULL)
		mlx_flat_null(fn, arg, "ets");
	else if (q->ets == MLX_SET)
		flat_list_u8(fn, arg, "ets.prio_tc", st->ets.prio_tc, q->prio_tc);
	if (q->tcs == MLX_NULL) {
		mlx_flat_null(fn, arg, "tcs");
	} else if (q->tcs == MLX_SET) {
		for (int tc = 0; tc < 8; tc++) {
			struct mlx_val bw = mlx_val_uint(st->ets.tc_tx_bw[tc]);
			struct mlx_val rate = mlx_val_uint(st->maxrate.tc_maxrate[tc] / 1000);

			if (q->tc[tc] != MLX_SET)
				continue;
			snprintf(path, sizeof(path), "tcs.%d.tsa", tc);
			if (q->tsa[tc] == MLX_SET)
				mlx_flat_str(fn, arg, path, mlx_dcb_tsa_name(st->ets.tc_tsa[tc]));
			else if (q->tsa[tc] == MLX_NULL)
				mlx_flat_null(fn, arg, path);
			snprintf(path, sizeof(path), "tcs.%d.bandwidth_pct", tc);
			mlx_flat_val(fn, arg, path, q->bw[tc], &bw);
			snprintf(path, sizeof(path), "tcs.%d.max_rate_mbps", tc);
			mlx_flat_val(fn, arg, path, q->rate[tc], &rate);
		}
	}
	if (q->buffer == MLX_NULL) {
		mlx_flat_null(fn, arg, "buffer");
	} else if (q->buffer == MLX_SET) {
		flat_list_u8(fn, arg, "buffer.prio2buffer", st->buffer.prio2buffer, q->p2b);
		for (int i = 0; i < 8; i++) {
			struct mlx_val x = mlx_val_uint(st->buffer.buffer_size[i]);

			snprintf(path, sizeof(path), "buffer.size_bytes.%d", i);
			mlx_flat_val(fn, arg, path, q->size[i], &x);
		}
	}
	(void)u8;
}

/* ---- a port named twice, a desired state laid over a state ---- */

int mlx_qos_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add)
{
	struct mlx_qos_settings *dst = &pd->qos;
	const struct mlx_qos_settings *s = &ps->qos;
	struct mlx_dcb_state *d = &dst->st;
	/* a traffic class the destination lacks: taken when it may be added,
	 * or when the destination has no TC list at all */
	bool tcs_add = add || dst->tcs != MLX_SET;

	if (s->have != MLX_SET)
		return 0;
	dst->have = MLX_SET;
#define TAKE(f) do { if (s->f == MLX_SET) dst->f = MLX_SET; } while (0)
	TAKE(dcbx);
	if (s->dcbx_mode == MLX_SET) {
		dst->dcbx_mode = MLX_SET;
		d->dcbx = s->st.dcbx;
	}
	if (s->trust == MLX_SET) {
		dst->trust = MLX_SET;
		dst->trust_dscp = s->trust_dscp;
		dst->trust_fill = s->trust_fill;
	}
	if (s->dscp2prio == MLX_SET) {
		size_t k = 0;

		/* the map is replaced whole: the DSCP entries go, others stay */
		dst->dscp2prio = MLX_SET;
		for (size_t i = 0; i < d->napp; i++)
			if (d->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
				d->app[k++] = d->app[i];
		for (size_t i = 0; i < s->st.napp && k < MLX_DCB_MAX_APP; i++)
			if (s->st.app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
				d->app[k++] = s->st.app[i];
		d->napp = k;
	}
	TAKE(pfc);
	if (s->pfc_prios == MLX_SET) {
		dst->pfc_prios = MLX_SET;
		d->pfc.pfc_en = s->st.pfc.pfc_en;
	}
	if (s->pfc_cable == MLX_SET) {
		dst->pfc_cable = MLX_SET;
		d->pfc.delay = s->st.pfc.delay;
	}
	TAKE(ets);
	TAKE(buffer);
	if (s->tcs == MLX_SET && dst->tcs != MLX_SET)
		memset(dst->tc, 0, sizeof(dst->tc));
	TAKE(tcs);
	for (int i = 0; i < 8; i++) {
		if (s->prio_tc[i] == MLX_SET) {
			dst->prio_tc[i] = MLX_SET;
			d->ets.prio_tc[i] = s->st.ets.prio_tc[i];
		}
		if (s->tc[i] == MLX_SET && dst->tc[i] != MLX_SET && !tcs_add)
			continue;
		TAKE(tc[i]);
		if (s->tsa[i] == MLX_SET) {
			dst->tsa[i] = MLX_SET;
			d->ets.tc_tsa[i] = s->st.ets.tc_tsa[i];
		}
		if (s->bw[i] == MLX_SET) {
			dst->bw[i] = MLX_SET;
			d->ets.tc_tx_bw[i] = s->st.ets.tc_tx_bw[i];
		}
		if (s->rate[i] == MLX_SET) {
			dst->rate[i] = MLX_SET;
			d->maxrate.tc_maxrate[i] = s->st.maxrate.tc_maxrate[i];
		}
	}
	for (int i = 0; i < 8; i++) {
		if (s->p2b[i] == MLX_SET) {
			dst->p2b[i] = MLX_SET;
			d->buffer.prio2buffer[i] = s->st.buffer.prio2buffer[i];
		}
		if (s->size[i] == MLX_SET) {
			dst->size[i] = MLX_SET;
			d->buffer.buffer_size[i] = s->st.buffer.buffer_size[i];
		}
	}
#undef TAKE
	dst->d2p_set |= s->d2p_set;
	dst->d2p_del |= s->d2p_del;
	for (int i = 0; i < MLX_DCB_NDSCP; i++)
		if ((s->d2p_set | s->d2p_del) >> i & 1)
			dst->d2p_prio[i] = s->d2p_prio[i];
	return 0;
}
