/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the QoS lint: what lib/qos/qos-lint.c (the engine: RoCE priority,
 * fixes, simulation) and lib/qos/qos-lint-rules.c (the rule table) share.
 */
#ifndef MLX_QOS_LINT_PRIVATE_H
#define MLX_QOS_LINT_PRIVATE_H

#include "qos-lint.h"

#define MAXCAND 12

enum fcmd { F_PFC = 1, F_ENABLE, F_CNP, F_TRUST, F_DSCP2PRIO, F_BUFFER, F_PRIO_TC, F_BW, F_RATE, F_PAUSE };

/* A candidate fix: one mlxcli command, and what it does to the state. */
struct fix {
	enum fcmd cmd;
	uint8_t mask;            /* F_PFC: the new set */
	int prio, side;          /* F_ENABLE: side 1 RP, 2 NP, 3 both; F_DSCP2PRIO, F_RATE (TC) */
	int dscp, cprio;         /* F_CNP (-1 keep), F_DSCP2PRIO */
	int8_t set[8];           /* F_BUFFER prio->buffer, F_PRIO_TC prio->TC; -1 keep */
	int64_t val[8];          /* F_BUFFER sizes, F_BW shares; -1 keep */
};

struct mlx_lint_ctx {
	const struct mlx_qos_state *st;
	struct mlx_lint_report *r;
	size_t rule;
	struct fix cand[MLX_LINT_MAXFIND][MAXCAND];
	size_t ncand[MLX_LINT_MAXFIND];
};

/* The DSCP RoCE v2 traffic carries (from the ToS the host sets) and where
 * it comes from; -1 when the host sets none (applications pick theirs). */
int roce_dscp(const struct mlx_qos_state *st, const char **from);

/* "3,6" from a bit mask of priorities, "none" when empty. */

#endif
