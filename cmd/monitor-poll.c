/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli monitor --poll SEC` (issue 16): the counters that only count,
 * read every SEC seconds; one that grew since the last poll is an event.
 * The first poll is the baseline.  Sources: the PCIe AER totals of every
 * function (lib/monitor/counter-poll.c) and the mlx5 ethtool -S event
 * counters of every port (read by lib/counters, the one reader of
 * ethtool -S; which counters and their kinds: lib/monitor/counter-events.c);
 * the lane flags of every port's module (lib/monitor/counter-poll.c).
 * With --vf-thresholds, the VF monitor: the devlink health "vnic"
 * reporter's diagnose counters of every function (and of every devlink
 * port's vnic reporter: representors), read through lib/debug/health.c,
 * an event when one grows by more than its threshold in one period
 * (lib/monitor/vf-thresholds.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "health.h"
#include "monitor-cmd.h"

/* the last values of one port's event counters */
struct mon_port_prev {
	uint64_t v[MON_NCOUNTER_EVENTS];
	bool have[MON_NCOUNTER_EVENTS];
};

/* the last value of one vnic counter of one reporter */
struct mon_vnic_prev {
	size_t fn;                     /* index in the devices */
	int64_t port;                  /* the reporter's port index, -1 the function's */
	char name[48];
	uint64_t v;
	bool have;                     /* v is the last poll's */
	bool seen;                     /* in this poll (if not, the next value is a new baseline) */
};

int mon_poll_init(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs)
{
	const char *sec = cli_opt(cli, "poll"), *spec = cli_opt(cli, "vf-thresholds");
	uint64_t v;

	memset(p, 0, sizeof(*p));
	if (spec) {
		char err[640];

		if (mlx_vf_thresholds_parse(spec, &p->vf, err, sizeof(err)) < 0) {
			cli_error(cli, "%s", err);
			return EXIT_USAGE;
		}
		if (!sec) {
			cli_error(cli, "--vf-thresholds needs --poll SEC: its thresholds are per poll period");
			return EXIT_USAGE;
		}
		p->vf_on = true;
	}
	if (!sec)
		return EXIT_OK;
	if (mlx_parse_u64(sec, &v) < 0 || v == 0 || v > 86400) {
		cli_error(cli, "invalid --poll '%s': seconds, 1 - 86400", sec);
		return EXIT_USAGE;
	}
	p->poll_ms = (unsigned)v * 1000;
	p->aer = calloc(devs->nfn ? devs->nfn : 1, sizeof(*p->aer));
	for (size_t i = 0; i < devs->nfn; i++)
		for (size_t j = 0; j < devs->fn[i].nports; j++) {
			struct mlx_ctarget *t = realloc(p->targets, (p->ntargets + 1) * sizeof(*t));

			if (!t)
				goto nomem;
			p->targets = t;
			t[p->ntargets++] = (struct mlx_ctarget){ &devs->fn[i], &devs->fn[i].ports[j], NULL };
		}
	p->prev = calloc(p->ntargets ? p->ntargets : 1, sizeof(*p->prev));
	p->modflags = calloc(p->ntargets ? p->ntargets : 1, sizeof(*p->modflags));
	p->cst = mlx_cstate_new();
	if (p->aer && p->prev && p->modflags && p->cst)
		return EXIT_OK;
nomem:
	mon_poll_free(p);
	return EXIT_FAIL;
}

void mon_poll_free(struct mon_poll *p)
{
	free(p->aer);
	free(p->targets);
	free(p->prev);
	free(p->modflags);
	free(p->vnic);
	if (p->cst)
		mlx_cstate_free(p->cst);
	memset(p, 0, sizeof(*p));
}

/* the AER totals of every function */
static int poll_aer(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs,
		    mon_deliver_fn deliver, void *arg)
{
	int r;

	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		uint64_t now[3];

		mlx_aer_totals(cli->ctx, fn, now);
		for (unsigned k = 0; p->polled && k < 3; k++) {
			struct mlx_event ev;

			if (now[k] == UINT64_MAX || p->aer[i][k] == UINT64_MAX || now[k] <= p->aer[i][k])
				continue;
			mlx_ev_aer_moved(&ev, fn->bdf, k, p->aer[i][k], now[k]);
			if ((r = deliver(arg, &ev)) != 0)
				return r;
		}
		memcpy(p->aer[i], now, sizeof(now));
	}
	return 0;
}

/* the ethtool -S event counters of every port */
static int poll_ethtool(struct cli *cli, struct mon_poll *p, mon_deliver_fn deliver, void *arg)
{
	struct mlx_counters cs;
	int r;

	if (!p->ntargets)
		return 0;
	r = mlx_counters_sample(cli->ctx, p->cst, p->targets, p->ntargets, 1u << MLX_CSRC_ETHTOOL, &cs);
	if (r < 0)
		return 0;       /* out of memory: the next poll tries again */
	for (size_t i = 0; i < cs.nports && i < p->ntargets && r == 0; i++) {
		const struct mlx_counter_port *cp = &cs.ports[i];
		struct mon_port_prev *pv = &p->prev[i];
		const char *name;

		for (size_t k = 0; k < MON_NCOUNTER_EVENTS && (name = mlx_counter_event_name(k)) != NULL && r == 0;
		     k++) {
			const struct mlx_counter *c = cp->gone ? NULL :
						      mlx_counters_find(cp, MLX_CSRC_ETHTOOL, name);
			struct mlx_event ev;

			if (!c || !c->valid) {
				pv->have[k] = false;    /* gone: the next value is a new baseline */
				continue;
			}
			if (mlx_counter_event(name, cp->bdf, cp->ifname, pv->have[k], pv->v[k], c->raw, &ev) == 1)
				r = deliver(arg, &ev);
			pv->v[k] = c->raw;
			pv->have[k] = true;
		}
	}
	mlx_counters_free(&cs);
	mlx_err_clear(cli->ctx);
	return r;
}

/* the lane flags of every port's module */
static int poll_modflags(struct cli *cli, struct mon_poll *p, mon_deliver_fn deliver, void *arg)
{
	int r = 0;

	for (size_t i = 0; i < p->ntargets && r == 0; i++) {
		const struct mlx_port *pt = p->targets[i].port;

		/* a module sits in a physical port's cage: PFs' (cmd/module.c) */
		if (pt && pt->ifname[0] && p->targets[i].fn && p->targets[i].fn->role == MLX_FN_PF)
			r = mlx_mod_flags_poll(cli->ctx, p->targets[i].fn->bdf, pt->ifname, &p->modflags[i],
					       deliver, arg);
	}
	return r;
}

static struct mon_vnic_prev *vnic_prev(struct mon_poll *p, size_t fn, int64_t port, const char *name)
{
	struct mon_vnic_prev *n;

	for (size_t i = 0; i < p->nvnic; i++)
		if (p->vnic[i].fn == fn && p->vnic[i].port == port && !strcmp(p->vnic[i].name, name))
			return &p->vnic[i];
	n = realloc(p->vnic, (p->nvnic + 1) * sizeof(*n));
	if (!n)
		return NULL;
	p->vnic = n;
	n = &p->vnic[p->nvnic++];
	memset(n, 0, sizeof(*n));
	n->fn = fn;
	n->port = port;
	snprintf(n->name, sizeof(n->name), "%s", name);
	return n;
}

/* one vnic reporter's diagnose: its counters against the last poll's */
static int vnic_reporter(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs, size_t i,
			 const struct mlx_health_reporter *rep, mon_deliver_fn deliver, void *arg)
{
	struct mlx_fmsg_node *root = NULL;
	const struct mlx_fmsg_node *env;
	int r = 0;

	if (mlx_health_diagnose(cli->ctx, &devs->fn[i], rep, &root) < 0) {
		/* DIAGNOSE is an admin command (CAP_NET_ADMIN): say it once */
		if (!p->vnic_warned)
			cli_warn(cli, "--vf-thresholds: %s; no VF events from it", mlx_errmsg(cli->ctx));
		p->vnic_warned = true;
		return 0;
	}
	env = mlx_fmsg_get(root, "vNIC env counters");
	for (size_t k = 0; env && env->kind == MLX_FMSG_OBJ && k < env->n && r == 0; k++) {
		const struct mlx_fmsg_node *c = env->child[k];
		struct mon_vnic_prev *pv;
		struct mlx_event ev;

		if (c->kind != MLX_FMSG_VAL || !c->name || (c->vtype != MLX_FMSG_U32 && c->vtype != MLX_FMSG_U64))
			continue;
		if (!(pv = vnic_prev(p, i, rep->port_index, c->name)))
			break;
		if (mlx_vf_threshold_check(&p->vf, c->name, devs->fn[i].bdf, rep->port_index, pv->have, pv->v,
					   c->u, &ev) == 1)
			r = deliver(arg, &ev);
		pv->v = c->u;
		pv->seen = true;
	}
	mlx_fmsg_free(root);
	return r;
}

/* --vf-thresholds: every vnic reporter of every function */
static int poll_vnic(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs,
		     mon_deliver_fn deliver, void *arg)
{
	size_t nrep = 0;
	int r = 0;

	for (size_t i = 0; i < p->nvnic; i++)
		p->vnic[i].seen = false;
	for (size_t i = 0; i < devs->nfn && r == 0; i++) {
		struct mlx_health *h = calloc(1, sizeof(*h));

		if (!h)
			break;
		if (mlx_health_get(cli->ctx, &devs->fn[i], h) == 0)
			for (size_t k = 0; k < h->n && r == 0; k++)
				if (!strcmp(h->r[k].name, "vnic")) {
					nrep++;
					r = vnic_reporter(cli, p, devs, i, &h->r[k], deliver, arg);
				}
		free(h);
	}
	/* a counter that was not there this time starts a new baseline */
	for (size_t i = 0; i < p->nvnic; i++)
		p->vnic[i].have = p->vnic[i].seen;
	mlx_err_clear(cli->ctx);
	if (!p->polled && !nrep)
		cli_warn(cli, "--vf-thresholds: no function has a devlink health vnic reporter; "
			 "no VF events");
	return r;
}

int mon_poll_run(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs,
		 mon_deliver_fn deliver, void *arg)
{
	int r = poll_aer(cli, p, devs, deliver, arg);

	if (r == 0)
		r = poll_ethtool(cli, p, deliver, arg);
	if (r == 0)
		r = poll_modflags(cli, p, deliver, arg);
	if (r == 0 && p->vf_on)
		r = poll_vnic(cli, p, devs, deliver, arg);
	p->polled = true;
	return r;
}
