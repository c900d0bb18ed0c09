/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the views of `mlxcli counters` share between cmd/counters.c (the
 * command, show, cc, prio, errors) and cmd/counters-watch.c (watch): the
 * counter selection (--group, --filter, --nonzero), the ports to read and
 * the port identity fields.
 */
#ifndef MLX_CMD_COUNTERS_VIEWS_H
#define MLX_CMD_COUNTERS_VIEWS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "counters.h"

struct sel {
	char groups[16][24];
	size_t ngroups;
	bool have_re, nonzero;
	regex_t re;
};

struct targets {
	struct mlx_ctarget *t;
	size_t n;
	char **names;           /* --any-netdev without -d: the netdev list */
};

/* Whether counter @c passes the selection @arg (a struct sel). */
bool keep(const struct mlx_counter *c, void *arg);
/* device, netdev, rdma_device, rdma_port, port of @p. */
void out_port_ids(struct out *o, const struct mlx_counter_port *p);
/* "0000:5e:00.0 enp94s0f0np0 (mlx5_0 port 1)": a port's text title. */
void port_title(const struct mlx_counter_port *p, char *buf, size_t len);

/* `mlxcli counters watch` (cmd/counters-watch.c). */
int view_watch(struct cli *cli, struct mlx_cstate *st, const struct targets *ts, struct sel *s);

#endif
