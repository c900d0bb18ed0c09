/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QoS lint (lib/qos-lint.h): the RoCE priority inference, what each
 * fix does to the state and its command line, and the choice of each
 * finding's fix by simulation.  The rules are in lib/qos/qos-lint-rules.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qos-lint-private.h"

static int popcount8(unsigned m)
{
	return __builtin_popcount(m & 0xff);
}

void mlx_prio_list(unsigned mask, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int p = 0; p < 8; p++)
		if ((mask >> p) & 1)
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d", o ? "," : "", p);
	if (!o)
		snprintf(buf, len, "none");
}

const char *mlx_lint_sev_name(enum mlx_lint_sev s)
{
	return s == MLX_LINT_ERROR ? "error" : s == MLX_LINT_WARNING ? "warning" : "info";
}

/* ---- the RoCE priority ---- */

int roce_dscp(const struct mlx_qos_state *st, const char **from)
{
	/* MLNX_OFED's traffic_class wins over every QP's own (mlx5_ib tc
	 * sysfs), rdma_cm's default for the connections it makes */
	if (st->roce_tclass >= 0 && st->roce_tclass <= 255) {
		*from = "traffic_class";
		return st->roce_tclass >> 2;
	}
	if (st->roce_cm_tos > 0 && st->roce_cm_tos <= 255) {
		*from = "default_roce_tos";
		return st->roce_cm_tos >> 2;
	}
	*from = NULL;
	return -1;
}

static void infer_roce(struct mlx_lint_ctx *c)
{
	const struct mlx_qos_state *st = c->st;
	struct mlx_lint_report *r = c->r;
	unsigned en = 0, ll = st->has_pfc ? st->pfc_en : 0;
	bool known = false;
	char a[32], b[32];
	const char *from;
	int d;

	for (int p = 0; p < 8; p++) {
		known |= st->rp_en[p] >= 0 || st->np_en[p] >= 0;
		if (st->rp_en[p] == 1 || st->np_en[p] == 1)
			en |= 1u << p;
	}
	if (st->cnp_prio >= 0 && st->cnp_prio < 8)
		ll &= ~(1u << st->cnp_prio);
	r->roce_prio = -1;
	r->roce_source = NULL;
	if (st->roce_prio >= 0 && st->roce_prio < 8) {
		r->roce_prio = st->roce_prio;
		r->roce_source = "option";
		snprintf(r->roce_why, sizeof(r->roce_why), "given with --roce-prio");
	} else if (popcount8(en) == 1) {
		r->roce_prio = __builtin_ctz(en);
		r->roce_source = "dcqcn";
		snprintf(r->roce_why, sizeof(r->roce_why), "the only priority with DCQCN enabled");
	} else if (popcount8(ll) == 1) {
		r->roce_prio = __builtin_ctz(ll);
		r->roce_source = "pfc";
		snprintf(r->roce_why, sizeof(r->roce_why), "the only lossless priority besides the "
			 "CNP priority");
	} else if ((d = roce_dscp(st, &from)) >= 0 && st->trust_dscp && st->has_pfc &&
		   (st->pfc_en >> (st->dscp2prio[d] >= 0 ? st->dscp2prio[d] : 0) & 1)) {
		/* several candidates, but RoCE's own DSCP says which: the
		 * priority it is received on, when that one is lossless (a
		 * map to a lossy one is roce-dscp-lossy's finding) */
		r->roce_prio = st->dscp2prio[d] >= 0 ? st->dscp2prio[d] : 0;
		r->roce_source = "roce-dscp";
		snprintf(r->roce_why, sizeof(r->roce_why), "the priority of DSCP %d, RoCE's (%s)", d,
			 from);
	} else {
		mlx_prio_list(en, a, sizeof(a));
		mlx_prio_list(ll, b, sizeof(b));
		snprintf(r->roce_why, sizeof(r->roce_why), "%s%s%s, and %s%s%s", !known ?
			 "the kernel does not expose which priorities have DCQCN" : "DCQCN is enabled "
			 "on ", known ? a : "", known && !en ? " priority" : "", !st->has_pfc ?
			 "no PFC configuration" : popcount8(ll) ? "several lossless priorities (" :
			 "no lossless priority", popcount8(ll) ? b : "", !st->has_pfc ? "" :
			 popcount8(ll) ? ") besides the CNP priority" : " besides the CNP priority");
	}
}

/* ---- fixes: what a command does to the state, and its command line ---- */

static void fix_apply(const struct fix *x, struct mlx_qos_state *st)
{
	switch (x->cmd) {
	case F_PFC:
		st->pfc_en = x->mask;
		/* mlx5 writes PFC and global pause in one register (PFCC): a PFC
		 * write leaves pause off (port.c mlx5_set_port_pfc) */
		if (st->pause_rx >= 0)
			st->pause_rx = 0;
		if (st->pause_tx >= 0)
			st->pause_tx = 0;
		break;
	case F_ENABLE:
		if (x->side & 1)
			st->rp_en[x->prio] = 1;
		if (x->side & 2)
			st->np_en[x->prio] = 1;
		break;
	case F_CNP:
		if (x->dscp >= 0)
			st->cnp_dscp = x->dscp;
		if (x->cprio >= 0) {
			st->cnp_prio = x->cprio;
			if (st->cnp_prio_mode >= 0)
				st->cnp_prio_mode = 0;  /* the driver resets it */
		}
		break;
	case F_TRUST:
		/* as `qosconfig trust dscp`: the default map where there is no entry */
		for (int d = 0; d < MLX_DCB_NDSCP; d++)
			if (st->dscp2prio[d] < 0)
				st->dscp2prio[d] = (int8_t)(d >> 3);
		st->trust_dscp = true;
		break;
	case F_DSCP2PRIO:
		st->dscp2prio[x->dscp] = (int8_t)x->prio;
		st->trust_dscp = true;
		break;
	case F_BUFFER:
		for (int i = 0; i < 8; i++) {
			if (x->set[i] >= 0)
				st->prio2buffer[i] = (uint8_t)x->set[i];
			if (x->val[i] >= 0)
				st->buffer_size[i] = (uint32_t)x->val[i];
		}
		break;
	case F_PRIO_TC:
		for (int i = 0; i < 8; i++)
			if (x->set[i] >= 0)
				st->prio_tc[i] = (uint8_t)x->set[i];
		break;
	case F_BW:
		for (int i = 0; i < 8; i++)
			if (x->val[i] >= 0)
				st->tc_bw[i] = (uint8_t)x->val[i];
		break;
	case F_RATE:
		st->tc_maxrate_kbps[x->prio] = 0;
		break;
	case F_PAUSE:
		st->pause_rx = st->pause_tx = 0;
		break;
	}
}

#define APPEND(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__))

static void fix_format(const struct fix *x, const char *ifname, char *buf, size_t len)
{
	static const char *const verb[] = {
		[F_PFC] = "pfc", [F_ENABLE] = "dcqcn enable", [F_CNP] = "dcqcn set",
		[F_TRUST] = "trust", [F_DSCP2PRIO] = "dscp2prio", [F_BUFFER] = "buffer",
		[F_PRIO_TC] = "ets", [F_BW] = "ets", [F_RATE] = "tc-bw",
	};
	char l[32];
	size_t o = 0;

	/* global pause is the link's (link set, ETHTOOL_MSG_PAUSE_SET) */
	if (x->cmd == F_PAUSE) {
		APPEND("mlxcli link set -d %s pause rx off tx off", ifname);
		return;
	}
	APPEND("mlxcli qosconfig %s -d %s", verb[x->cmd], ifname);
	switch (x->cmd) {
	case F_PFC:
		mlx_prio_list(x->mask, l, sizeof(l));
		APPEND(" %s", l);
		break;
	case F_ENABLE:
		APPEND(" %d%s", x->prio, x->side == 1 ? " --rp" : x->side == 2 ? " --np" : "");
		break;
	case F_CNP:
		if (x->dscp >= 0)
			APPEND(" DcqcnCnpDscp %d", x->dscp);
		if (x->cprio >= 0)
			APPEND(" DcqcnCnp802pPrio %d", x->cprio);
		break;
	case F_TRUST:
		APPEND(" dscp");
		break;
	case F_DSCP2PRIO:
		APPEND(" set %d %d", x->dscp, x->prio);
		break;
	case F_BUFFER:
	case F_PRIO_TC:
		for (int i = 0, n = 0; i < 8; i++)
			if (x->set[i] >= 0)
				APPEND("%s %d:%d", n++ ? "" : x->cmd == F_BUFFER ? " prio-buffer" :
				       " prio-tc", i, x->set[i]);
		/* then F_BUFFER's sizes */
		/* fall through */
	case F_BW:
		for (int i = 0, n = 0; x->cmd != F_PRIO_TC && i < 8; i++)
			if (x->val[i] >= 0)
				APPEND("%s %d:%lld", n++ ? "" : x->cmd == F_BUFFER ? " size" : " bw", i,
				       (long long)x->val[i]);
		break;
	case F_RATE:
		APPEND(" %d 0", x->prio);
		break;
	case F_PAUSE:      /* above */
		break;
	}
}

/* ---- the engine ---- */

static void run(struct mlx_lint_ctx *c)
{
	struct mlx_lint_report *r = c->r;
	size_t nrules;
	const struct mlx_lint_rule *rules = mlx_qos_lint_rules(&nrules);

	r->n = 0;
	memset(r->count, 0, sizeof(r->count));
	infer_roce(c);
	for (c->rule = 0; c->rule < nrules; c->rule++) {
		r->evaluated[c->rule] = true;
		rules[c->rule].eval(c);
	}
	for (size_t i = 0; i < r->n; i++)
		r->count[r->f[i].sev]++;
}

static bool has(const struct mlx_lint_report *r, const struct mlx_lint_finding *f)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].id, f->id) && r->f[i].subject == f->subject)
			return true;
	return false;
}

/* Does @x remove finding @i?  *nnew: the findings it raises, their ids in
 * @f's fix_adds when @keep. */
static bool try_fix(struct mlx_lint_ctx *c, size_t i, const struct fix *x, struct mlx_lint_ctx *sim,
		    size_t *nnew, bool keep)
{
	struct mlx_lint_finding *f = &c->r->f[i];
	struct mlx_qos_state s = *c->st;

	/* a fix does not move RoCE's traffic: the simulation keeps the RoCE
	 * priority this run found (enabling DCQCN on a second lossless
	 * priority must not make it unknown, and every RoCE rule silent) */
	if (c->r->roce_prio >= 0)
		s.roce_prio = c->r->roce_prio;
	fix_apply(x, &s);
	sim->st = &s;
	run(sim);
	if (has(sim->r, f))
		return false;
	*nnew = 0;
	if (keep)
		f->nadds = 0;
	for (size_t j = 0; j < sim->r->n; j++)
		if (!has(c->r, &sim->r->f[j])) {
			(*nnew)++;
			if (keep && f->nadds < MLX_LINT_MAXADDS)
				f->fix_adds[f->nadds++] = sim->r->f[j].id;
		}
	return true;
}

/* The first candidate that removes finding @i and raises nothing new; else
 * the one that removes it and raises the fewest, with their ids. */
static int choose(struct mlx_lint_ctx *c, size_t i, struct mlx_lint_ctx *sim)
{
	size_t best = MAXCAND, bestn = SIZE_MAX, nnew;

	for (size_t k = 0; k < c->ncand[i] && bestn; k++) {
		if (!try_fix(c, i, &c->cand[i][k], sim, &nnew, false) || nnew >= bestn)
			continue;
		best = k;
		bestn = nnew;
	}
	if (best == MAXCAND)
		return -1;
	try_fix(c, i, &c->cand[i][best], sim, &nnew, true);
	fix_format(&c->cand[i][best], c->st->ifname, c->r->f[i].fix, sizeof(c->r->f[i].fix));
	return (int)best;
}

/*
 * `qosconfig pfc` takes the whole set: two PFC fixes, each the current set
 * plus its priority, would undo each other when run in a row.  So every
 * PFC fix carries all the PFC changes of the report's fixes where that is
 * still clean for its own finding.
 */
static void merge_pfc(struct mlx_lint_ctx *c, const int *chosen, struct mlx_lint_ctx *sim)
{
	uint8_t orig = c->st->pfc_en, add = 0, del = 0;
	size_t n = 0, nnew;

	for (size_t i = 0; i < c->r->n; i++)
		if (chosen[i] >= 0 && c->cand[i][chosen[i]].cmd == F_PFC) {
			add |= c->cand[i][chosen[i]].mask & ~orig;
			del |= orig & ~c->cand[i][chosen[i]].mask;
			n++;
		}
	for (size_t i = 0; n > 1 && i < c->r->n; i++) {
		struct fix x;

		if (chosen[i] < 0 || c->cand[i][chosen[i]].cmd != F_PFC)
			continue;
		x = c->cand[i][chosen[i]];
		x.mask = (uint8_t)((orig | add) & ~del);
		if (x.mask == c->cand[i][chosen[i]].mask || !try_fix(c, i, &x, sim, &nnew, false) ||
		    nnew > c->r->f[i].nadds)
			continue;
		try_fix(c, i, &x, sim, &nnew, true);
		fix_format(&x, c->st->ifname, c->r->f[i].fix, sizeof(c->r->f[i].fix));
	}
}

int mlx_qos_lint(const struct mlx_qos_state *st, struct mlx_lint_report *r)
{
	struct mlx_lint_ctx *c = calloc(2, sizeof(*c));
	struct mlx_lint_report *sr = calloc(1, sizeof(*sr));
	int chosen[MLX_LINT_MAXFIND];

	if (!c || !sr) {
		free(c);
		free(sr);
		return -ENOMEM;
	}
	c[0].st = st;
	c[0].r = r;
	c[1].r = sr;
	run(&c[0]);
	for (size_t i = 0; i < r->n; i++)
		chosen[i] = choose(&c[0], i, &c[1]);
	merge_pfc(&c[0], chosen, &c[1]);
	free(c);
	free(sr);
	return 0;
}

/* ---- the state ---- */

void mlx_qos_state_init(struct mlx_qos_state *st, const char *ifname)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->ifname, sizeof(st->ifname), "%s", ifname ? ifname : "");
	memset(st->dscp2prio, 0xff, sizeof(st->dscp2prio));
	memset(st->rp_en, 0xff, sizeof(st->rp_en));
	memset(st->np_en, 0xff, sizeof(st->np_en));
	st->cnp_dscp = st->cnp_prio = st->cnp_prio_mode = st->roce_prio = -1;
	st->roce_cm_tos = st->roce_tclass = -1;
	st->speed_mbps = -1;
	st->vlan = -1;
	st->pause_rx = st->pause_tx = -1;
}

void mlx_qos_state_from_dcb(struct mlx_qos_state *st, const struct mlx_dcb_state *dcb)
{
	int map[MLX_DCB_NDSCP];

	st->trust_dscp = mlx_dcb_trust_dscp(dcb);
	mlx_dcb_dscp_map(dcb, map);
	for (int d = 0; d < MLX_DCB_NDSCP; d++)
		st->dscp2prio[d] = (int8_t)map[d];
	st->has_pfc = dcb->has_pfc;
	st->pfc_en = dcb->pfc.pfc_en;
	st->pfc_cap = dcb->pfc.pfc_cap;
	st->has_ets = dcb->has_ets;
	st->ets_cap = dcb->ets.ets_cap;
	for (int i = 0; i < 8; i++) {
		st->prio_tc[i] = dcb->ets.prio_tc[i];
		st->tc_tsa[i] = dcb->ets.tc_tsa[i];
		/* mlx5 reports 100 for strict and vendor TCs */
		st->tc_bw[i] = dcb->ets.tc_tsa[i] == IEEE_8021QAZ_TSA_ETS ? dcb->ets.tc_tx_bw[i] : 0;
		st->tc_maxrate_kbps[i] = dcb->maxrate.tc_maxrate[i];
		st->prio2buffer[i] = dcb->buffer.prio2buffer[i];
		st->buffer_size[i] = dcb->buffer.buffer_size[i];
	}
	st->has_maxrate = dcb->has_maxrate;
	st->has_buffer = dcb->has_buffer;
	st->buffer_total = dcb->buffer.total_size;
}
