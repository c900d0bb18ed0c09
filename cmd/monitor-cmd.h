/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of `mlxcli monitor` share: cmd/monitor.c (the sources,
 * the stream), cmd/monitor-dump.c (automatic incidents, Table 19),
 * cmd/monitor-poll.c (--poll: the counters that only count).
 */
#ifndef MLX_CMD_MONITOR_H
#define MLX_CMD_MONITOR_H

#include "dmn-cmd.h"
#include "monitor.h"

struct mon_dump {
	bool on;                       /* --dump or monitor_dump=yes */
	struct dmn_settings s;         /* the dump root, retention, the types */
	struct mlx_dump_policy policy;
	unsigned long made;            /* incidents this run made */
	unsigned counter;              /* names: distinct per incident of this process */
};

/* Read the settings (defaults < the configuration file < options) into
 * @d; with @reload (SIGHUP) only the file and the options again, the
 * counts of the policy kept.  0 or an exit code (said on stderr). */
int mon_dump_load(struct cli *cli, struct mon_dump *d, bool reload);
/*
 * @ev was delivered: when its Table 19 type is on and the policy says so,
 * make an incident of its PF and print an "incident" record to @fp (JSON
 * with @json).  A failed incident is said on stderr; the monitor goes on.
 */
void mon_dump_event(struct cli *cli, struct mon_dump *d, const struct mlx_devices *devs,
		    const struct mlx_event *ev, bool json, FILE *fp);

/* An event for the stream (cmd/monitor.c's filter, print, hook, dump):
 * non-zero ends it. */
typedef int (*mon_deliver_fn)(void *arg, struct mlx_event *ev);

#define MON_NCOUNTER_EVENTS 32     /* room for lib's ethtool event counters */

struct mlx_ctarget;
struct mlx_cstate;
struct mon_port_prev;
struct mon_vnic_prev;
struct mon_poll {
	unsigned poll_ms;              /* --poll; 0 off */
	bool polled;                   /* the baseline is read */
	uint64_t (*aer)[3];            /* per function of the devices: the last totals */
	struct mlx_ctarget *targets;   /* every port, for lib/counters */
	size_t ntargets;
	struct mon_port_prev *prev;    /* per target: the last event-counter values */
	struct mlx_modflags_prev *modflags;    /* per target: the module's last lane flags */
	struct mlx_cstate *cst;        /* the ethtool names, read once */
	bool vf_on;                    /* --vf-thresholds */
	bool vnic_warned;              /* a diagnose failed: said once */
	struct mlx_vf_thresholds vf;
	struct mon_vnic_prev *vnic;    /* per vnic reporter and counter: the last value */
	size_t nvnic;
};
/* --poll SEC and --vf-thresholds SPEC (validated: exit 2) for the
 * functions and ports of @devs; 0 or an exit code. */
int mon_poll_init(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs);
/* One poll: every counter that grew is delivered (the first poll is the
 * baseline); the first non-zero return of @deliver is returned. */
int mon_poll_run(struct cli *cli, struct mon_poll *p, const struct mlx_devices *devs,
		 mon_deliver_fn deliver, void *arg);
void mon_poll_free(struct mon_poll *p);

#endif
