/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health through the output layer (JSON only: the fields carry no
 * text label), for dump-me-now's devlink-health items: an fmsg tree as the
 * object it describes, a reporter as the record mlxcli-dbg(8) documents.
 */
#ifndef MLX_HEALTH_JSON_H
#define MLX_HEALTH_JSON_H

#include "health.h"
#include "output.h"

/* @n as the value of @key (NULL in a list).  Objects keep their order; a
 * name repeated in one object becomes an array of its values; binary
 * values become lowercase hex strings; a u64 above 2^63-1 a decimal string. */
void cli_out_fmsg(struct out *o, const char *key, const struct mlx_fmsg_node *n);
/* Into the open object: name, port_index, state, error_count,
 * recover_count, grace_period_ms, auto_recover, auto_dump, last_dump_ms,
 * last_dump_time (null when absent). */
void cli_out_reporter(struct out *o, const struct mlx_health_reporter *r);

#endif
