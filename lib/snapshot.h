/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli snapshot DIR`: capture the target system in the --sysroot format
 * (documented in tests/data/samples/README.md and mlxcli-snapshot(8)):
 *   DIR/mlxcli-snapshot.json           metadata
 *   DIR/sys/devices/.../<BDF>/...      sysfs of each ConnectX function,
 *                                      its net/ and infiniband/ children
 *   DIR/sys/bus/pci/devices/<BDF>      the kernel's symlinks, verbatim
 *   DIR/sys/class/{net,infiniband}/X
 *   DIR/sys/kernel/debug/mlx5/<BDF>/   readable mlx5 debugfs
 *   DIR/netlink/<family>/<object>/<request>.nl
 *                                      raw netlink replies (later features)
 * The capture is written under a temporary name beside DIR and renamed into
 * place when complete: a failed capture leaves nothing behind.
 */
#ifndef MLX_SNAPSHOT_H
#define MLX_SNAPSHOT_H

#include "device.h"

struct mlx_snapshot_stats {
	unsigned files, links, dirs, skipped;   /* skipped: unreadable entries */
	uint64_t bytes;
};

struct mlx_snapshot_meta {
	const char *tool_version;
	const char *hostname;    /* NULL: the captured system's (uname() live) */
	bool rdma_raw;           /* the RDMA raw vendor contexts too (dump-me-now) */
};

/* Capture the functions in @devs (all of them) into @dest, which must not
 * exist.  0 or -errno with mlx_errmsg(). */
int mlx_snapshot(struct mlx_ctx *ctx, const struct mlx_devices *devs, const char *dest,
		 const struct mlx_snapshot_meta *meta, struct mlx_snapshot_stats *st);

/* Where a captured netlink reply lives inside a sysroot (target path). */
int mlx_netlink_capture_path(char *buf, size_t len, const char *family, const char *object,
			     const char *request);

#endif
