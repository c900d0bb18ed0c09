/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `show qos --check` (cmd/qos-check.c): reading the DCQCN side of a port
 * into the lint's state, running the lint (lib/qos-lint.h) and rendering
 * its report with the output layer, one set of calls for text and JSON.
 */
#ifndef MLX_CMD_QOS_CHECK_H
#define MLX_CMD_QOS_CHECK_H

#include "cli.h"
#include "qos-lint.h"

/* The DCQCN facts of @port on @fn (per-priority RP/NP enable, CNP DSCP,
 * priority and mode) and the link speed into @qs; what cannot be read
 * stays unknown. */
void qos_read_dcqcn(struct cli *cli, const struct mlx_function *fn, const struct mlx_port *port,
		    struct mlx_qos_state *qs);

/* Lint @qs (its DCQCN part read, its ifname set) with the DCB state @dcb
 * and whether a VLAN device is on the port; @roce_prio from --roce-prio
 * or -1.  An exit code. */
int qos_check(struct cli *cli, struct mlx_qos_state *qs, const struct mlx_dcb_state *dcb,
	      int roce_prio, struct mlx_lint_report *rep);

/* The "check" object and the "findings" list of a port. */
void qos_check_out(struct out *o, const struct mlx_lint_report *rep);

/* Warnings and errors in @rep: --check exits 1 when there are any. */
size_t qos_check_problems(const struct mlx_lint_report *rep);

#endif
