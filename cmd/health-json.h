/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health as JSON (jansson), shared by `dbg get-state` and
 * dump-me-now: an fmsg tree as the object it describes, a reporter as the
 * record mlxcli-dbg(8) documents.
 */
#ifndef MLX_HEALTH_JSON_H
#define MLX_HEALTH_JSON_H

#include <jansson.h>

#include "health.h"

/* Objects keep their order; a name repeated in one object becomes an array
 * of its values; binary values become lowercase hex strings; a u64 above
 * 2^63-1 a decimal string. */
json_t *cli_fmsg_json(const struct mlx_fmsg_node *n);
/* name, port_index, state, error_count, recover_count, grace_period_ms,
 * auto_recover, auto_dump, last_dump_ms, last_dump_time (null when absent). */
json_t *cli_reporter_json(const struct mlx_health_reporter *r);

#endif
