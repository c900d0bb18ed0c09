/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli rdma qp|cm-id|cq|mr|pd|ctx|srq` (issue 24): the RDMA resources
 * the kernel tracks (RDMA netlink RES_<KIND>_GET dumps, what `rdma
 * resource show` reads), each joined to its port's netdev and PCI
 * function, its owner's process name, and for a QP the addresses of the
 * CM ID that holds it.  RDMA netlink carries no path MTU per QP: a QP row
 * has its port's active MTU, the upper bound of it.
 *
 * Scale: a host may hold tens of thousands of QPs; every join is a sort
 * and a binary search, never a scan per row (BENCHMARKS.md, rdma qp).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma-cmd.h"

static const char *const qp_states[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR", NULL };
static const char *const cm_states[] = {
	"IDLE", "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY", "ROUTE_RESOLVED", "CONNECT",
	"DISCONNECT", "ADDR_BOUND", "LISTEN", "DEVICE_REMOVAL", "DESTROYING", NULL,
};

#define OPT_PID { "pid", 0, "PID", "only the resources of this process", NULL, SRC_NONE, 0 }
#define OPT_END { NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 }

const struct cmd_opt rdma_qp_opts[] = {
	OPT_PID,
	{ "state", 0, "STATE", "only QPs in this state", qp_states, SRC_NONE, 0 },
	{ "errors", 0, NULL, "only QPs in the error states (ERR, SQE)", NULL, SRC_NONE, 0 },
	{ "address", 0, "IP", "only QPs whose CM ID has this source or destination address",
	  NULL, SRC_NONE, 0 },
	OPT_END,
};

const struct cmd_opt rdma_cm_id_opts[] = {
	OPT_PID,
	{ "state", 0, "STATE", "only CM IDs in this state", cm_states, SRC_NONE, 0 },
	{ "errors", 0, NULL, "only CM IDs that failed (their QP is in an error state)", NULL,
	  SRC_NONE, 0 },
	{ "address", 0, "IP", "only CM IDs with this source or destination address", NULL,
	  SRC_NONE, 0 },
	OPT_END,
};

const struct cmd_opt rdma_res_opts[] = { OPT_PID, OPT_END };

/* mlxtool show nd connections [-a IP] [-p PID] [-e] [-n COUNT] */
const struct cmd_opt rdma_nd_opts[] = {
	{ "address", 'a', "IP", "connections of this address (source or destination)", NULL,
	  SRC_NONE, 0 },
	{ "pid", 'p', "PID", "connections of this process", NULL, SRC_NONE, 0 },
	{ "error", 'e', NULL, "only QPs in the error states", NULL, SRC_NONE, 0 },
	{ "count", 'n', "N", "at most N connections (mlxtool's default 1000, at most 10000)", NULL,
	  SRC_NONE, 0 },
	OPT_END,
};

/* ---- the joins ---------------------------------------------------------------- */

struct comm_ent {
	uint32_t pid;
	char comm[32];
};

struct port_ent {
	uint32_t port;
	char netdev[16];
	unsigned active_mtu;
};

struct view {
	struct cli *cli;
	struct rdma_sel sel;
	struct comm_ent *comms;        /* sorted by pid */
	size_t ncomms;
	/* filters */
	bool has_pid, errors;
	uint32_t pid;
	int state;                     /* -1: any */
	const char *address;
	uint64_t limit;                /* 0: none */
	uint64_t shown;
	bool restricted;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The process names of every owner in @l, each read once. */
static void add_comms(struct view *v, const struct mlx_rdma_res_list *l)
{
	uint32_t *pids = malloc((l->n ? l->n : 1) * sizeof(*pids));
	struct comm_ent *nc;
	size_t n = 0, u = 0, base;

	if (!pids)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].has & MLX_RES_PID)
			pids[n++] = l->v[i].pid;
	qsort(pids, n, sizeof(*pids), cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (!u || pids[u - 1] != pids[i])
			pids[u++] = pids[i];
	nc = realloc(v->comms, (v->ncomms + u + 1) * sizeof(*nc));
	if (!nc) {
		free(pids);
		return;
	}
	v->comms = nc;
	/* the names read for an earlier device are sorted: look them up there */
	base = v->ncomms;
	for (size_t i = 0; i < u; i++) {
		struct comm_ent key = { .pid = pids[i] };

		if (bsearch(&key, v->comms, base, sizeof(*v->comms), cmp_u32))
			continue;
		v->comms[v->ncomms].pid = pids[i];
		mlx_rdma_comm(v->cli->ctx, pids[i], v->comms[v->ncomms].comm,
			      sizeof(v->comms[v->ncomms].comm));
		v->ncomms++;
	}
	qsort(v->comms, v->ncomms, sizeof(*v->comms), cmp_u32);
	free(pids);
}

static const char *comm_of(const struct view *v, uint32_t pid)
{
	struct comm_ent key = { .pid = pid }, *e;

	e = bsearch(&key, v->comms, v->ncomms, sizeof(*v->comms), cmp_u32);
	return e && e->comm[0] ? e->comm : NULL;
}

static int cmp_lqpn(const void *a, const void *b)
{
	const struct mlx_rdma_res *x = *(const struct mlx_rdma_res *const *)a;
	const struct mlx_rdma_res *y = *(const struct mlx_rdma_res *const *)b;

	return (x->lqpn > y->lqpn) - (x->lqpn < y->lqpn);
}

static int cmp_id(const void *a, const void *b)
{
	const struct mlx_rdma_res *x = *(const struct mlx_rdma_res *const *)a;
	const struct mlx_rdma_res *y = *(const struct mlx_rdma_res *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Pointers to the entries of @l that have @bit, sorted by @cmp. */
static const struct mlx_rdma_res **index_by(const struct mlx_rdma_res_list *l, uint32_t bit,
					    int (*cmp)(const void *, const void *), size_t *n)
{
	const struct mlx_rdma_res **ix = malloc((l->n ? l->n : 1) * sizeof(*ix));

	*n = 0;
	if (!ix)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].has & bit)
			ix[(*n)++] = &l->v[i];
	qsort(ix, *n, sizeof(*ix), cmp);
	return ix;
}

static const struct mlx_rdma_res *find_by(const struct mlx_rdma_res **ix, size_t n,
					  const struct mlx_rdma_res *key,
					  int (*cmp)(const void *, const void *))
{
	const struct mlx_rdma_res **e = ix ? bsearch(&key, ix, n, sizeof(*ix), cmp) : NULL;

	return e ? *e : NULL;
}

static const struct port_ent *port_of(const struct port_ent *pv, size_t np, uint32_t port)
{
	for (size_t i = 0; i < np; i++)
		if (pv[i].port == port)
			return &pv[i];
	return NULL;
}

/* The ports of @d with their netdev and active MTU. */
static struct port_ent *ports_of(struct view *v, const struct mlx_rdma_dev *d, size_t *n)
{
	struct mlx_rdma_port *p = NULL;
	struct port_ent *pv;
	size_t np = 0;

	*n = 0;
	if (mlx_rdma_ports_get(v->cli->ctx, d, &p, &np) < 0)
		mlx_err_clear(v->cli->ctx);
	pv = calloc(np ? np : 1, sizeof(*pv));
	for (size_t i = 0; pv && i < np; i++) {
		const struct mlx_port *mp = rdma_port(&v->sel, d->name, p[i].port);
		unsigned mtu = mp ? mp->mtu : 0;

		pv[i].port = p[i].port;
		snprintf(pv[i].netdev, sizeof(pv[i].netdev), "%s", p[i].netdev);
		if (!mtu && p[i].netdev[0])
			mlx_rdma_netdev_mtu(v->cli->ctx, p[i].netdev, &mtu);
		if (strcmp(d->protocol, "ib") && strcmp(d->protocol, "opa"))
			pv[i].active_mtu = mlx_roce_active_mtu(mtu);
	}
	*n = pv ? np : 0;
	free(p);
	return pv;
}

/* ---- rows ------------------------------------------------------------------------ */

static void out_opt_u32(struct out *o, const char *key, const char *label, bool has, uint32_t val)
{
	if (has)
		out_u64(o, key, label, val);
	else
		out_null(o, key, label);
}

static void out_hex(struct out *o, const char *key, const char *label, bool has, uint32_t val)
{
	char b[16];

	snprintf(b, sizeof(b), "0x%x", val);
	if (has)
		out_u64_as(o, key, label, val, b);
	else
		out_null(o, key, label);
}

static void out_owner(struct out *o, const struct view *v, const struct mlx_rdma_res *e)
{
	bool kern = e->has & MLX_RES_KERN;
	const char *comm = kern ? e->kern : (e->has & MLX_RES_PID) ? comm_of(v, e->pid) : NULL;
	char label[48];

	out_opt_u32(o, "pid", NULL, e->has & MLX_RES_PID, e->pid);
	out_str(o, "comm", NULL, comm);
	out_bool(o, "kernel", NULL, kern);
	/* as `rdma resource` prints them: a kernel owner in brackets */
	if (kern)
		snprintf(label, sizeof(label), "[%s]", e->kern);
	else if (e->has & MLX_RES_PID)
		snprintf(label, sizeof(label), "%u/%s", e->pid, comm ? comm : "?");
	else
		snprintf(label, sizeof(label), "-");
	out_text(o, "OWNER", label);
}

static bool addr_match(const struct mlx_rdma_res *cm, const char *ip)
{
	char a[64], b[64];

	if (!cm)
		return false;
	mlx_rdma_addr_ip(&cm->src, a, sizeof(a));
	mlx_rdma_addr_ip(&cm->dst, b, sizeof(b));
	return !strcmp(a, ip) || !strcmp(b, ip);
}

static void out_addrs(struct out *o, const struct mlx_rdma_res *cm)
{
	char a[80] = "", b[80] = "";

	if (cm) {
		mlx_rdma_addr_str(&cm->src, a, sizeof(a));
		mlx_rdma_addr_str(&cm->dst, b, sizeof(b));
	}
	out_str(o, "src_address", "SRC", a[0] ? a : NULL);
	out_str(o, "dst_address", "DST", b[0] ? b : NULL);
}

/* Does an entry pass --pid and the limit?  (The kind's own filters first.) */
static bool keep(struct view *v, const struct mlx_rdma_res *e)
{
	if (v->has_pid && (!(e->has & MLX_RES_PID) || e->pid != v->pid))
		return false;
	if (v->limit && v->shown >= v->limit)
		return false;
	v->shown++;
	return true;
}

static void qp_rows(struct view *v, const struct mlx_rdma_dev *d, bool connected_only)
{
	struct cli *cli = v->cli;
	struct out *o = cli->out;
	struct mlx_rdma_res_list qps = { 0 }, cms = { 0 };
	const struct mlx_rdma_res **cmix;
	struct port_ent *pv;
	size_t np, ncm = 0;

	if (mlx_rdma_res_get(cli->ctx, d, MLX_RDMA_QP, &qps) < 0) {
		cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
		return;
	}
	if (mlx_rdma_res_get(cli->ctx, d, MLX_RDMA_CM_ID, &cms) < 0)
		mlx_err_clear(cli->ctx);
	cmix = index_by(&cms, MLX_RES_LQPN, cmp_lqpn, &ncm);
	pv = ports_of(v, d, &np);
	add_comms(v, &qps);
	for (size_t i = 0; i < qps.n; i++) {
		const struct mlx_rdma_res *q = &qps.v[i];
		struct mlx_rdma_res key = { .lqpn = q->id };
		const struct mlx_rdma_res *cm = find_by(cmix, ncm, &key, cmp_lqpn);
		const struct port_ent *pe = port_of(pv, np, q->port);
		bool failed = (q->has & MLX_RES_STATE) && mlx_rdma_qp_state_failed(q->state);

		if (v->errors && !failed)
			continue;
		if (v->state >= 0 && (!(q->has & MLX_RES_STATE) || q->state != v->state))
			continue;
		if (v->address && !addr_match(cm, v->address))
			continue;
		/* ND connections: the connected QP types (RC, UC, XRC) */
		if (connected_only && q->type != 2 && q->type != 3 && q->type != 9 && q->type != 10)
			continue;
		if (!keep(v, q))
			continue;
		out_row_begin(o);
		rdma_out_where(o, &v->sel, d->name, (q->has & MLX_RES_PORT) ? q->port : 0,
			       pe ? pe->netdev : NULL, true);
		out_u64(o, "lqpn", "LQPN", q->id);
		out_str(o, "qp_type", "TYPE", q->has & MLX_RES_TYPE ? mlx_rdma_qp_type_name(q->type) : NULL);
		out_str(o, "subtype", NULL, q->has & MLX_RES_SUBTYPE ? q->subtype : NULL);
		out_str(o, "state", "STATE", q->has & MLX_RES_STATE ? mlx_rdma_qp_state_name(q->state) : NULL);
		out_bool(o, "in_error", NULL, failed);
		out_opt_u32(o, "rqpn", "RQPN", q->has & MLX_RES_RQPN, q->rqpn);
		out_opt_u32(o, "rq_psn", NULL, q->has & MLX_RES_RQ_PSN, q->rq_psn);
		out_opt_u32(o, "sq_psn", NULL, q->has & MLX_RES_SQ_PSN, q->sq_psn);
		out_str(o, "path_mig_state", NULL, !(q->has & MLX_RES_MIG) ? NULL :
			q->mig == 0 ? "MIGRATED" : q->mig == 1 ? "REARM" : q->mig == 2 ? "ARMED" : NULL);
		out_opt_u32(o, "pdn", NULL, q->has & MLX_RES_PDN, q->pdn);
		out_addrs(o, cm);
		out_opt_u32(o, "cm_idn", NULL, cm != NULL, cm ? cm->id : 0);
		if (pe && pe->active_mtu)
			out_u64(o, "active_mtu_bytes", NULL, pe->active_mtu);
		else
			out_null(o, "active_mtu_bytes", NULL);
		out_owner(o, v, q);
		out_row_end(o);
	}
	free(cmix);
	free(pv);
	mlx_rdma_res_list_free(&qps);
	mlx_rdma_res_list_free(&cms);
}

static void cm_rows(struct view *v, const struct mlx_rdma_dev *d)
{
	struct cli *cli = v->cli;
	struct out *o = cli->out;
	struct mlx_rdma_res_list qps = { 0 }, cms = { 0 };
	const struct mlx_rdma_res **qix;
	struct port_ent *pv;
	size_t np, nq = 0;

	if (mlx_rdma_res_get(cli->ctx, d, MLX_RDMA_CM_ID, &cms) < 0) {
		cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
		return;
	}
	if (mlx_rdma_res_get(cli->ctx, d, MLX_RDMA_QP, &qps) < 0)
		mlx_err_clear(cli->ctx);
	qix = index_by(&qps, MLX_RES_ID, cmp_id, &nq);
	pv = ports_of(v, d, &np);
	add_comms(v, &cms);
	for (size_t i = 0; i < cms.n; i++) {
		const struct mlx_rdma_res *c = &cms.v[i];
		struct mlx_rdma_res key = { .id = c->lqpn };
		const struct mlx_rdma_res *q = c->has & MLX_RES_LQPN ? find_by(qix, nq, &key, cmp_id) : NULL;
		const struct port_ent *pe = port_of(pv, np, c->port);
		/* a CM ID failed when the QP it holds is in an error state */
		bool failed = q && (q->has & MLX_RES_STATE) && mlx_rdma_qp_state_failed(q->state);
		char ps[16];

		if (v->errors && !failed)
			continue;
		if (v->state >= 0 && (!(c->has & MLX_RES_STATE) || c->state != v->state))
			continue;
		if (v->address && !addr_match(c, v->address))
			continue;
		if (!keep(v, c))
			continue;
		out_row_begin(o);
		rdma_out_where(o, &v->sel, d->name, (c->has & MLX_RES_PORT) ? c->port : 0,
			       pe ? pe->netdev : NULL, true);
		out_u64(o, "cm_idn", "CM_ID", c->id);
		out_str(o, "state", "STATE", c->has & MLX_RES_STATE ? mlx_rdma_cm_state_name(c->state) : NULL);
		out_bool(o, "in_error", NULL, failed);
		snprintf(ps, sizeof(ps), "0x%x", c->ps);
		out_str(o, "port_space", "PS", !(c->has & MLX_RES_PS) ? NULL :
			mlx_rdma_ps_name(c->ps) ? mlx_rdma_ps_name(c->ps) : ps);
		out_opt_u32(o, "lqpn", "LQPN", c->has & MLX_RES_LQPN, c->lqpn);
		out_str(o, "qp_type", NULL, c->has & MLX_RES_TYPE ? mlx_rdma_qp_type_name(c->type) : NULL);
		out_str(o, "qp_state", "QP_STATE", q && (q->has & MLX_RES_STATE) ?
			mlx_rdma_qp_state_name(q->state) : NULL);
		out_addrs(o, c);
		out_owner(o, v, c);
		out_row_end(o);
	}
	free(qix);
	free(pv);
	mlx_rdma_res_list_free(&qps);
	mlx_rdma_res_list_free(&cms);
}

static void other_rows(struct view *v, const struct mlx_rdma_dev *d, enum mlx_rdma_kind k)
{
	struct cli *cli = v->cli;
	struct out *o = cli->out;
	struct mlx_rdma_res_list l = { 0 };

	if (mlx_rdma_res_get(cli->ctx, d, k, &l) < 0) {
		cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
		return;
	}
	add_comms(v, &l);
	for (size_t i = 0; i < l.n; i++) {
		const struct mlx_rdma_res *e = &l.v[i];

		if (!keep(v, e))
			continue;
		out_row_begin(o);
		/* CQs, MRs, PDs, contexts and SRQs belong to the device, not a port */
		rdma_out_where(o, &v->sel, d->name, 0, NULL, false);
		out_text(o, "DEV", d->name);
		switch (k) {
		case MLX_RDMA_CQ:
			out_u64(o, "cqn", "CQN", e->id);
			out_opt_u32(o, "cqe", "CQE", e->has & MLX_RES_CQE, e->cqe);
			if (e->has & MLX_RES_USECNT)
				out_u64(o, "users", "USERS", e->usecnt);
			else
				out_null(o, "users", "USERS");
			out_str(o, "poll_ctx", "POLL_CTX", e->has & MLX_RES_POLL ?
				mlx_rdma_poll_ctx_name(e->poll_ctx) : NULL);
			if (e->has & MLX_RES_DIM)
				out_bool(o, "dim", NULL, e->dim);
			else
				out_null(o, "dim", NULL);
			out_opt_u32(o, "ctxn", "CTXN", e->has & MLX_RES_CTXN, e->ctxn);
			break;
		case MLX_RDMA_MR:
			out_u64(o, "mrn", "MRN", e->id);
			if (e->has & MLX_RES_MRLEN)
				out_u64(o, "length_bytes", "LENGTH", e->mrlen);
			else
				out_null(o, "length_bytes", "LENGTH");
			out_hex(o, "rkey", "RKEY", e->has & MLX_RES_RKEY, e->rkey);
			out_hex(o, "lkey", "LKEY", e->has & MLX_RES_LKEY, e->lkey);
			if (e->has & MLX_RES_IOVA)
				out_u64(o, "iova", NULL, e->iova);
			else
				out_null(o, "iova", NULL);
			out_opt_u32(o, "pdn", "PDN", e->has & MLX_RES_PDN, e->pdn);
			v->restricted |= !(e->has & MLX_RES_RKEY);
			break;
		case MLX_RDMA_PD:
			out_u64(o, "pdn", "PDN", e->id);
			if (e->has & MLX_RES_USECNT)
				out_u64(o, "users", "USERS", e->usecnt);
			else
				out_null(o, "users", "USERS");
			out_hex(o, "local_dma_lkey", "LOCAL_DMA_LKEY", e->has & MLX_RES_DMA_LKEY, e->dma_lkey);
			out_hex(o, "unsafe_global_rkey", NULL, e->has & MLX_RES_GLOBAL_RKEY, e->global_rkey);
			out_opt_u32(o, "ctxn", "CTXN", e->has & MLX_RES_CTXN, e->ctxn);
			v->restricted |= !(e->has & MLX_RES_DMA_LKEY);
			break;
		case MLX_RDMA_CTX:
			out_u64(o, "ctxn", "CTXN", e->id);
			break;
		default:        /* SRQ */
			out_u64(o, "srqn", "SRQN", e->id);
			out_str(o, "srq_type", "TYPE", e->has & MLX_RES_TYPE ?
				mlx_rdma_srq_type_name(e->type) : NULL);
			out_opt_u32(o, "pdn", "PDN", e->has & MLX_RES_PDN, e->pdn);
			if (e->has & MLX_RES_CQN)
				out_u64(o, "cqn", "CQN", e->cqn);
			else
				out_text(o, "CQN", "-");
			out_str(o, "srq_qps", "QPS", e->srq_qps[0] ? e->srq_qps : NULL);
			break;
		}
		out_owner(o, v, e);
		out_row_end(o);
	}
	mlx_rdma_res_list_free(&l);
}

/* ---- handlers -------------------------------------------------------------------- */

static const char *const table_key[MLX_RDMA_NKINDS] = {
	[MLX_RDMA_QP] = "qps", [MLX_RDMA_CM_ID] = "cm_ids", [MLX_RDMA_CQ] = "cqs",
	[MLX_RDMA_MR] = "mrs", [MLX_RDMA_PD] = "pds", [MLX_RDMA_CTX] = "ctxs", [MLX_RDMA_SRQ] = "srqs",
};

static int parse_u(struct cli *cli, const char *opt, const char *val, uint64_t max, uint64_t *out)
{
	if (mlx_parse_u64(val, out) < 0 || *out > max) {
		cli_error(cli, "invalid value '%s' for '--%s': a number from 0 to %llu is needed", val,
			  opt, (unsigned long long)max);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int run(struct cli *cli, enum mlx_rdma_kind k, bool nd)
{
	struct view v = { .cli = cli, .state = -1 };
	const char *pid = cli_opt(cli, "pid"), *state = cli_opt(cli, "state");
	const char *count = nd ? cli_opt(cli, "count") : NULL;
	bool none;
	uint64_t u;
	int r;

	/* Every value is checked before the system is read: bad input is exit 2. */
	if (pid) {
		if ((r = parse_u(cli, "pid", pid, 0xffffffffu, &u)))
			return r;
		v.has_pid = true;
		v.pid = (uint32_t)u;
	}
	if (state)
		v.state = k == MLX_RDMA_CM_ID ? mlx_rdma_cm_state_parse(state) :
			  mlx_rdma_qp_state_parse(state);
	if (count) {
		if ((r = parse_u(cli, "count", count, 10000, &u)))
			return r;
		v.limit = u ? u : 1;
	} else if (nd) {
		v.limit = 1000;           /* mlxtool's default */
	}
	v.errors = cli_opt(cli, nd ? "error" : "errors") != NULL;
	v.address = cli_opt(cli, "address");
	r = rdma_select(cli, &v.sel, &none);
	if (r) {
		rdma_sel_free(&v.sel);
		return r;
	}
	out_table_begin(cli->out, nd ? "connections" : table_key[k]);
	for (size_t i = 0; i < v.sel.devs.n; i++) {
		if (!v.sel.on[i])
			continue;
		if (k == MLX_RDMA_QP)
			qp_rows(&v, &v.sel.devs.v[i], nd);
		else if (k == MLX_RDMA_CM_ID)
			cm_rows(&v, &v.sel.devs.v[i]);
		else
			other_rows(&v, &v.sel.devs.v[i], k);
	}
	out_table_end(cli->out);
	/* What a reader without CAP_NET_ADMIN does not get (nldev.c): the MR
	 * and PD keys, the raw vendor contexts. */
	v.restricted |= !mlx_rdma_privileged(cli->ctx);
	out_bool(cli->out, "restricted", NULL, v.restricted);
	if (v.restricted && v.sel.devs.n)
		rdma_say_restricted(cli, "the MR and PD keys and the raw QP, CQ and MR contexts");
	free(v.comms);
	rdma_sel_free(&v.sel);
	return EXIT_OK;
}

int cmd_rdma_qp(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_QP, false);
}

int cmd_rdma_cm_id(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_CM_ID, false);
}

int cmd_rdma_cq(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_CQ, false);
}

int cmd_rdma_mr(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_MR, false);
}

int cmd_rdma_pd(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_PD, false);
}

int cmd_rdma_ctx(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_CTX, false);
}

int cmd_rdma_srq(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_SRQ, false);
}

int cmd_rdma_nd_connections(struct cli *cli, int argc, char **argv)
{
	(void)argc, (void)argv;
	return run(cli, MLX_RDMA_QP, true);
}
