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
 *
 * RSS the same way (issue 27): before 6.4 the kernel has no
 * ETHTOOL_MSG_RSS_GET and reads a port's RSS only by ETHTOOL_GRSSH (the
 * struct ethtool_rxfh, then the indirection table and key; recorded whole
 * as "grssh": a first call that asks for the sizes alone is answered from
 * it) and the hash fields of each flow type by ETHTOOL_GRXFH ("grxfh-<flow
 * type number>": cmd, flow_type and data, the part of struct ethtool_rxnfc
 * the kernel fills for GRXFH, net/ethtool/ioctl.c ethtool_get_rxnfc).
 *
 * Tunables the same way (issue 27): ETHTOOL_GTUNABLE of a u16 tunable,
 * "gtunable-<id>": the struct ethtool_tunable header and the value after
 * it, as net/ethtool/ioctl.c ethtool_get_tunable fills them; a write
 * (STUNABLE) on a captured system is an emulator's (lib/emul/tunable-emul.c).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <linux/ethtool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "counters.h"
#include "mlx-private.h"
#include "nl.h"
#include "params.h"
#include "snapshot.h"

static const struct {
	uint32_t cmd;
	const char *name;
} recorded[] = {
	{ ETHTOOL_GMODULEINFO, "gmoduleinfo" },
	{ ETHTOOL_GMODULEEEPROM, "gmoduleeeprom" },
	{ ETHTOOL_GRSSH, "grssh" },
	{ ETHTOOL_GRXFH, "grxfh" },
	{ ETHTOOL_GTUNABLE, "gtunable" },
};

/* The bytes of struct ethtool_rxnfc the kernel fills for GRXFH. */
#define RXFH_LEN (offsetof(struct ethtool_rxnfc, data) + sizeof(uint64_t))
/* The most an RSS reply may hold (indirection entries and key bytes). */
#define RXFH_MAX_CONFIG (1u << 20)

/* The file name of @data's command ("grxfh-1" for the flow type); NULL
 * when it is not recorded. */
static const char *cmd_name(const void *data, char *buf, size_t len)
{
	uint32_t cmd;

	memcpy(&cmd, data, sizeof(cmd));
	for (size_t i = 0; i < sizeof(recorded) / sizeof(recorded[0]); i++) {
		if (recorded[i].cmd != cmd)
			continue;
		if (cmd == ETHTOOL_GRXFH) {
			const struct ethtool_rxnfc *nfc = data;

			snprintf(buf, len, "grxfh-%u", nfc->flow_type & 0xff);
			return buf;
		}
		if (cmd == ETHTOOL_GTUNABLE) {
			const struct mlx_tunable_u16 *t = data;

			/* only the u16 tunables mlxcli reads (the PFC timeout) */
			if (!mlx_tunable_u16_valid(t, t->id))
				return NULL;
			snprintf(buf, len, "gtunable-%u", t->id);
			return buf;
		}
		return recorded[i].name;
	}
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
	if (cmd == ETHTOOL_GRSSH) {
		const struct ethtool_rxfh *rx = data;

		/* the sizes alone (a first call) or the whole configuration */
		*n = sizeof(*rx) + ((size_t)rx->indir_size * 4 + rx->key_size <= RXFH_MAX_CONFIG ?
				    (size_t)rx->indir_size * 4 + rx->key_size : 0);
		return;
	}
	if (cmd == ETHTOOL_GTUNABLE) {
		*n = offsetof(struct mlx_tunable_u16, data) + sizeof(uint16_t);
		return;
	}
	*n = cmd == ETHTOOL_GRXFH ? RXFH_LEN : sizeof(struct ethtool_modinfo);
}

int mlx_ethtool_ioctl_record(struct mlx_ctx *ctx, const char *ifname, const void *data, int result)
{
	char nbuf[32];
	const char *name = cmd_name(data, nbuf, sizeof(nbuf));
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
	char nbuf[32];
	const char *name = cmd_name(data, nbuf, sizeof(nbuf));
	char rel[160], *text = NULL;
	size_t len = 0;
	int32_t err;
	uint32_t cmd;
	int r;

	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GSTATS)
		return mlx_name_is_safe(ifname) ? replay_gstats(ctx, ifname, data) : -EINVAL;
	if (cmd == ETHTOOL_GTUNABLE && name) {
		struct mlx_tunable_u16 *t = data;
		int e = 0;

		r = rel_path(rel, sizeof(rel), ifname, name);
		if (r == 0)
			r = mlx_read_file(ctx, rel, &text, &len);
		if (r < 0)
			return r == -ENOENT ? -ENODATA : r;
		/* the recording must be the tunable asked for, of its type */
		r = mlx_tunable_rec_decode((const uint8_t *)text, len, t->id, &e, &t->data);
		free(text);
		return r < 0 ? r : e;
	}
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
	} else if (cmd == ETHTOOL_GRSSH) {
		struct ethtool_rxfh *rx = data, rec;
		size_t body = len - sizeof(err), cfg;

		if (body < sizeof(rec))
			goto out;
		memcpy(&rec, text + sizeof(err), sizeof(rec));
		cfg = (size_t)rec.indir_size * 4 + rec.key_size;
		if (rec.indir_size > RXFH_MAX_CONFIG / 4 || rec.key_size > RXFH_MAX_CONFIG ||
		    body != sizeof(rec) + cfg)
			goto out;
		if (rx->indir_size || rx->key_size) {
			/* the kernel's rule: the sizes it reported, or an error */
			if (rx->indir_size != rec.indir_size || rx->key_size != rec.key_size) {
				r = -EINVAL;
				goto out;
			}
			memcpy(rx->rss_config, text + sizeof(err) + sizeof(rec), cfg);
		}
		rx->indir_size = rec.indir_size;
		rx->key_size = rec.key_size;
		rx->hfunc = rec.hfunc;
	} else if (cmd == ETHTOOL_GRXFH) {
		struct ethtool_rxnfc *nfc = data;

		if (len - sizeof(err) != RXFH_LEN)
			goto out;
		memcpy(&nfc->data, text + sizeof(err) + offsetof(struct ethtool_rxnfc, data),
		       sizeof(nfc->data));
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
