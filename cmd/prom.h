/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus text exposition writer of `mlxcli counters --format
 * prometheus` (cmd/prom.c): one metric family per catalogue family
 * (mlxcli_prio_rx_bytes_total{priority="3"}), not one per counter name;
 * HELP and TYPE once per family; valid for the node_exporter textfile
 * collector.
 */
#ifndef MLX_PROM_H
#define MLX_PROM_H

#include <stdbool.h>
#include <stdio.h>

#include "counters.h"

/* Decides which counters go out (the command's --group/--filter/...). */
typedef bool (*prom_filter_fn)(const struct mlx_counter *c, void *arg);

/* Write every counter of @cs that @keep accepts (NULL: all).  Returns the
 * number of samples written, or -errno. */
int prom_write(FILE *fp, const struct mlx_counters *cs, prom_filter_fn keep, void *arg);

/* Label value escaping per the exposition format: \\ \" \n.  Pure. */
void prom_escape_label(char *out, size_t len, const char *in);
/* The full metric name of a counter: mlxcli_<stem>[_unit][_total]. */
void prom_metric_name(const struct mlx_cat_match *m, char *out, size_t len, bool *is_counter);

#endif
