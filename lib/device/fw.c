/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Firmware identity with fallbacks, VPD, AER counters (lib/fw.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "mlx-private.h"

#define FN_DIR "/sys/bus/pci/devices/%s"
#define VPD_MAX 32768    /* PCI_VPD_MAX_SIZE: the 15-bit VPD address space */

static void copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

static void read_vpd(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *o)
{
	char path[PATH_MAX];
	uint8_t *buf;
	ssize_t n;

	snprintf(path, sizeof(path), FN_DIR "/vpd", fn->bdf);
	buf = malloc(VPD_MAX);
	if (!buf) {
		o->vpd_err = -ENOMEM;
		return;
	}
	n = mlx_read_bin(ctx, path, buf, VPD_MAX);
	if (n < 0) {
		o->vpd_err = (int)n;
		snprintf(o->vpd_errmsg, sizeof(o->vpd_errmsg), "cannot read '%s': %s", path,
			 strerror((int)-n));
	} else if (n == 0) {
		o->vpd_err = -ENODATA;
		snprintf(o->vpd_errmsg, sizeof(o->vpd_errmsg), "'%s' is empty", path);
	} else {
		o->vpd_err = mlx_vpd_decode(buf, (size_t)n, &o->vpd, o->vpd_errmsg,
					    sizeof(o->vpd_errmsg));
		/* A bad checksum still leaves the fields: show them, flagged. */
		o->has_vpd = o->vpd_err == 0 || o->vpd.n > 0;
	}
	free(buf);
}

int mlx_fw_versions(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *o)
{
	const struct mlx_devlink_info *d = &o->devlink;
	const char *v;
	int r;

	memset(o, 0, sizeof(*o));
	mlx_err_clear(ctx);
	/* mlx5 answers dev info on PFs only (REF §5.1): do not ask for VFs. */
	if (fn->role == MLX_FN_PF) {
		r = mlx_devlink_info_get(ctx, fn, &o->devlink);
		o->devlink_err = r;
		if (r < 0)
			snprintf(o->devlink_errmsg, sizeof(o->devlink_errmsg), "%s",
				 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-r));
	} else {
		o->devlink_err = -EOPNOTSUPP;
		snprintf(o->devlink_errmsg, sizeof(o->devlink_errmsg),
			 "devlink dev info is answered by the PF only");
	}
	if (o->devlink_err == 0) {
		v = mlx_devlink_version(d->running, d->nrunning, "fw.version");
		if (!v)
			v = mlx_devlink_version(d->running, d->nrunning, "fw");
		if (v) {
			copy(o->running, sizeof(o->running), v);
			o->running_source = "devlink";
		}
		v = mlx_devlink_version(d->stored, d->nstored, "fw.version");
		if (!v)
			v = mlx_devlink_version(d->stored, d->nstored, "fw");
		if (v) {
			copy(o->stored, sizeof(o->stored), v);
			o->stored_source = "devlink";
		}
		v = mlx_devlink_version(d->fixed, d->nfixed, "fw.psid");
		if (v) {
			copy(o->psid, sizeof(o->psid), v);
			o->psid_source = "devlink";
		}
		copy(o->serial, sizeof(o->serial), d->serial);
		if (d->board_serial[0]) {
			copy(o->board_serial, sizeof(o->board_serial), d->board_serial);
			o->board_serial_source = "devlink";
		}
	}
	/* Fallbacks: the device model already read sysfs fw_ver, else ethtool. */
	if (!o->running[0] && fn->fw_version[0]) {
		copy(o->running, sizeof(o->running), fn->fw_version);
		o->running_source = !strcmp(fn->fw_source, "ethtool") ? "ethtool" : "sysfs";
	}
	for (size_t i = 0; i < fn->nrdma; i++)
		if (fn->rdma[i].board_id[0]) {
			copy(o->board_id, sizeof(o->board_id), fn->rdma[i].board_id);
			break;
		}
	if (!o->psid[0] && o->board_id[0]) {
		copy(o->psid, sizeof(o->psid), o->board_id);
		o->psid_source = "sysfs";
	}
	if (o->stored[0] && !strcmp(o->stored, MLX_FW_QUERY_FAILED))
		o->stored_query_failed = true;
	else if (o->stored[0] && o->running[0] && strcmp(o->stored, o->running))
		o->reset_pending = true;
	mlx_err_clear(ctx);
	return 0;
}

int mlx_fw_query(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *o)
{
	const char *v;

	mlx_fw_versions(ctx, fn, o);
	read_vpd(ctx, fn, o);
	if (!o->board_serial[0] && o->has_vpd && (v = mlx_vpd_get(&o->vpd, "SN"))) {
		copy(o->board_serial, sizeof(o->board_serial), v);
		o->board_serial_source = "vpd";
	}
	mlx_err_clear(ctx);
	return 0;
}

static int64_t total(struct mlx_ctx *ctx, const char *bdf, const char *file, const char *key)
{
	char path[PATH_MAX], *data = NULL, *p;
	size_t len = 0, kl = strlen(key);
	int64_t v = -1;

	snprintf(path, sizeof(path), FN_DIR "/%s", bdf, file);
	if (mlx_read_file(ctx, path, &data, &len) < 0)
		return -1;
	for (p = data; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			v = strtoll(p + kl + 1, NULL, 10);
			break;
		}
	}
	free(data);
	return v;
}

int mlx_aer_read(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_aer_counts *out)
{
	out->correctable = total(ctx, fn->bdf, "aer_dev_correctable", "TOTAL_ERR_COR");
	out->nonfatal = total(ctx, fn->bdf, "aer_dev_nonfatal", "TOTAL_ERR_NONFATAL");
	out->fatal = total(ctx, fn->bdf, "aer_dev_fatal", "TOTAL_ERR_FATAL");
	return out->correctable < 0 && out->nonfatal < 0 && out->fatal < 0 ? -ENOENT : 0;
}
