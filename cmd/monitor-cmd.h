/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of `mlxcli monitor` share: cmd/monitor.c (the stream of
 * lib's event source), cmd/monitor-dump.c (automatic incidents, Table 19).
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
 * @ev was delivered: when its dump type is on and the policy says so,
 * make an incident of its PF and print an "incident" record to @fp (JSON
 * with @json).  A failed incident is said on stderr; the monitor goes on.
 * @src: the kernel-log records it read, for an incident whose system log
 * cannot be read again.
 */
void mon_dump_event(struct cli *cli, struct mon_dump *d, const struct mlx_devices *devs,
		    const struct mlx_evsrc *src, const struct mlx_event *ev, bool json, FILE *fp);

#endif
