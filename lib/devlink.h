/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink over generic netlink: `dev info` (DEVLINK_CMD_INFO_GET) and the
 * eswitch mode.  Wire format: include/uapi/linux/devlink.h; what mlx5
 * reports: drivers/net/ethernet/mellanox/mlx5/core/devlink.c
 * mlx5_devlink_info_get() (driver, fixed fw.psid, running/stored fw.version
 * and fw, and on newer kernels serial_number and board.serial_number).
 */
#ifndef MLX_DEVLINK_H
#define MLX_DEVLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "device.h"

#define MLX_DEVLINK_MAX_VERSIONS 16

struct mlx_devlink_version {
	char name[64];
	char value[128];
};

struct mlx_devlink_info {
	char bus[16];                 /* "pci" */
	char dev[64];                 /* "0000:08:00.0" */
	char driver[64];
	char serial[128];             /* DEVLINK_ATTR_INFO_SERIAL_NUMBER */
	char board_serial[128];       /* DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER */
	struct mlx_devlink_version fixed[MLX_DEVLINK_MAX_VERSIONS];
	struct mlx_devlink_version running[MLX_DEVLINK_MAX_VERSIONS];
	struct mlx_devlink_version stored[MLX_DEVLINK_MAX_VERSIONS];
	size_t nfixed, nrunning, nstored;
};

/* Decode one DEVLINK_CMD_INFO_GET reply (genl header + attributes).
 * -EBADMSG with a reason in @err when malformed; never reads past @len. */
int mlx_devlink_info_decode(const struct nlmsghdr *h, size_t len, struct mlx_devlink_info *out,
			    char *err, size_t errlen);
/* A version by name from one of the three lists; NULL when absent. */
const char *mlx_devlink_version(const struct mlx_devlink_version *v, size_t n, const char *name);

/* A devlink request on handle bus/dev: INFO_GET, ESWITCH_GET, or
 * ESWITCH_SET with @mode >= 0.  nlmsg_type is 0 (mlx_nl_query puts the
 * family id).  Returns the length or -EMSGSIZE. */
int mlx_devlink_build(void *buf, size_t cap, uint8_t cmd, const char *bus, const char *dev,
		      int eswitch_mode);

/* DEVLINK_CMD_INFO_GET for a PF (replayed under a sysroot). */
int mlx_devlink_info_get(struct mlx_ctx *ctx, const struct mlx_function *fn,
			 struct mlx_devlink_info *out);

#endif
