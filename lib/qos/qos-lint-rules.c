/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules of the QoS lint (lib/qos-lint.h), one function each, and their
 * table.  A rule reads the state, adds its findings with their evidence
 * and candidate fixes, best first; lib/qos/qos-lint.c picks the fix.
 *
 * Device facts the rules rest on:
 *  - mlx5 trusts DSCP iff the DCB APP table has a DSCP entry; with trust
 *    dscp a DSCP without an entry is received on priority 0, with trust
 *    pcp an untagged frame is (en_dcbnl.c; the port default priority is 0
 *    and not reachable from the driver).
 *  - A receive buffer is lossless when a priority with PFC maps to it
 *    (en/port_buffer.c update_buffer_lossy()): lossy traffic in it eats
 *    the headroom the PAUSE thresholds were sized for.
 *  - CNPs leave with DSCP cnp_dscp and PCP cnp_802p_prio; writing
 *    cnp_802p_prio sets cnp_prio_mode to 0 (cong.c, OFED en_ecn.c);
 *    mode 1 makes CNPs reflect the priority of the packet that caused them.
 *  - RoCE v2 packets carry the DSCP of their traffic class: MLNX_OFED's
 *    global traffic_class overrides every QP's, rdma_cm's default_roce_tos
 *    is the one of the connections it makes (cma_configfs.c).
 *  - DCQCN is what slows a RoCE sender before the receive buffer fills; on
 *    a lossless priority without it (or without the CNPs its NP side
 *    sends on ECN-marked packets) congestion can only become PFC pauses.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qos-lint-private.h"

/* ---- small facts ---- */

static bool lossless(const struct mlx_qos_state *st, int p)
{
	return st->has_pfc && p >= 0 && p < 8 && (st->pfc_en >> p) & 1;
}

/* The priority DSCP @d is received on. */
static int dscp_prio(const struct mlx_qos_state *st, int d)
{
	return st->dscp2prio[d] >= 0 ? st->dscp2prio[d] : 0;
}

/* A DSCP received on priority @p: p * 8 where the map is the default, else the lowest. */
static int dscp_for(const struct mlx_qos_state *st, int p)
{
	if (dscp_prio(st, p * 8) == p)
		return p * 8;
	for (int d = 0; d < MLX_DCB_NDSCP; d++)
		if (dscp_prio(st, d) == p)
			return d;
	return -1;
}

static unsigned ntc(const struct mlx_qos_state *st)
{
	return st->ets_cap && st->ets_cap <= 8 ? st->ets_cap : 8;
}

/* Priorities on buffer @b (or TC @b with @tc), split by PFC. */
static void split(const struct mlx_qos_state *st, int b, bool tc, unsigned *ll, unsigned *ly)
{
	*ll = *ly = 0;
	for (int p = 0; p < 8; p++)
		if ((tc ? st->prio_tc[p] : st->prio2buffer[p]) == b)
			*(lossless(st, p) ? ll : ly) |= 1u << p;
}

static uint32_t buffer_free(const struct mlx_qos_state *st)
{
	uint64_t sum = 0;

	for (int b = 0; b < 8; b++)
		sum += st->buffer_size[b];
	return st->buffer_total > sum ? (uint32_t)(st->buffer_total - sum) & ~127u : 0;
}

/* ---- findings ---- */

static struct mlx_lint_finding *add(struct mlx_lint_ctx *c, const char *id, enum mlx_lint_sev sev,
				    int subject, const char *fmt, va_list ap)
{
	struct mlx_lint_report *r = c->r;
	struct mlx_lint_finding *f;

	if (r->n >= MLX_LINT_MAXFIND)
		return NULL;
	f = &r->f[r->n];
	memset(f, 0, sizeof(*f));
	c->ncand[r->n] = 0;
	r->n++;
	f->id = id;
	f->sev = sev;
	f->subject = subject;
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	return f;
}

static struct mlx_lint_finding *find(struct mlx_lint_ctx *c, int subject, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static struct mlx_lint_finding *find(struct mlx_lint_ctx *c, int subject, const char *fmt, ...)
{
	const struct mlx_lint_rule *rule = &mlx_qos_lint_rules(NULL)[c->rule];
	struct mlx_lint_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = add(c, rule->id, rule->sev, subject, fmt, ap);
	va_end(ap);
	return f;
}

static struct mlx_lint_ev *ev(struct mlx_lint_finding *f, const char *key, enum mlx_lint_ev_type t,
			      int64_t v)
{
	struct mlx_lint_ev *e;

	if (!f || f->nev >= MLX_LINT_MAXEV)
		return NULL;
	e = &f->ev[f->nev++];
	e->key = key;
	e->type = t;
	e->v = v;
	return e;
}

static void ev_str(struct mlx_lint_finding *f, const char *key, const char *s)
{
	struct mlx_lint_ev *e = ev(f, key, s ? MLX_EV_STR : MLX_EV_NULL, 0);

	if (e && s)
		snprintf(e->s, sizeof(e->s), "%s", s);
}

/* 1 true, 0 false, -1 null */
static void ev_tri(struct mlx_lint_finding *f, const char *key, int v)
{
	ev(f, key, v < 0 ? MLX_EV_NULL : MLX_EV_BOOL, v > 0);
}

static void cand(struct mlx_lint_ctx *c, const struct mlx_lint_finding *f, const struct fix *x)
{
	size_t i = (size_t)(f - c->r->f);

	if (f && c->ncand[i] < MAXCAND)
		c->cand[i][c->ncand[i]++] = *x;
}

/* A fix with nothing to keep yet. */
static struct fix fix0(enum fcmd cmd)
{
	struct fix x;

	memset(&x, 0xff, sizeof(x));
	x.cmd = cmd;
	return x;
}

/* The rule cannot run: a finding of its own says so. */
static void skip(struct mlx_lint_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skip(struct mlx_lint_ctx *c, const char *fmt, ...)
{
	const char *id = mlx_qos_lint_rules(NULL)[c->rule].id;
	struct mlx_lint_finding *f;
	char why[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	c->r->evaluated[c->rule] = false;
	f = find(c, -1, "%s", "");
	if (!f)
		return;
	f->id = MLX_LINT_NOT_EVALUATED;
	f->sev = MLX_LINT_INFO;
	f->subject = (int)c->rule;
	snprintf(f->msg, sizeof(f->msg), "rule %s not evaluated: %s", id, why);
	ev_str(f, "rule", id);
	ev_str(f, "reason", why);
}

static bool need(struct mlx_lint_ctx *c, bool have, const char *why)
{
	if (!have)
		skip(c, "%s", why);
	return have;
}

static bool need_roce(struct mlx_lint_ctx *c)
{
	if (c->r->roce_prio >= 0)
		return true;
	skip(c, "the RoCE priority is unknown (%s): give --roce-prio PRIO", c->r->roce_why);
	return false;
}

/* ---- the rules ---- */

static void r_pfc_off_roce(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int p = c->r->roce_prio;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_PFC);

	if (!need_roce(c) || !need(c, st->has_pfc, "the driver reports no PFC configuration") ||
	    lossless(st, p))
		return;
	f = find(c, p, "PFC is off on priority %d, the RoCE priority (%s): RoCE traffic there is "
		 "lossy and sees drops and retransmissions under congestion", p, c->r->roce_why);
	ev(f, "priority", MLX_EV_INT, p);
	ev_str(f, "roce_priority_source", c->r->roce_source);
	ev(f, "pfc_enabled", MLX_EV_PRIOS, st->pfc_en);
	x.mask = (uint8_t)(st->pfc_en | 1u << p);
	cand(c, f, &x);
}

static void r_dcqcn_off_roce(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int p = c->r->roce_prio, rp, np;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_ENABLE);

	if (!need_roce(c))
		return;
	rp = st->rp_en[p];
	np = st->np_en[p];
	if (!need(c, rp >= 0 || np >= 0, "the kernel does not expose the per-priority DCQCN enable "
		  "(upstream mlx5: the firmware's ROCE_CC_PRIO_MASK, set with mlxconfig)") ||
	    (rp != 0 && np != 0))
		return;
	f = find(c, p, "DCQCN is off on priority %d, the RoCE priority (%s): %s", p, c->r->roce_why,
		 rp == 0 && np == 0 ? "no congestion control there, so congestion turns into PFC "
		 "pauses that spread" : rp == 0 ? "the sender side (RP) ignores the CNPs it receives" :
		 "the receiver side (NP) sends no CNPs");
	ev(f, "priority", MLX_EV_INT, p);
	ev_tri(f, "rp_enabled", rp);
	ev_tri(f, "np_enabled", np);
	x.prio = p;
	x.side = (rp == 0 ? 1 : 0) | (np == 0 ? 2 : 0);
	cand(c, f, &x);
}

static void r_dscp_map_no_roce(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int p = c->r->roce_prio;
	struct mlx_lint_finding *f;

	if (!need_roce(c) || !st->trust_dscp || dscp_for(st, p) >= 0)
		return;
	f = find(c, p, "trust is dscp but no DSCP is received on priority %d, the RoCE priority "
		 "(%s): RoCE packets cannot reach its queue", p, c->r->roce_why);
	ev(f, "priority", MLX_EV_INT, p);
	ev_str(f, "trust", "dscp");
	/* p*8+2 first: the usual RoCE DSCP (26 for priority 3) */
	for (int k = -1; k < 8; k++) {
		struct fix x = fix0(F_DSCP2PRIO);

		x.dscp = k < 0 ? p * 8 + 2 : p * 8 + k;
		x.prio = p;
		if (x.dscp != st->cnp_dscp && (k < 0 || k != 2))
			cand(c, f, &x);
	}
}

static void r_trust_pcp(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int p = c->r->roce_prio;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_TRUST);

	/* over a VLAN, RoCE packets carry a PCP: trust pcp is a set-up of its own */
	if (!need_roce(c) || st->trust_dscp || p == 0 || st->vlan == 1)
		return;
	f = find(c, p, "trust is pcp, but the RoCE priority is %d (%s) and %s: untagged RoCE v2 "
		 "packets carry no PCP and are received on priority 0; a DSCP-based set-up needs "
		 "trust dscp", p, c->r->roce_why, st->vlan == 0 ? "the port has no VLAN device" :
		 "no VLAN device on the port is known");
	ev_str(f, "trust", "pcp");
	ev(f, "priority", MLX_EV_INT, p);
	ev(f, "untagged_priority", MLX_EV_INT, 0);
	ev_tri(f, "vlan_device", st->vlan);
	cand(c, f, &x);
}

/* Move the CNPs (802.1p priority, and the DSCP with trust dscp) to lossless
 * priorities other than RoCE's first, then RoCE's. */
static void cnp_moves(struct mlx_lint_ctx *c, const struct mlx_lint_finding *f)
{
	const struct mlx_qos_state *st = c->st;

	for (int pass = 0; pass < 2; pass++)
		for (int l = 0; l < 8; l++) {
			struct fix x = fix0(F_CNP);

			if (!lossless(st, l) || (l == c->r->roce_prio) != (pass == 1))
				continue;
			if (l != st->cnp_prio)
				x.cprio = l;
			if (st->trust_dscp && dscp_prio(st, st->cnp_dscp) != l &&
			    (x.dscp = dscp_for(st, l)) < 0)
				continue;
			if (x.cprio >= 0 || x.dscp >= 0)
				cand(c, f, &x);
		}
}

static void r_cnp_lossy(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int C = st->cnp_prio;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_PFC);

	if (!need(c, C >= 0, "the CNP priority is not readable (no DCQCN files for this port)") ||
	    !need(c, st->has_pfc, "the driver reports no PFC configuration") ||
	    st->cnp_prio_mode == 1 || lossless(st, C))
		return;
	f = find(c, C, "CNPs are sent on priority %d (cnp_802p_prio), which is not lossless: a "
		 "dropped CNP leaves its DCQCN sender at full rate", C);
	ev(f, "cnp_802p_prio", MLX_EV_INT, C);
	ev(f, "pfc_enabled", MLX_EV_PRIOS, st->pfc_en);
	x.mask = (uint8_t)(st->pfc_en | 1u << C);
	cand(c, f, &x);
	if (st->cnp_dscp >= 0)
		cnp_moves(c, f);
}

static void r_cnp_mismatch(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int C = st->cnp_prio, D = st->cnp_dscp, M;
	struct mlx_lint_finding *f;
	struct fix x;

	if (!need(c, C >= 0 && D >= 0 && D < 64, "the CNP DSCP and priority are not readable (no "
		  "DCQCN files for this port)") || !st->trust_dscp || st->cnp_prio_mode == 1)
		return;
	M = dscp_prio(st, D);
	if (M == C)
		return;
	f = find(c, -1, "CNPs carry DSCP %d and priority %d (cnp_dscp, cnp_802p_prio), but with trust "
		 "dscp DSCP %d is received on priority %d%s: the two ends queue CNPs differently", D,
		 C, D, M, st->dscp2prio[D] < 0 ? " (it has no entry in the map)" : "");
	ev(f, "cnp_dscp", MLX_EV_INT, D);
	ev(f, "cnp_802p_prio", MLX_EV_INT, C);
	ev(f, "cnp_dscp_priority", MLX_EV_INT, M);
	/* The DCQCN setting is the fix; remapping a DSCP would move other traffic. */
	for (int pass = 0; pass < 2; pass++) {
		x = fix0(F_CNP);
		x.dscp = dscp_for(st, C);
		if (x.dscp >= 0 && (pass || lossless(st, C)))
			cand(c, f, &x);
		x = fix0(F_CNP);
		x.cprio = M;
		if (pass || lossless(st, M))
			cand(c, f, &x);
		if (!pass)
			cnp_moves(c, f);
	}
}

/*
 * The RoCE and CNP priorities are never moved out of a lossless buffer or
 * TC: when one of them is the lossy one there, the fix is PFC on it (what
 * pfc-off-roce-prio and cnp-prio-lossy propose too), so the fixes agree.
 */
static unsigned keep_lossless(struct mlx_lint_ctx *c, const struct mlx_lint_finding *f,
			      unsigned ly)
{
	const struct mlx_qos_state *st = c->st;
	unsigned rb = 0;
	struct fix x = fix0(F_PFC);

	if (c->r->roce_prio >= 0)
		rb |= 1u << c->r->roce_prio;
	if (st->cnp_prio >= 0 && st->cnp_prio < 8 && st->cnp_prio_mode != 1)
		rb |= 1u << st->cnp_prio;
	if ((ly & rb) && !(ly & ~rb)) {
		x.mask = (uint8_t)(st->pfc_en | ly);
		cand(c, f, &x);
	}
	return ly & ~rb;
}

/* Buffer moves: the priorities of @mask to buffer @to, and sizes. */
static struct fix buf_fix(unsigned mask, int to)
{
	struct fix x = fix0(F_BUFFER);

	for (int p = 0; p < 8; p++)
		if ((mask >> p) & 1)
			x.set[p] = (int8_t)to;
	return x;
}

/* Give buffer @to room: the free space, else half of @from. */
static void buf_room(struct mlx_lint_ctx *c, const struct mlx_lint_finding *f, struct fix x,
		     int from, int to)
{
	const struct mlx_qos_state *st = c->st;
	uint32_t half = (st->buffer_size[from] / 2) & ~127u, fr = buffer_free(st);

	if (fr) {
		x.val[to] = fr;
		cand(c, f, &x);
		x.val[to] = -1;
	}
	if (half && from != to) {
		x.val[from] = st->buffer_size[from] - half;
		x.val[to] = half;
		cand(c, f, &x);
	}
}

static void r_zero_buffer(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;

	if (!need(c, st->has_buffer, "the driver reports no receive buffer configuration") ||
	    !need(c, st->has_pfc, "the driver reports no PFC configuration"))
		return;
	for (int b = 0; b < 8; b++) {
		unsigned ll, ly, oll, oly;
		struct mlx_lint_finding *f;
		char l[32];
		int donor = -1;

		split(st, b, false, &ll, &ly);
		if (!ll || st->buffer_size[b])
			continue;
		mlx_prio_list(ll, l, sizeof(l));
		f = find(c, b, "receive buffer %d has 0 bytes but holds lossless priorities %s: PFC "
			 "has no headroom there, so they drop", b, l);
		ev(f, "buffer_index", MLX_EV_INT, b);
		ev(f, "buffer_size_bytes", MLX_EV_INT, 0);
		ev(f, "lossless_priorities", MLX_EV_PRIOS, ll);
		buf_room(c, f, buf_fix(0, b), b, b);
		for (int o = 0; o < 8; o++) {
			split(st, o, false, &oll, &oly);
			if (o != b && st->buffer_size[o] && oll && !oly) {
				struct fix x = buf_fix(ll, o);

				cand(c, f, &x);
			}
			if (o != b && !oll && (donor < 0 || st->buffer_size[o] > st->buffer_size[donor]))
				donor = o;
		}
		if (donor >= 0)
			buf_room(c, f, buf_fix(0, b), donor, b);
	}
}

static void r_shared_buffer(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;

	if (!need(c, st->has_buffer, "the driver reports no receive buffer configuration") ||
	    !need(c, st->has_pfc, "the driver reports no PFC configuration"))
		return;
	for (int b = 0; b < 8; b++) {
		unsigned ll, ly, oll, oly;
		struct mlx_lint_finding *f;
		char l[32], y[32];

		split(st, b, false, &ll, &ly);
		if (!ll || !ly)
			continue;
		mlx_prio_list(ll, l, sizeof(l));
		mlx_prio_list(ly, y, sizeof(y));
		f = find(c, b, "receive buffer %d holds lossless priorities %s and lossy priorities %s: "
			 "lossy traffic fills the headroom PFC needs, and the lossless ones drop", b, l, y);
		ev(f, "buffer_index", MLX_EV_INT, b);
		ev(f, "lossless_priorities", MLX_EV_PRIOS, ll);
		ev(f, "lossy_priorities", MLX_EV_PRIOS, ly);
		ly = keep_lossless(c, f, ly);
		for (int pass = 0; pass < 3; pass++)
			for (int o = 0; o < 8; o++) {
				struct fix x;

				split(st, o, false, &oll, &oly);
				if (o == b)
					continue;
				if (pass == 0 && ly && st->buffer_size[o] && oly && !oll)
					x = buf_fix(ly, o);
				else if (pass == 1 && st->buffer_size[o] && oll && !oly)
					x = buf_fix(ll, o);
				else if (pass == 2 && !oll && !oly) {
					x = buf_fix(ll, o);
					if (!st->buffer_size[o]) {
						buf_room(c, f, x, b, o);
						continue;
					}
				} else {
					continue;
				}
				cand(c, f, &x);
			}
	}
}

static struct fix tc_fix(unsigned mask, int to)
{
	struct fix x = fix0(F_PRIO_TC);

	for (int p = 0; p < 8; p++)
		if ((mask >> p) & 1)
			x.set[p] = (int8_t)to;
	return x;
}

static void r_shared_tc(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;

	if (!need(c, st->has_ets, "the driver reports no ETS configuration") ||
	    !need(c, st->has_pfc, "the driver reports no PFC configuration"))
		return;
	for (int t = 0; t < (int)ntc(st); t++) {
		unsigned ll, ly, oll, oly;
		struct mlx_lint_finding *f;
		char l[32], y[32];

		split(st, t, true, &ll, &ly);
		if (!ll || !ly)
			continue;
		mlx_prio_list(ll, l, sizeof(l));
		mlx_prio_list(ly, y, sizeof(y));
		f = find(c, t, "traffic class %d holds lossless priorities %s and lossy priorities %s: "
			 "they share one queue, so a PFC pause stops the lossy ones too and their "
			 "drops delay the lossless ones", t, l, y);
		ev(f, "tc", MLX_EV_INT, t);
		ev(f, "lossless_priorities", MLX_EV_PRIOS, ll);
		ev(f, "lossy_priorities", MLX_EV_PRIOS, ly);
		ly = keep_lossless(c, f, ly);
		/* an unused ETS TC that has a share first: that also ends its waste */
		for (int pass = 0; pass < 4; pass++)
			for (int o = 0; o < (int)ntc(st); o++) {
				struct fix x;

				split(st, o, true, &oll, &oly);
				if (o == t)
					continue;
				if (ly && ((pass == 0 && !oll && !oly && st->tc_tsa[o] == IEEE_8021QAZ_TSA_ETS &&
					    st->tc_bw[o]) || (pass == 1 && oly && !oll)))
					x = tc_fix(ly, o);
				else if ((pass == 2 && oll && !oly) || (pass == 3 && !oll && !oly))
					x = tc_fix(ll, o);
				else
					continue;
				cand(c, f, &x);
			}
	}
}

static void r_roce_tc_bw(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int p = c->r->roce_prio, t, donor = -1;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_BW);

	if (!need_roce(c) || !need(c, st->has_ets, "the driver reports no ETS configuration"))
		return;
	t = st->prio_tc[p];
	if (t >= 8 || st->tc_tsa[t] != IEEE_8021QAZ_TSA_ETS || st->tc_bw[t])
		return;
	f = find(c, t, "traffic class %d, which carries the RoCE priority %d (%s), has 0%% of the "
		 "ETS bandwidth: any other traffic starves it", t, p, c->r->roce_why);
	ev(f, "tc", MLX_EV_INT, t);
	ev(f, "priority", MLX_EV_INT, p);
	ev(f, "bandwidth_pct", MLX_EV_INT, 0);
	for (int o = 0; o < (int)ntc(st); o++)
		if (o != t && st->tc_tsa[o] == IEEE_8021QAZ_TSA_ETS &&
		    (donor < 0 || st->tc_bw[o] > st->tc_bw[donor]))
			donor = o;
	if (donor >= 0 && st->tc_bw[donor] >= 2) {
		x.val[t] = st->tc_bw[donor] / 2;
		x.val[donor] = st->tc_bw[donor] - x.val[t];
		cand(c, f, &x);
	}
}

static void r_roce_tc_rate(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int p = c->r->roce_prio, t;
	uint64_t kbps;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_RATE);

	if (!need_roce(c) || !need(c, st->has_ets && st->has_maxrate, "the driver reports no "
				   "per-TC max rate"))
		return;
	t = st->prio_tc[p];
	kbps = t < 8 ? st->tc_maxrate_kbps[t] : 0;
	if (!kbps || (st->speed_mbps > 0 && kbps / 1000 >= (uint64_t)st->speed_mbps))
		return;
	f = find(c, t, "traffic class %d, which carries the RoCE priority %d (%s), is limited to "
		 "%.1f Gb/s: above it RoCE traffic is held back and the port sends PFC pauses "
		 "instead of DCQCN slowing the senders", t, p, c->r->roce_why, (double)kbps / 1e6);
	ev(f, "tc", MLX_EV_INT, t);
	ev(f, "priority", MLX_EV_INT, p);
	ev(f, "max_rate_mbps", MLX_EV_INT, (int64_t)(kbps / 1000));   /* as show qos */
	if (st->speed_mbps > 0)
		ev(f, "speed_mbps", MLX_EV_INT, st->speed_mbps);
	else
		ev(f, "speed_mbps", MLX_EV_NULL, 0);
	x.prio = t;
	cand(c, f, &x);
}

static void r_pfc_prio0(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_PFC);

	if (!need(c, st->has_pfc, "the driver reports no PFC configuration") || !lossless(st, 0))
		return;
	f = find(c, 0, "PFC is on priority 0, where untagged traffic and every DSCP without a map "
		 "entry land: a pause there stops all of it, and a slow receiver spreads pauses "
		 "through the fabric");
	ev(f, "pfc_enabled", MLX_EV_PRIOS, st->pfc_en);
	x.mask = st->pfc_en & 0xfe;
	cand(c, f, &x);
}

static void r_unused_tc(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	int rt = c->r->roce_prio >= 0 ? st->prio_tc[c->r->roce_prio] : -1;

	if (!need(c, st->has_ets, "the driver reports no ETS configuration"))
		return;
	for (int u = 0; u < (int)ntc(st); u++) {
		unsigned ll, ly, oll, oly;
		struct mlx_lint_finding *f;
		struct fix x = fix0(F_BW);
		int to = -1;

		split(st, u, true, &ll, &ly);
		if (ll || ly || st->tc_tsa[u] != IEEE_8021QAZ_TSA_ETS || !st->tc_bw[u])
			continue;
		f = find(c, u, "traffic class %d gets %u%% of the ETS bandwidth but no priority maps "
			 "to it: that share is guaranteed to nobody", u, st->tc_bw[u]);
		ev(f, "tc", MLX_EV_INT, u);
		ev(f, "bandwidth_pct", MLX_EV_INT, st->tc_bw[u]);
		for (int o = 0; o < (int)ntc(st); o++) {
			split(st, o, true, &oll, &oly);
			if (o == u || !(oll | oly) || st->tc_tsa[o] != IEEE_8021QAZ_TSA_ETS)
				continue;
			if (o == rt) {
				to = o;
				break;
			}
			if (to < 0 || st->tc_bw[o] > st->tc_bw[to])
				to = o;
		}
		if (to >= 0) {
			x.val[u] = 0;
			x.val[to] = st->tc_bw[to] + st->tc_bw[u];
			cand(c, f, &x);
		}
	}
}

/* RoCE's own DSCP (issue 25: after `dscp2prio set 26 0` the lint said
 * nothing while every RoCE v2 packet landed on lossy priority 0). */
static void r_roce_dscp_lossy(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	const char *from;
	int d = roce_dscp(st, &from), p;
	struct mlx_lint_finding *f;
	struct fix x;

	if (!need(c, d >= 0, "no RoCE DSCP is set on the host (rdma_cm's default_roce_tos, "
		  "MLNX_OFED's traffic_class): each application picks its own") ||
	    !need(c, st->has_pfc, "the driver reports no PFC configuration") || !st->trust_dscp)
		return;
	p = dscp_prio(st, d);
	/* on the RoCE priority itself, PFC off there is pfc-off-roce-prio's */
	if (lossless(st, p) || p == c->r->roce_prio)
		return;
	f = find(c, p, "DSCP %d, the one RoCE v2 packets carry (%s %d), is received on priority "
		 "%d%s, which has no PFC: RoCE traffic there is lossy and sees drops and "
		 "retransmissions under congestion", d, from, from[0] == 't' ? st->roce_tclass :
		 st->roce_cm_tos, p, st->dscp2prio[d] < 0 ? " (it has no entry in the map)" : "");
	ev(f, "dscp", MLX_EV_INT, d);
	ev_str(f, "dscp_source", from);
	ev(f, "priority", MLX_EV_INT, p);
	ev(f, "pfc_enabled", MLX_EV_PRIOS, st->pfc_en);
	/* the entry back: to the RoCE priority, else another lossless one
	 * (not the CNPs'); else PFC where it lands */
	for (int pass = 0; pass < 2; pass++)
		for (int l = 0; l < 8; l++) {
			if (!lossless(st, l) || (pass == 0) != (l == c->r->roce_prio) ||
			    l == st->cnp_prio)
				continue;
			x = fix0(F_DSCP2PRIO);
			x.dscp = d;
			x.prio = l;
			cand(c, f, &x);
		}
	x = fix0(F_PFC);
	x.mask = (uint8_t)(st->pfc_en | 1u << p);
	cand(c, f, &x);
}

static void r_pfc_no_dcqcn(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	bool known = false;

	for (int p = 0; p < 8; p++)
		known |= st->rp_en[p] >= 0 || st->np_en[p] >= 0;
	if (!need(c, st->has_pfc, "the driver reports no PFC configuration") ||
	    !need(c, known, "the kernel does not expose the per-priority DCQCN enable (upstream "
		  "mlx5: the firmware's ROCE_CC_PRIO_MASK, set with mlxconfig)"))
		return;
	for (int p = 0; p < 8; p++) {
		int rp = st->rp_en[p], np = st->np_en[p];
		struct mlx_lint_finding *f;
		struct fix x = fix0(F_ENABLE);

		/* where the CNPs land carries no data to slow (their PCP, or
		 * with trust dscp their DSCP's priority); the RoCE priority is
		 * dcqcn-off-roce-prio's */
		if (!lossless(st, p) || (rp != 0 && np != 0) || p == c->r->roce_prio ||
		    (p == st->cnp_prio && st->cnp_prio_mode != 1) ||
		    (st->trust_dscp && st->cnp_dscp >= 0 && st->cnp_dscp < MLX_DCB_NDSCP &&
		     p == dscp_prio(st, st->cnp_dscp)))
			continue;
		f = find(c, p, "PFC is on priority %d, but DCQCN is off there (%s): congestion on it "
			 "cannot slow the senders and becomes PFC pauses, which spread as pause "
			 "storms", p, rp == 0 && np == 0 ? "RP and NP" : rp == 0 ? "RP, the sender "
			 "side" : "NP, the side that sends CNPs for ECN-marked packets");
		ev(f, "priority", MLX_EV_INT, p);
		ev_tri(f, "rp_enabled", rp);
		ev_tri(f, "np_enabled", np);
		ev(f, "pfc_enabled", MLX_EV_PRIOS, st->pfc_en);
		x.prio = p;
		x.side = (rp == 0 ? 1 : 0) | (np == 0 ? 2 : 0);
		cand(c, f, &x);
		x = fix0(F_PFC);
		x.mask = (uint8_t)(st->pfc_en & ~(1u << p));
		cand(c, f, &x);
	}
}

/*
 * Global pause and PFC on one port: 802.1Qbb forbids both on a link (a PFC
 * port sends and honours per-priority PAUSE only), and mlx5 keeps them in
 * one register (PFCC) where each write clears the other
 * (drivers/net/ethernet/mellanox/mlx5/core/port.c mlx5_set_port_pause,
 * mlx5_set_port_pfc): a host that reports both has a PFC set or a pause
 * setting that is stale, or a driver that mixes them; either way which
 * one the wire sees is not what the configuration says.  The fix turns
 * global pause off: the lint's ports carry RoCE, which wants PFC.
 */
static void r_pfc_global_pause(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	struct mlx_lint_finding *f;
	struct fix x = fix0(F_PAUSE);
	char l[32];

	if (!need(c, st->has_pfc, "the driver reports no PFC configuration") ||
	    !need(c, st->pause_rx >= 0 || st->pause_tx >= 0, "the driver reports no global pause "
		  "setting (ethtool -a)") ||
	    !st->pfc_en || (st->pause_rx != 1 && st->pause_tx != 1))
		return;
	mlx_prio_list(st->pfc_en, l, sizeof(l));
	f = find(c, -1, "global pause (%s%s%s) and PFC (priorities %s) are both on: PFC replaces "
		 "global pause on a link (802.1Qbb), and mlx5 keeps both in one register where each "
		 "write clears the other, so one of the two settings is not what the port does",
		 st->pause_rx == 1 ? "rx" : "", st->pause_rx == 1 && st->pause_tx == 1 ? ", " : "",
		 st->pause_tx == 1 ? "tx" : "", l);
	ev(f, "pause_rx", MLX_EV_BOOL, st->pause_rx == 1);
	ev(f, "pause_tx", MLX_EV_BOOL, st->pause_tx == 1);
	ev(f, "pfc_enabled", MLX_EV_PRIOS, st->pfc_en);
	cand(c, f, &x);
	x = fix0(F_PFC);
	x.mask = 0;
	cand(c, f, &x);
}

static const struct mlx_lint_rule rules[] = {
	{ "pfc-off-roce-prio", MLX_LINT_ERROR, "PFC is off on the RoCE priority",
	  "qosconfig pfc: the current set plus the RoCE priority", r_pfc_off_roce },
	{ "dcqcn-off-roce-prio", MLX_LINT_WARNING, "DCQCN (RP or NP side) is disabled on the RoCE "
	  "priority (where the layout exposes the per-priority enable: OFED ecn/)",
	  "qosconfig dcqcn enable PRIO (--rp or --np when one side is on)", r_dcqcn_off_roce },
	{ "dscp-map-no-roce-prio", MLX_LINT_ERROR, "trust dscp, but no DSCP is received on the "
	  "RoCE priority", "qosconfig dscp2prio set DSCP PRIO (DSCP PRIO*8+2 first, never the CNP "
	  "DSCP)", r_dscp_map_no_roce },
	{ "trust-pcp-dscp-setup", MLX_LINT_WARNING, "trust pcp while the RoCE priority is not 0 "
	  "and no VLAN device is on the port: untagged RoCE v2 packets have no PCP and land on "
	  "priority 0", "qosconfig trust dscp "
	  "(installs the default map, priority = DSCP / 8)", r_trust_pcp },
	{ "cnp-prio-lossy", MLX_LINT_WARNING, "the CNP 802.1p priority (cnp_802p_prio) has no PFC",
	  "qosconfig pfc: the current set plus the CNP priority, else qosconfig dcqcn set "
	  "DcqcnCnp802pPrio (and DcqcnCnpDscp) to a lossless priority", r_cnp_lossy },
	{ "cnp-dscp-prio-mismatch", MLX_LINT_WARNING, "trust dscp, and the CNP DSCP is received on "
	  "another priority than the CNP 802.1p priority", "qosconfig dcqcn set DcqcnCnpDscp and/or "
	  "DcqcnCnp802pPrio, to a pair that agrees (a lossless priority first)", r_cnp_mismatch },
	{ "lossless-zero-buffer", MLX_LINT_ERROR, "a receive buffer of 0 bytes holds a lossless "
	  "priority", "qosconfig buffer: size it from the free space or half a lossy buffer, or move "
	  "its priorities to a lossless buffer", r_zero_buffer },
	{ "lossless-shared-buffer", MLX_LINT_WARNING, "a receive buffer holds lossless and lossy "
	  "priorities", "qosconfig buffer prio-buffer: the lossy priorities to a lossy buffer, else "
	  "the lossless ones to a lossless or an empty buffer (sized)", r_shared_buffer },
	{ "lossless-shared-tc", MLX_LINT_WARNING, "a traffic class holds lossless and lossy "
	  "priorities", "qosconfig ets prio-tc: the lossy priorities to an unused or lossy TC, else "
	  "the lossless ones to a lossless or unused TC", r_shared_tc },
	{ "roce-tc-zero-bw", MLX_LINT_ERROR, "the RoCE priority's TC is ETS with 0% bandwidth",
	  "qosconfig ets bw: half the share of the largest other ETS TC", r_roce_tc_bw },
	{ "roce-tc-rate-limit", MLX_LINT_WARNING, "the RoCE priority's TC has a max rate below the "
	  "link speed", "qosconfig tc-bw TC 0 (unlimited)", r_roce_tc_rate },
	{ "pfc-prio0", MLX_LINT_WARNING, "PFC is on priority 0 (untagged and unmapped traffic)",
	  "qosconfig pfc: the current set without 0", r_pfc_prio0 },
	{ "ets-bw-unused-tc", MLX_LINT_INFO, "an ETS traffic class with a bandwidth share has no "
	  "priority", "qosconfig ets bw: its share to the RoCE TC, else the largest used ETS TC",
	  r_unused_tc },
	{ "roce-dscp-lossy", MLX_LINT_ERROR, "trust dscp, and the DSCP RoCE v2 packets carry (MLNX_OFED's "
	  "traffic_class, else rdma_cm's default_roce_tos) is received on a priority without PFC",
	  "qosconfig dscp2prio set DSCP PRIO: the entry back to the RoCE priority, else another "
	  "lossless one (not the CNPs'), else qosconfig pfc: the current set plus its priority",
	  r_roce_dscp_lossy },
	{ "pfc-no-dcqcn", MLX_LINT_WARNING, "PFC is on a priority (not RoCE's, not the CNPs') "
	  "where DCQCN, or its NP side that answers ECN marks, is off (where the layout exposes the "
	  "per-priority enable)", "qosconfig dcqcn enable PRIO, else qosconfig pfc: the current set "
	  "without it", r_pfc_no_dcqcn },
	{ "pfc-global-pause", MLX_LINT_WARNING, "global pause (ethtool -a rx or tx) and PFC are both "
	  "on for the port", "link set pause rx off tx off, else qosconfig pfc none",
	  r_pfc_global_pause },
};

_Static_assert(sizeof(rules) / sizeof(rules[0]) <= MLX_LINT_MAXRULES, "MLX_LINT_MAXRULES");

const struct mlx_lint_rule *mlx_qos_lint_rules(size_t *n)
{
	if (n)
		*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}
