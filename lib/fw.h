/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Firmware and identity of a function (`mlxcli fw query`) and the PCIe
 * error counters (`mlxcli pci show`).
 *
 * Sources, in order: devlink dev info (DEVLINK_CMD_INFO_GET); the RDMA
 * device's fw_ver/board_id in sysfs; ethtool drvinfo (live only).  The
 * source that answered is reported with each value.  VPD from the
 * function's sysfs `vpd` file.
 */
#ifndef MLX_FW_H
#define MLX_FW_H

#include "devlink.h"
#include "device.h"
#include "vpd.h"

/* devlink's stored version when the pending-image query failed
 * (fixture devlink/cx6dx-devlink-dev-info-stored-fw-query-failed-255.txt). */
#define MLX_FW_QUERY_FAILED "255.255.65535"

struct mlx_fw_info {
	char running[64], stored[64], psid[64], board_id[64];
	const char *running_source;   /* "devlink", "sysfs", "ethtool" or NULL */
	const char *stored_source;    /* "devlink" or NULL */
	const char *psid_source;      /* "devlink" or "sysfs" */
	char serial[128], board_serial[128];
	const char *board_serial_source;   /* "devlink" or "vpd" */
	bool stored_query_failed;     /* devlink stored = 255.255.65535 */
	bool reset_pending;           /* a stored image differs from the running one */

	int devlink_err;              /* 0, or -errno of the devlink query */
	char devlink_errmsg[256];
	struct mlx_devlink_info devlink;

	bool has_vpd;
	int vpd_err;                  /* 0, -ENOENT (no vpd file), -EACCES, -EBADMSG */
	char vpd_errmsg[160];
	struct mlx_vpd vpd;
};

int mlx_fw_query(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *out);
/* The same without the VPD (a slow config-space read): the versions, PSID,
 * serials from devlink and sysfs, and reset_pending; what a periodic
 * reader (the Prometheus gauge) needs. */
int mlx_fw_versions(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *out);

/* AER counters from sysfs aer_dev_correctable/nonfatal/fatal: the
 * TOTAL_ERR_* line of each (drivers/pci/pcie/aer.c). -1 when absent. */
struct mlx_aer_counts {
	int64_t correctable, nonfatal, fatal;
};
int mlx_aer_read(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_aer_counts *out);

#endif
