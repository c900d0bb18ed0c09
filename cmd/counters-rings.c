/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli show perfstats` (mlxtool's name): the per-ring view of the
 * driver's statistics, rx/tx packets and bytes per ring, interrupts, NAPI
 * polls and arms per channel, stopped and dropped sends, allocation
 * errors and the average packets per poll.  Out of cmd/counters.c, whose
 * targets and warnings it shares (cmd/counters-views.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "counters-views.h"

static const struct {
	const char *dir, *stem, *key, *label;
} ring_cols[] = {
	{ "rx", "queue_packets", "rx_packets", "RX PACKETS" },
	{ "rx", "queue_bytes", "rx_bytes", "RX BYTES" },
	{ "tx", "queue_packets", "tx_packets", "TX PACKETS" },
	{ "tx", "queue_bytes", "tx_bytes", "TX BYTES" },
	{ NULL, "channel_events", "interrupts", "INTERRUPTS" },
	{ NULL, "channel_poll", "polls", "POLLS" },
	{ NULL, "channel_arm", "arms", "ARMS" },
	{ "tx", "queue_stopped", "tx_stopped", "TX STOPPED" },
	{ "tx", "queue_dropped", "tx_dropped", "TX DROPPED" },
	{ "rx", "queue_buff_alloc_err", "rx_buff_alloc_err", "RX ALLOC ERR" },
};
#define NRING_COLS (sizeof(ring_cols) / sizeof(ring_cols[0]))
#define MAX_RINGS 1024

int cmd_perfstats(struct cli *cli, int argc, char **argv)
{
	struct mlx_counters cs;
	struct mlx_cstate *st;
	struct targets ts;
	struct out *o = cli->out;
	int r;

	(void)argc;
	(void)argv;
	r = get_targets(cli, &ts);
	if (r)
		return r;
	st = mlx_cstate_new();
	r = st ? mlx_counters_sample(cli->ctx, st, ts.t, ts.n, 1u << MLX_CSRC_ETHTOOL, &cs) : -ENOMEM;
	if (r < 0) {
		r = cli_fail(cli, r, "cannot read the ring statistics");
		goto out;
	}
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs.nports; i++) {
		const struct mlx_counter_port *p = &cs.ports[i];
		const struct mlx_counter *(*cell)[NRING_COLS];
		int maxq = -1;
		char title[200];

		warn_port(cli, p);
		if (p->gone)
			continue;
		cell = calloc(MAX_RINGS, sizeof(*cell));
		if (!cell)
			break;
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];
			int q = c->m->index;

			if (!c->m->e || q < 0 || q >= MAX_RINGS ||
			    (strcmp(c->m->group, "queue") && strcmp(c->m->group, "channel")))
				continue;
			for (size_t col = 0; col < NRING_COLS; col++)
				if (!strcmp(c->m->metric, ring_cols[col].stem) &&
				    (!ring_cols[col].dir || (c->m->dir && !strcmp(c->m->dir, ring_cols[col].dir)))) {
					cell[q][col] = c;
					if (q > maxq)
						maxq = q;
				}
		}
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, title);
		out_port_ids(o, p);
		out_table_begin(o, "rings");
		for (int q = 0; q <= maxq; q++) {
			const struct mlx_counter *rxp = cell[q][0], *polls = cell[q][5];
			char avg[32];

			out_row_begin(o);
			out_u64(o, "ring", "RING", (uint64_t)q);
			for (size_t col = 0; col < NRING_COLS; col++)
				if (cell[q][col])
					out_u64(o, ring_cols[col].key, ring_cols[col].label, cell[q][col]->value);
				else
					out_null(o, ring_cols[col].key, ring_cols[col].label);
			/* mlxtool's "Average Packets Per DPC": packets per NAPI poll. */
			if (rxp && polls && polls->value) {
				snprintf(avg, sizeof(avg), "%.2f", (double)rxp->value / (double)polls->value);
				out_u64_as(o, "rx_packets_per_poll_x100", "RX PKTS/POLL",
					   (uint64_t)(100.0 * (double)rxp->value / (double)polls->value + 0.5), avg);
			} else {
				out_null(o, "rx_packets_per_poll_x100", "RX PKTS/POLL");
			}
			out_row_end(o);
		}
		out_table_end(o);
		if (maxq < 0)
			out_text(o, "rings", "no per-ring statistics on this port");
		out_obj_end(o);
		free(cell);
	}
	out_list_end(o);
	mlx_counters_free(&cs);
	r = EXIT_OK;
out:
	mlx_cstate_free(st);
	targets_free(&ts);
	return r;
}
