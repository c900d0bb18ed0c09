/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health through the output layer: an fmsg tree as the object it
 * describes, a reporter as the record mlxcli-dbg(8) documents, and a
 * reporter's self-healing policy (issue 27).  Unlabelled (JSON only: dump-
 * me-now's items, get-state's list) or labelled (`mlxcli health`'s text).
 */
#ifndef MLX_HEALTH_JSON_H
#define MLX_HEALTH_JSON_H

#include <stdbool.h>

#include "health.h"
#include "output.h"
#include "settings.h"

/* @n as the value of @key (NULL in a list).  Objects keep their order; a
 * name repeated in one object becomes an array of its values; binary
 * values become lowercase hex strings; a u64 above 2^63-1 a decimal string. */
void cli_out_fmsg(struct out *o, const char *key, const struct mlx_fmsg_node *n);
/* The same with text: each member under its name, each element under its
 * index; @label the tree's own heading (NULL none). */
void cli_out_fmsg_text(struct out *o, const char *key, const char *label,
		       const struct mlx_fmsg_node *n);
/* Into the open object (or table row, @labelled: the columns of `mlxcli
 * health show`): name, port_index, state, error_count, recover_count,
 * grace_period_ms, auto_recover, auto_dump, last_dump_ms, last_dump_time
 * (null when absent). */
void cli_out_reporter(struct out *o, const struct mlx_health_reporter *r, bool labelled);
/* The policy of a reporter: grace_period_ms, auto_recover, auto_dump; as
 * state's "path = value" lines (@sp, "health.fw"), or the fields of a
 * record (@sp NULL; text columns when @labelled). */
struct mlx_health_policy;
struct spath;
void health_out_policy(struct out *o, const struct mlx_health_policy *p, const struct spath *sp,
		       bool labelled);
/* A reporter's policy as the settings model holds it. */
void health_policy_of(const struct mlx_health_reporter *r, struct mlx_health_policy *p);

#endif
