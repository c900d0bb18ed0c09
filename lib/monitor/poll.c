/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The polls of the event source (issue 16, `monitor --poll SEC`): the
 * counters that only count, read every period; one that grew since the
 * last poll is an event.  The first poll is the baseline.  Sources: the
 * PCIe AER totals of every function (lib/monitor/counter-poll.c) and the
 * mlx5 ethtool -S event counters of every port (read by lib/counters, the
 * one reader of ethtool -S; which counters and their kinds:
 * lib/monitor/counter-events.c).  With VF thresholds, the VF monitor: the
 * devlink health "vnic" reporter's diagnose counters of every function
 * (and of every devlink port's vnic reporter: representors), read through
 * lib/debug/health.c, an event when one grows by more than its threshold
 * in one period (lib/monitor/vf-thresholds.c); the lane flags of every
 * port's module (lib/monitor/counter-poll.c).  The source
 * (lib/monitor/source.c) runs them on its timer.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "device.h"
#include "health.h"
#include "monitor-private.h"

#define NCOUNTER_EVENTS 32         /* room for lib's ethtool event counters */

/* the last values of one port's event counters */
struct port_prev {
	uint64_t v[NCOUNTER_EVENTS];
	bool have[NCOUNTER_EVENTS];
};

/* the last value of one vnic counter of one reporter */
struct vnic_prev {
	size_t fn;                     /* index in the devices */
	int64_t port;                  /* the reporter's port index, -1 the function's */
	char name[48];
	uint64_t v;
	bool have;                     /* v is the last poll's */
	bool seen;                     /* in this poll (if not, the next value is a new baseline) */
};

struct mlx_evpoll {
	struct mlx_ctx *ctx;
	const struct mlx_devices *devs;
	bool polled;                   /* the baseline is read */
	uint64_t (*aer)[3];            /* per function of the devices: the last totals */
	struct mlx_ctarget *targets;   /* every port, for lib/counters */
	size_t ntargets;
	struct port_prev *prev;        /* per target: the last event-counter values */
	struct mlx_modflags_prev *modflags;    /* per target: the module's last lane flags */
	struct mlx_cstate *cst;        /* the ethtool names, read once */
	const struct mlx_vf_thresholds *vf;    /* NULL: no VF monitor */
	bool vnic_warned;              /* a diagnose failed: said once */
	struct vnic_prev *vnic;        /* per vnic reporter and counter: the last value */
	size_t nvnic;
};

void mlx_evpoll_free(struct mlx_evpoll *p)
{
	if (!p)
		return;
	free(p->aer);
	free(p->targets);
	free(p->prev);
	free(p->modflags);
	free(p->vnic);
	if (p->cst)
		mlx_cstate_free(p->cst);
	free(p);
}

int mlx_evpoll_new(struct mlx_ctx *ctx, const struct mlx_devices *devs, const struct mlx_vf_thresholds *vf,
		   struct mlx_evpoll **out)
{
	struct mlx_evpoll *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->ctx = ctx;
	p->devs = devs;
	p->vf = vf;
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
	if (p->aer && p->prev && p->modflags && p->cst) {
		*out = p;
		return 0;
	}
nomem:
	mlx_evpoll_free(p);
	return -ENOMEM;
}

/* the AER totals of every function */
static int poll_aer(struct mlx_evpoll *p, mlx_evpoll_emit emit, void *arg)
{
	const struct mlx_devices *devs = p->devs;
	int r;

	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		uint64_t now[3];

		mlx_aer_totals(p->ctx, fn, now);
		for (unsigned k = 0; p->polled && k < 3; k++) {
			struct mlx_event ev;

			if (now[k] == UINT64_MAX || p->aer[i][k] == UINT64_MAX || now[k] <= p->aer[i][k])
				continue;
			mlx_ev_aer_moved(&ev, fn->bdf, k, p->aer[i][k], now[k]);
			if ((r = emit(arg, &ev)) != 0)
				return r;
		}
		memcpy(p->aer[i], now, sizeof(now));
	}
	return 0;
}

/* the ethtool -S event counters of every port */
static int poll_ethtool(struct mlx_evpoll *p, mlx_evpoll_emit emit, void *arg)
{
	struct mlx_counters cs;
	int r;

	if (!p->ntargets)
		return 0;
	r = mlx_counters_sample(p->ctx, p->cst, p->targets, p->ntargets, 1u << MLX_CSRC_ETHTOOL, &cs);
	if (r < 0)
		return 0;       /* out of memory: the next poll tries again */
	for (size_t i = 0; i < cs.nports && i < p->ntargets && r == 0; i++) {
		const struct mlx_counter_port *cp = &cs.ports[i];
		struct port_prev *pv = &p->prev[i];
		const char *name;

		for (size_t k = 0; k < NCOUNTER_EVENTS && (name = mlx_counter_event_name(k)) != NULL && r == 0;
		     k++) {
			const struct mlx_counter *c = cp->gone ? NULL :
						      mlx_counters_find(cp, MLX_CSRC_ETHTOOL, name);
			struct mlx_event ev;

			if (!c || !c->valid) {
				pv->have[k] = false;    /* gone: the next value is a new baseline */
				continue;
			}
			if (mlx_counter_event(name, cp->bdf, cp->ifname, pv->have[k], pv->v[k], c->raw, &ev) == 1)
				r = emit(arg, &ev);
			pv->v[k] = c->raw;
			pv->have[k] = true;
		}
	}
	mlx_counters_free(&cs);
	mlx_err_clear(p->ctx);
	return r;
}

/* the lane flags of every port's module */
static int poll_modflags(struct mlx_evpoll *p, mlx_evpoll_emit emit, void *arg)
{
	int r = 0;

	for (size_t i = 0; i < p->ntargets && r == 0; i++) {
		const struct mlx_port *pt = p->targets[i].port;
		const struct mlx_function *fn = p->targets[i].fn;

		/* a module sits in a physical port's cage: PFs' (cmd/module.c) */
		if (pt && pt->ifname[0] && fn && fn->role == MLX_FN_PF)
			r = mlx_mod_flags_poll(p->ctx, fn->bdf, pt->ifname, &p->modflags[i], emit, arg);
	}
	return r;
}

static struct vnic_prev *vnic_prev(struct mlx_evpoll *p, size_t fn, int64_t port, const char *name)
{
	struct vnic_prev *n;

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
static int vnic_reporter(struct mlx_evpoll *p, size_t i, const struct mlx_health_reporter *rep,
			 mlx_evpoll_emit emit, void *arg)
{
	const struct mlx_function *fn = &p->devs->fn[i];
	struct mlx_fmsg_node *root = NULL;
	const struct mlx_fmsg_node *env;
	int r = 0;

	if (mlx_health_diagnose(p->ctx, fn, rep, &root) < 0) {
		/* DIAGNOSE is an admin command (CAP_NET_ADMIN): say it once */
		if (!p->vnic_warned)
			mlx_log(p->ctx, MLX_LOG_WARN, "--vf-thresholds: %s; no VF events from it",
				mlx_errmsg(p->ctx));
		p->vnic_warned = true;
		return 0;
	}
	env = mlx_fmsg_get(root, "vNIC env counters");
	for (size_t k = 0; env && env->kind == MLX_FMSG_OBJ && k < env->n && r == 0; k++) {
		const struct mlx_fmsg_node *c = env->child[k];
		struct vnic_prev *pv;
		struct mlx_event ev;

		if (c->kind != MLX_FMSG_VAL || !c->name || (c->vtype != MLX_FMSG_U32 && c->vtype != MLX_FMSG_U64))
			continue;
		if (!(pv = vnic_prev(p, i, rep->port_index, c->name)))
			break;
		if (mlx_vf_threshold_check(p->vf, c->name, fn->bdf, rep->port_index, pv->have, pv->v, c->u,
					   &ev) == 1)
			r = emit(arg, &ev);
		pv->v = c->u;
		pv->seen = true;
	}
	mlx_fmsg_free(root);
	return r;
}

/* The names of the thresholds must be counters some reporter gives
 * (checked against what the reporters report, at the baseline: the
 * kernel adds counters, issue 25 item 13).  0, or -EINVAL with the
 * story. */
static int vnic_names_check(struct mlx_evpoll *p)
{
	for (size_t k = 0; k < p->vf->n; k++) {
		char have[512];
		size_t hl = 0;
		bool found = false;

		have[0] = '\0';
		for (size_t i = 0; i < p->nvnic && !found; i++) {
			bool again = false;

			found = !strcmp(p->vnic[i].name, p->vf->c[k].name);
			/* every name some reporter gives, once, for the message */
			for (size_t j = 0; j < i && !again; j++)
				again = !strcmp(p->vnic[j].name, p->vnic[i].name);
			if (!again && hl < sizeof(have))
				hl += (size_t)snprintf(have + hl, sizeof(have) - hl, "%s%s", hl ? ", " : "",
						       p->vnic[i].name);
		}
		if (!found)
			return mlx_err(p->ctx, EINVAL, "invalid --vf-thresholds: no vnic reporter of this "
				       "system has a counter '%s' (they have: %s)", p->vf->c[k].name, have);
	}
	return 0;
}

/* --vf-thresholds: every vnic reporter of every function */
static int poll_vnic(struct mlx_evpoll *p, mlx_evpoll_emit emit, void *arg)
{
	const struct mlx_devices *devs = p->devs;
	size_t nrep = 0;
	int r = 0;

	for (size_t i = 0; i < p->nvnic; i++)
		p->vnic[i].seen = false;
	for (size_t i = 0; i < devs->nfn && r == 0; i++) {
		struct mlx_health *h = calloc(1, sizeof(*h));

		if (!h)
			break;
		if (mlx_health_get(p->ctx, &devs->fn[i], h) == 0)
			for (size_t k = 0; k < h->n && r == 0; k++)
				if (!strcmp(h->r[k].name, "vnic")) {
					nrep++;
					r = vnic_reporter(p, i, &h->r[k], emit, arg);
				}
		free(h);
	}
	/* a counter that was not there this time starts a new baseline */
	for (size_t i = 0; i < p->nvnic; i++)
		p->vnic[i].have = p->vnic[i].seen;
	mlx_err_clear(p->ctx);
	if (!p->polled && !nrep)
		mlx_log(p->ctx, MLX_LOG_WARN, "--vf-thresholds: no function has a devlink health vnic "
			"reporter; no VF events");
	if (r == 0 && !p->polled && p->nvnic)
		r = vnic_names_check(p);
	return r;
}

int mlx_evpoll_run(struct mlx_evpoll *p, mlx_evpoll_emit emit, void *arg)
{
	int r = poll_aer(p, emit, arg);

	if (r == 0)
		r = poll_ethtool(p, emit, arg);
	if (r == 0)
		r = poll_modflags(p, emit, arg);
	if (r == 0 && p->vf)
		r = poll_vnic(p, emit, arg);
	p->polled = true;
	return r;
}
