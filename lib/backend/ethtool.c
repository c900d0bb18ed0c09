/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ethtool ioctl backend (SIOCETHTOOL), for facts sysfs does not hold:
 * the firmware version of a netdev whose RDMA side is not loaded.
 * Struct layouts: include/uapi/linux/ethtool.h.
 */
#include "config.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <string.h>

#include "mlx-private.h"

int mlx_ethtool_drvinfo(struct mlx_ctx *ctx, const char *ifname, struct mlx_drvinfo *info)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	int r;

	memset(info, 0, sizeof(*info));
	if (strlen(ifname) >= IFNAMSIZ || !mlx_name_is_safe(ifname))
		return -EINVAL;
	/* -EOPNOTSUPP on a captured system: no kernel to ask. */
	r = mlx_kernel_ethtool(ctx, ifname, &di);
	if (r < 0)
		return r;
	/* The kernel NUL-terminates these, but do not trust a 32-byte field. */
	memcpy(info->driver, di.driver, sizeof(info->driver) - 1);
	memcpy(info->version, di.version, sizeof(info->version) - 1);
	memcpy(info->fw_version, di.fw_version, sizeof(info->fw_version) - 1);
	memcpy(info->bus_info, di.bus_info, sizeof(info->bus_info) - 1);
	info->n_stats = di.n_stats;
	return 0;
}
