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

/*
 * The state gauges alert rules need (cmd/prom-state.c): link up and speed,
 * PCIe degraded, PFC and DCQCN per priority, show qos --check's findings
 * by rule and severity; of @only, else of every PF.  0 or -errno.
 */
struct cli;
struct mlx_function;
int prom_state(struct cli *cli, FILE *fp, const struct mlx_function *only);

/*
 * A node_exporter textfile written atomically: prom_file_open() makes a
 * temporary file beside @path (same directory, so the rename is atomic),
 * its stream in pf->fp; prom_file_close() flushes it to disk and renames
 * it over @path when @commit, else (or when anything failed) removes it.
 * @path stays whole, old or new, never half written.  0 or -errno.
 */
struct prom_file {
	FILE *fp;
	const char *path;
	char tmp[4096];
};
int prom_file_open(struct prom_file *pf, const char *path);
int prom_file_close(struct prom_file *pf, bool commit);

/* RDMA resource counts per device and type, QPs in error (cmd/rdma-prom.c):
 * of @only's RDMA devices, else of every one.  0 or -errno. */
int prom_write_rdma(struct cli *cli, FILE *fp, const struct mlx_function *only);

/* `counters --format prometheus [--output FILE]`: the counters of @cs
 * that @keep accepts, then the state gauges, to stdout or FILE.  An exit
 * code. */
int prom_command(struct cli *cli, const struct mlx_counters *cs, prom_filter_fn keep, void *arg);

#endif
