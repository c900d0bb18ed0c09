/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two knobs outside ethtool netlink (issue 27, lib/params.h):
 *  - the PFC storm prevention timeout, an ethtool tunable
 *    (ETHTOOL_PFC_PREVENTION_TOUT, include/uapi/linux/ethtool.h), which
 *    only the SIOCETHTOOL ioctl reads and writes (ETHTOOL_GTUNABLE and
 *    ETHTOOL_STUNABLE; ethtool netlink has no tunable message, and
 *    `ethtool --get-tunable` uses the ioctl too);
 *  - threaded NAPI, /sys/class/net/IF/threaded (net/core/net-sysfs.c
 *    threaded_show/threaded_store, Linux 5.12): 0 or 1, -EOPNOTSUPP on a
 *    write while the device has no NAPI instance (modify_napi_threaded:
 *    a veth without GRO or XDP, an mlx5 port that is down: mlx5 adds its
 *    channels' NAPIs when the port opens).
 * The parsers and validators are pure; the reads and writes go through
 * the kernel boundary, so a capture answers a GTUNABLE from its recording
 * (lib/backend/ethtool-record.c) and an emulator takes the writes
 * (lib/emul/tunable-emul.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <net/if.h>

#include "mlx-private.h"
#include "params.h"

int mlx_pfc_tout_parse(const char *s, uint16_t *ms)
{
	char *end;
	unsigned long long u;

	if (!strcmp(s, "auto")) {
		*ms = MLX_PFC_TOUT_AUTO;
		return 0;
	}
	if (!strcmp(s, "off") || !strcmp(s, "disabled")) {
		*ms = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	u = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno || u > 0xffff)
		return -ERANGE;
	*ms = (uint16_t)u;
	return 0;
}

int mlx_pfc_tout_mlx5_check(uint16_t ms)
{
	/* en_ethtool.c mlx5e_set_pfc_prevention_tout: auto becomes 100 ms,
	 * anything else but 0 must lie in 80..8000 (else -EINVAL) */
	if (ms == MLX_PFC_TOUT_AUTO || ms == 0 ||
	    (ms >= MLX_PFC_TOUT_MLX5_MIN && ms <= MLX_PFC_TOUT_MLX5_MAX))
		return 0;
	return -ERANGE;
}

uint16_t mlx_pfc_tout_mlx5_effective(uint16_t ms)
{
	return ms == MLX_PFC_TOUT_AUTO ? MLX_PFC_TOUT_MLX5_AUTO_MS : ms;
}

bool mlx_tunable_u16_valid(const struct mlx_tunable_u16 *t, uint32_t id)
{
	/* net/ethtool/ioctl.c ethtool_tunable_valid: the PFC timeout is a
	 * u16 of 2 bytes; the other known ones (copybreaks) u32 */
	return t->id == id && id == ETHTOOL_PFC_PREVENTION_TOUT &&
	       t->type_id == ETHTOOL_TUNABLE_U16 && t->len == sizeof(uint16_t);
}

int mlx_tunable_rec_decode(const uint8_t *p, size_t len, uint32_t id, int *err, uint16_t *val)
{
	struct mlx_tunable_u16 t;
	int32_t e;

	if (len < sizeof(e))
		return -EBADMSG;
	memcpy(&e, p, sizeof(e));
	if (e) {
		/* an error is its errno alone (lib/backend/ethtool-record.c) */
		if (len != sizeof(e) || e < 0 || e >= 4096)
			return -EBADMSG;
		*err = -e;
		return 0;
	}
	if (len != MLX_TUNABLE_REC_LEN)
		return -EBADMSG;
	memset(&t, 0, sizeof(t));
	memcpy(&t, p + sizeof(e), len - sizeof(e));
	if (!mlx_tunable_u16_valid(&t, id))
		return -EBADMSG;
	*err = 0;
	*val = t.data;
	return 0;
}

int mlx_ethtool_tunable_get_u16(struct mlx_ctx *ctx, const char *ifname, uint32_t id,
				uint16_t *val)
{
	struct mlx_tunable_u16 t = { .cmd = ETHTOOL_GTUNABLE, .id = id,
				     .type_id = ETHTOOL_TUNABLE_U16, .len = sizeof(uint16_t) };
	int r;

	if (!ifname || strlen(ifname) >= IFNAMSIZ || !mlx_name_is_safe(ifname))
		return -EINVAL;
	r = mlx_kernel_ethtool(ctx, ifname, &t);
	if (r < 0)
		return r;
	*val = t.data;
	return 0;
}

int mlx_ethtool_tunable_set_u16(struct mlx_ctx *ctx, const char *ifname, uint32_t id,
				uint16_t val)
{
	struct mlx_tunable_u16 t = { .cmd = ETHTOOL_STUNABLE, .id = id,
				     .type_id = ETHTOOL_TUNABLE_U16, .len = sizeof(uint16_t),
				     .data = val };

	if (!ifname || strlen(ifname) >= IFNAMSIZ || !mlx_name_is_safe(ifname))
		return -EINVAL;
	return mlx_kernel_ethtool(ctx, ifname, &t);
}

int mlx_threaded_parse(const char *text, char *out, size_t len)
{
	size_t n = strspn(text, "0123456789");
	const char *rest = text + n;

	/* the kernel's "%d\n" (fmt_dec), the newline possibly stripped */
	if (!n || n > 10 || (*rest && strcmp(rest, "\n")))
		return -EBADMSG;
	if (n == 1 && (text[0] == '0' || text[0] == '1'))
		snprintf(out, len, "%s", text[0] == '1' ? "on" : "off");
	else
		snprintf(out, len, "%.*s", (int)n, text);
	return 0;
}

int mlx_threaded_path(char *buf, size_t len, const char *ifname)
{
	if (!ifname || !*ifname || !mlx_name_is_safe(ifname))
		return -EINVAL;
	return snprintf(buf, len, "/sys/class/net/%s/threaded", ifname) >= (int)len ? -ENAMETOOLONG
										     : 0;
}
