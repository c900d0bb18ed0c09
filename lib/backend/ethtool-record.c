/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SIOCETHTOOL replies in a capture.
 *
 * What mlxcli asks over ethtool netlink is recorded as the kernel's reply
 * (lib/backend/nl.c).  A kernel before 5.13 has no MODULE_EEPROM_GET and
 * reads a transceiver's EEPROM only by ioctl (ETHTOOL_GMODULEINFO, then
 * ETHTOOL_GMODULEEEPROM; RHEL 8's 4.18 and Debian 11's 5.10 are such
 * kernels), so a snapshot taken there held no module.  While a snapshot
 * records, the ioctls listed here are recorded too, as
 * netlink/ethtool/<if>/ioctl-<name>.bin:
 *
 *   int32  the result: 0, or the positive errno the kernel answered
 *   ...    on success, the reply: the struct as the kernel filled it; for
 *          GMODULEEEPROM the EEPROM bytes from offset 0
 *
 * and a captured system answers those ioctls from the files, through the
 * same callers (lib/core/boundary-captured.c).  A failure is recorded as
 * one (an empty cage's -EIO is a fact about the port, not a gap).
 *
 * ETHTOOL_GSTATS, which every snapshot records (the values of `ethtool
 * -S`, as netlink/ethtool/<if>/stats-values.nl in the layout of
 * lib/backend/ethtool-stats.c), is answered from that file.
 */
#include "config.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "counters.h"
#include "mlx-private.h"
#include "nl.h"
#include "snapshot.h"

static const struct {
	uint32_t cmd;
	const char *name;
} recorded[] = {
	{ ETHTOOL_GMODULEINFO, "gmoduleinfo" },
	{ ETHTOOL_GMODULEEEPROM, "gmoduleeeprom" },
};

static const char *cmd_name(const void *data)
{
	uint32_t cmd;

	memcpy(&cmd, data, sizeof(cmd));
	for (size_t i = 0; i < sizeof(recorded) / sizeof(recorded[0]); i++)
		if (recorded[i].cmd == cmd)
			return recorded[i].name;
	return NULL;
}

static int rel_path(char *buf, size_t len, const char *ifname, const char *name)
{
	if (!mlx_name_is_safe(ifname))
		return -EINVAL;
	return snprintf(buf, len, "/netlink/ethtool/%s/ioctl-%s.bin", ifname, name) >= (int)len ?
		       -ENAMETOOLONG : 0;
}

/* The reply bytes of a successful @data: where they start and how many. */
static void reply_span(const void *data, const uint8_t **p, size_t *n)
{
	uint32_t cmd;

	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GMODULEEEPROM) {
		const struct ethtool_eeprom *ee = data;

		*p = ee->data;
		*n = ee->offset == 0 ? ee->len : 0;
		return;
	}
	*p = data;
	*n = sizeof(struct ethtool_modinfo);
}

int mlx_ethtool_ioctl_record(struct mlx_ctx *ctx, const char *ifname, const void *data, int result)
{
	const char *name = cmd_name(data);
	int32_t err = result < 0 ? -result : 0;
	struct iovec iov[2] = { { &err, sizeof(err) }, { NULL, 0 } };
	const uint8_t *p = NULL;
	char rel[160];

	if (!name || rel_path(rel, sizeof(rel), ifname, name) < 0)
		return 0;
	if (result == 0) {
		reply_span(data, &p, &iov[1].iov_len);
		iov[1].iov_base = (void *)p;
	}
	return mlx_nl_record_file(ctx, rel, iov, 2);
}

/* GSTATS from the recorded values: as many as the caller has room for
 * (n_stats in), n_stats out the number recorded; more than the room is a
 * recording that does not match the names (-EBADMSG, as the decoder says). */
static int replay_gstats(struct mlx_ctx *ctx, const char *ifname, struct ethtool_stats *st)
{
	char rel[512], *text = NULL;
	size_t len = 0, n = st->n_stats;
	int r;

	if (mlx_netlink_capture_path(rel, sizeof(rel), "ethtool", ifname, "stats-values") < 0)
		return -EINVAL;
	r = mlx_read_file(ctx, rel, &text, &len);      /* sets no message */
	if (r < 0)
		return r == -ENOENT || r == -ENOTDIR ? -ENODATA : r;
	r = mlx_decode_stats_msg((const uint8_t *)text, len, (uint64_t *)st->data, &n);
	if (r == 0)
		st->n_stats = (uint32_t)n;
	free(text);
	return r;
}

int mlx_ethtool_ioctl_replay(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	const char *name = cmd_name(data);
	char rel[160], *text = NULL;
	size_t len = 0;
	int32_t err;
	uint32_t cmd;
	int r;

	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GSTATS)
		return mlx_name_is_safe(ifname) ? replay_gstats(ctx, ifname, data) : -EINVAL;
	if (!name)
		return -EOPNOTSUPP;     /* no kernel to ask, and nothing recorded */
	r = rel_path(rel, sizeof(rel), ifname, name);
	if (r < 0)
		return r;
	r = mlx_read_file(ctx, rel, &text, &len);      /* sets no message */
	if (r < 0)
		return r == -ENOENT ? -ENODATA : r;
	r = -EBADMSG;
	if (len < sizeof(err))
		goto out;
	memcpy(&err, text, sizeof(err));
	if (err) {
		r = err > 0 && err < 4096 ? -err : -EBADMSG;
		goto out;
	}
	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GMODULEEEPROM) {
		struct ethtool_eeprom *ee = data;

		/* the caller asks for what GMODULEINFO said, from offset 0 */
		if ((size_t)ee->offset + ee->len > len - sizeof(err)) {
			r = -EINVAL;
			goto out;
		}
		memcpy(ee->data, text + sizeof(err) + ee->offset, ee->len);
	} else {
		if (len - sizeof(err) != sizeof(struct ethtool_modinfo))
			goto out;
		memcpy(data, text + sizeof(err), sizeof(struct ethtool_modinfo));
	}
	r = 0;
out:
	free(text);
	return r;
}
