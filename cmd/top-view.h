/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `mlxcli top` shows (cmd/top-view.c): the views, the numbers of a
 * port computed from two counter samples, the screen and the keys; the
 * terminal and the loop are cmd/top.c's.
 */
#ifndef MLX_CMD_TOP_VIEW_H
#define MLX_CMD_TOP_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "counters.h"
#include "counters-views.h"

/* The sources top reads: the driver's statistics (drops, pause, PCIe),
 * RDMA hw_counters (CNPs, ECN) and the netdev's (bytes, packets). */
#define TOP_SOURCES ((1u << MLX_CSRC_ETHTOOL) | (1u << MLX_CSRC_HW) | (1u << MLX_CSRC_NETDEV))
#define TOP_MAX_COLS 512
#define TOP_KEY_RESIZED 0x100   /* not a key: the terminal said its size */
#define TOP_KEY_SUSPEND 0x101   /* not a key: ^Z (SIGTSTP) */

/* The numbers of a port; NAN where the port has no such counter. */
enum top_metric {
	M_RX_BPS, M_TX_BPS, M_RX_PPS, M_TX_PPS, M_DROPS,
	M_RX_PAUSE,                     /* 8 priorities */
	M_TX_PAUSE = M_RX_PAUSE + 8,    /* 8 priorities */
	M_CNP_SENT = M_TX_PAUSE + 8, M_CNP_HANDLED, M_ECN,
	M_STALL_RD, M_STALL_WR, M_STALL_EVENTS,
	M_TEMP, M_RXPWR_MIN, M_RXPWR_MAX, M_LANES,
	M_N
};

struct top_row {
	char name[MLX_IFNAME_LEN];      /* printable ASCII only */
	char link[12];                  /* "up 100G", "down", "gone" */
	double v[M_N];
	size_t target;                  /* index in the targets and samples */
};

struct top_state {
	struct top_row *rows;
	size_t *order;                  /* rows in the order shown */
	size_t n;
	int view;
	int sort;                       /* 0 the port name, k the view's column k */
	bool reverse;
	double interval, dt;            /* asked, and between the last two samples */
	unsigned seq;                   /* samples taken */
	bool rates;                     /* two samples: the rates are known */
	char when[16];                  /* "12:00:03Z": the last sample */
};

extern const char *const top_view_names[];
/* The index of view @name, or -1. */
int top_view_index(const char *name);

int top_state_init(struct top_state *s, size_t n, int view, double interval);
void top_state_free(struct top_state *s);
/* The rows from sample @cur and the one before it, @prev (NULL: the
 * first; rates unknown), in the order the sort asks. */
void top_compute(struct cli *cli, struct top_state *s, const struct targets *ts,
		 const struct mlx_counters *prev, const struct mlx_counters *cur);
/* Draw the screen, @rows x @cols, from its top left corner: no line is
 * longer than @cols (cut, never wrapped), none below @rows.  0 or -EIO. */
int top_draw(FILE *fp, const struct top_state *s, unsigned rows, unsigned cols);
/* A key: true when it changed the view or the sort (draw again). */
bool top_key(struct top_state *s, int key);

#endif
