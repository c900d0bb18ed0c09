/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the files of lib/monitor/ share; not the CLI's interface. */
#ifndef MLX_MONITOR_PRIVATE_H
#define MLX_MONITOR_PRIVATE_H

#include "monitor.h"

/* ---- the RDMA half of the kernel-log classifier (lib/monitor/kmsg-rdma.c) */

/* The text @t of a record (@level its log level) about an RDMA device
 * (mlx5_ib, ib_core): 1 with *@ev's kind, fields and rdma_device filled,
 * else 0.  Pure. */
int mlx_kmsg_classify_rdma(const char *t, int level, struct mlx_event *ev);

/* ---- the polls (lib/monitor/poll.c), run by the source's timer ---------- */

struct mlx_evpoll;
/* An event of a poll; non-zero stops the poll and is returned. */
typedef int (*mlx_evpoll_emit)(void *arg, struct mlx_event *ev);
/* The counters that only count of the functions and ports of @devs (kept,
 * not copied); with @vf (kept) the VF monitor too.  0 or -ENOMEM. */
int mlx_evpoll_new(struct mlx_ctx *ctx, const struct mlx_devices *devs, const struct mlx_vf_thresholds *vf,
		   struct mlx_evpoll **out);
/* One poll: every counter that grew is emitted (the first poll is the
 * baseline, which also checks the VF thresholds' names against what the
 * reporters give: -EINVAL with the story).  The first non-zero return of
 * @emit is returned. */
int mlx_evpoll_run(struct mlx_evpoll *p, mlx_evpoll_emit emit, void *arg);
void mlx_evpoll_free(struct mlx_evpoll *p);

#endif
