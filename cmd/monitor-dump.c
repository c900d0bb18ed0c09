/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli monitor --dump`: automatic incidents (issue 16), WinOF-2's state
 * dumps on the Table 19 events (reference/seeds-winof2-dumps-events.md
 * §2).  The policy (which type is on, DumpEventsNum per type, a burst is
 * one incident) is lib's (lib/monitor/dump-policy.c); the incident is the
 * one dump-me-now makes (cmd/dmn.c dmn_make_incident), with the Table 19
 * type, the source MONITOR and a reason "TYPE.tag.kind" in its name, and
 * each reporter's devlink health dump cleared once it is in the incident.
 *
 * "At most DumpEventsNum per type" counts the automatic incidents of that
 * type that the dump root holds when the monitor starts, plus those it
 * makes: a restarted monitor does not get a new budget, and retention
 * (dmn_total_count) removing old ones gives room again only on restart.
 */
#include "incident.h"
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monitor-cmd.h"

#define DUMP_SOURCE "MONITOR"

/* The automatic incidents of each type already in the dump root. */
static void count_existing(struct mon_dump *d)
{
	struct mlx_dmn_entry *e;
	size_t n;

	memset(d->policy.made, 0, sizeof(d->policy.made));
	if (mlx_dmn_list(d->s.dir, &e, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(e[i].source, DUMP_SOURCE))
			continue;
		for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++)
			if (!strcmp(e[i].type, mlx_dump_type_info(t)->name))
				d->policy.made[t]++;
	}
	free(e);
}

int mon_dump_load(struct cli *cli, struct mon_dump *d, bool reload)
{
	struct dmn_settings s;
	bool was_on = reload && d->on;
	int r = dmn_load_settings(cli, &s);

	if (r)
		return r;
	if (!reload)
		mlx_dump_policy_init(&d->policy);
	else
		for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++)
			d->policy.enabled[t] = mlx_dump_type_info(t)->on_by_default;
	/* checked when read: cannot fail here */
	if (s.monitor_dump_types[0])
		mlx_dump_policy_set_list(&d->policy, s.monitor_dump_types);
	d->policy.budget = s.events_num;
	d->on = s.monitor_dump;
	if (d->on && (!was_on || strcmp(s.dir, d->s.dir))) {
		r = dmn_prepare_root(cli, &s);
		if (r != EXIT_OK)
			return r;
		d->s = s;
		count_existing(d);
	}
	d->s = s;
	/* the dmn_dir of the settings; s.conf pointed into the environment */
	return EXIT_OK;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static const struct mlx_function *fn_of(const struct mlx_devices *devs, const char *bdf)
{
	for (size_t i = 0; devs && bdf[0] && i < devs->nfn; i++)
		if (!strcmp(devs->fn[i].bdf, bdf))
			return devs->fn[i].role == MLX_FN_VF ? devs->fn[i].pf : &devs->fn[i];
	return NULL;
}

/* One "incident" record: what was made, for what, and what retention
 * removed to make room. */
static void out_incident(const struct mlx_event *ev, const struct dmn_manifest *man,
			 const struct mlx_dump_type_info *dt, char **removed, bool json, FILE *fp)
{
	struct out *o = out_new(json, false, fp);
	char tag[2] = { dt->tag, 0 }, line[9000];

	if (!o)
		return;
	out_str(o, "record", NULL, "incident");
	out_str(o, "time", NULL, man->created_at);
	out_str(o, "kind", NULL, mlx_ev_kind_info(ev->kind)->id);
	out_str(o, "dump_type", NULL, dt->name);
	out_str(o, "dump_tag", NULL, tag);
	out_str(o, "pci_address", NULL, man->pci_address);
	out_str(o, "path", NULL, man->path);
	out_list_begin(o, "removed_by_retention", NULL);
	for (size_t i = 0; removed && removed[i]; i++)
		out_str(o, NULL, NULL, removed[i]);
	out_list_end(o);
	snprintf(line, sizeof(line), "%-8s %-22s %s dump=%s  %s", "incident", mlx_ev_kind_info(ev->kind)->id,
		 man->pci_address, dt->name, man->path);
	out_text(o, man->created_at, line);
	if (out_finish(o) == 0)
		fflush(fp);
	out_free(o);
}

void mon_dump_event(struct cli *cli, struct mon_dump *d, const struct mlx_devices *devs,
		    const struct mlx_evsrc *src, const struct mlx_event *ev, bool json, FILE *fp)
{
	const struct mlx_ev_kind_info *ki = mlx_ev_kind_info(ev->kind);
	const struct mlx_dump_type_info *dt = mlx_dump_type_info(ki ? ki->dump : MLX_DUMP_NONE);
	const struct mlx_function *fn;
	struct dmn_manifest *man = NULL;
	int r;
	struct mlx_event pf_ev;
	char reason[64], **removed = NULL, *log = NULL;
	size_t loglen = 0;
	struct dmn_why why = { NULL, DUMP_SOURCE, reason, true, NULL, 0 };

	if (!d->on || !dt)
		return;
	/* "DMN is unsupported on VFs": a VF's event is its PF's incident,
	 * and a burst on several VFs of one PF is one */
	fn = fn_of(devs, ev->pci_address);
	if (!fn) {
		if (cli->verbose)
			cli_warn(cli, "no incident for a %s event: '%s' is no ConnectX function of this "
				 "system", ki->id, ev->pci_address[0] ? ev->pci_address : ev->netdev);
		return;
	}
	pf_ev = *ev;
	snprintf(pf_ev.pci_address, sizeof(pf_ev.pci_address), "%s", fn->bdf);
	/* a replayed log is judged on the kernel's clock, so a recorded burst
	 * is a burst whenever it is replayed */
	if (mlx_dump_policy_decide(&d->policy, &pf_ev, ev->usec ? ev->usec : mono_us()) !=
	    MLX_DUMP_MAKE)
		return;
	snprintf(reason, sizeof(reason), "%s.%c.%s", dt->name, dt->tag, ki->id);
	why.type = dt->name;
	if (src && mlx_evsrc_kernel_log(src, &log, &loglen) == 0) {
		why.kernel_log = log;
		why.kernel_log_len = loglen;
	}
	r = dmn_make_incident(cli, &d->s, fn, &why, d->counter++, &man);
	free(log);
	if (r != EXIT_OK)
		return;         /* said; nothing was kept, the monitor goes on */
	d->made++;
	if (dmn_apply_retention(cli, &d->s, &removed) < 0)
		cli_warn(cli, "retention: cannot list '%s'", d->s.dir);
	out_incident(ev, man, dt, removed, json, fp);
	for (size_t k = 0; removed && removed[k]; k++)
		free(removed[k]);
	free(removed);
	dmn_manifest_free(man);
}
