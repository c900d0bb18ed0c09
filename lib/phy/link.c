/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link settings, FEC and pause through ethtool netlink (KERNEL
 * net/ethtool/linkmodes.c, fec.c, pause.c, bitset.c).  Bitsets are asked
 * for in the verbose form (no ETHTOOL_FLAG_COMPACT_BITSETS), so the
 * kernel names each link mode and no string set is needed: one request per
 * message type.  FEC and pause carry ETHTOOL_FLAG_STATS.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>

#include "mlx-private.h"
#include "nl.h"
#include "phy.h"

int mlx_link_build(void *buf, size_t cap, uint8_t cmd, const char *ifname, bool stats)
{
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_ethtool_req_start(&b, cmd, 0, ifname, stats ? ETHTOOL_FLAG_STATS : 0);
	return mlx_nlb_finish(&b);
}

int64_t mlx_link_mode_speed(const char *name)
{
	char *end;
	long long v = strtoll(name, &end, 10);

	return end != name && !strncmp(end, "base", 4) && v > 0 ? v : 0;
}

/* A verbose bitset: each listed bit into @all, those with VALUE into @set
 * (with NOMASK every listed bit is set). */
static int bitset(const uint8_t *buf, size_t len, struct mlx_link_modes *all, struct mlx_link_modes *set)
{
	size_t off = 0;
	struct mlx_nla a;
	int r;

	while ((r = mlx_nla_next(buf, len, &off, &a)) == 1) {
		size_t o2 = 0;
		struct mlx_nla bit;

		if (a.type != ETHTOOL_A_BITSET_BITS)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &o2, &bit)) == 1) {
			size_t o3 = 0;
			struct mlx_nla f;
			char name[MLX_LINK_MODE_LEN] = "";
			bool value = false;

			if (bit.type != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			while ((r = mlx_nla_next(bit.data, bit.len, &o3, &f)) == 1) {
				if (f.type == ETHTOOL_A_BITSET_BIT_NAME)
					mlx_nla_str(&f, name, sizeof(name));
				else if (f.type == ETHTOOL_A_BITSET_BIT_VALUE)
					value = true;
			}
			if (r < 0)
				return r;
			if (!name[0])
				continue;
			if (all && all->n < MLX_LINK_MAX_MODES)
				memcpy(all->name[all->n++], name, sizeof(name));
			if (set && (value || !all) && set->n < MLX_LINK_MAX_MODES)
				memcpy(set->name[set->n++], name, sizeof(name));
		}
		if (r < 0)
			return r;
	}
	return r;
}

/* A u64 array attribute: [0] total, then per lane. */
static void u64_array(const struct mlx_nla *a, int64_t *total, int64_t *lanes, size_t *nlanes)
{
	size_t n = a->len / 8;

	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		memcpy(&v, a->data + 8 * i, 8);
		if (i == 0)
			*total = (int64_t)v;
		else if (i - 1 < MLX_FEC_MAX_LANES)
			lanes[i - 1] = (int64_t)v;
	}
	if (n > 1)
		*nlanes = n - 1 < MLX_FEC_MAX_LANES ? n - 1 : MLX_FEC_MAX_LANES;
}

static const char *fec_bit_name(uint32_t bit)
{
	switch (bit) {
	case ETHTOOL_LINK_MODE_FEC_NONE_BIT: return "none";
	case ETHTOOL_LINK_MODE_FEC_RS_BIT: return "rs";
	case ETHTOOL_LINK_MODE_FEC_BASER_BIT: return "baser";
	case ETHTOOL_LINK_MODE_FEC_LLRS_BIT: return "llrs";
	default: return NULL;
	}
}

int mlx_link_decode(const struct nlmsghdr *h, size_t len, struct mlx_link *out)
{
	const struct genlmsghdr *g;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	r = mlx_nlmsg_attrs(h, len, GENL_HDRLEN, &attrs, &alen);
	if (r < 0)
		return r;
	g = (const struct genlmsghdr *)((const uint8_t *)h + NLMSG_HDRLEN);
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		uint8_t u8;
		uint32_t u32;

		switch (g->cmd) {
		case ETHTOOL_MSG_LINKMODES_GET_REPLY:
			if (a.type == ETHTOOL_A_LINKMODES_AUTONEG && mlx_nla_u8(&a, &u8) == 0)
				out->autoneg = u8 == AUTONEG_ENABLE;
			else if (a.type == ETHTOOL_A_LINKMODES_SPEED && mlx_nla_u32(&a, &u32) == 0)
				out->speed_mbps = u32 == (uint32_t)SPEED_UNKNOWN ? -1 : (int64_t)u32;
			else if (a.type == ETHTOOL_A_LINKMODES_DUPLEX && mlx_nla_u8(&a, &u8) == 0)
				out->duplex = u8 == DUPLEX_FULL ? 1 : u8 == DUPLEX_HALF ? 0 : -1;
			else if (a.type == ETHTOOL_A_LINKMODES_LANES && mlx_nla_u32(&a, &u32) == 0)
				out->lanes = u32;
			else if (a.type == ETHTOOL_A_LINKMODES_OURS)
				r = bitset(a.data, a.len, &out->supported, &out->advertised);
			else if (a.type == ETHTOOL_A_LINKMODES_PEER)
				r = bitset(a.data, a.len, NULL, &out->partner);
			break;
		case ETHTOOL_MSG_FEC_GET_REPLY:
			if (a.type == ETHTOOL_A_FEC_AUTO && mlx_nla_u8(&a, &u8) == 0)
				out->fec_auto = u8 != 0;
			else if (a.type == ETHTOOL_A_FEC_ACTIVE && mlx_nla_u32(&a, &u32) == 0)
				out->fec_active = fec_bit_name(u32);
			else if (a.type == ETHTOOL_A_FEC_MODES)
				r = bitset(a.data, a.len, NULL, &out->fec_configured);
			else if (a.type == ETHTOOL_A_FEC_STATS) {
				size_t o2 = 0;
				struct mlx_nla s;

				out->fec_stats = true;
				while ((r = mlx_nla_next(a.data, a.len, &o2, &s)) == 1) {
					if (s.type == ETHTOOL_A_FEC_STAT_CORRECTED)
						u64_array(&s, &out->fec_corrected, out->fec_corrected_lane,
							  &out->fec_nlanes);
					else if (s.type == ETHTOOL_A_FEC_STAT_UNCORR)
						u64_array(&s, &out->fec_uncorrectable, out->fec_uncorrectable_lane,
							  &out->fec_nlanes);
				}
			}
			break;
		case ETHTOOL_MSG_PAUSE_GET_REPLY:
			if (a.type == ETHTOOL_A_PAUSE_AUTONEG && mlx_nla_u8(&a, &u8) == 0)
				out->pause_autoneg = u8 != 0;
			else if (a.type == ETHTOOL_A_PAUSE_RX && mlx_nla_u8(&a, &u8) == 0)
				out->pause_rx = u8 != 0;
			else if (a.type == ETHTOOL_A_PAUSE_TX && mlx_nla_u8(&a, &u8) == 0)
				out->pause_tx = u8 != 0;
			else if (a.type == ETHTOOL_A_PAUSE_STATS) {
				size_t o2 = 0;
				struct mlx_nla s;
				uint64_t v;

				while ((r = mlx_nla_next(a.data, a.len, &o2, &s)) == 1) {
					if (s.type == ETHTOOL_A_PAUSE_STAT_TX_FRAMES && mlx_nla_u64(&s, &v) == 0)
						out->pause_tx_frames = (int64_t)v;
					else if (s.type == ETHTOOL_A_PAUSE_STAT_RX_FRAMES && mlx_nla_u64(&s, &v) == 0)
						out->pause_rx_frames = (int64_t)v;
				}
			}
			break;
		default:
			return -EBADMSG;
		}
		if (r < 0)
			return r;
	}
	return r < 0 ? r : 0;
}

struct link_arg {
	struct mlx_link *out;
	int r;
	bool got;
};

static int link_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct link_arg *a = arg;

	a->got = true;
	a->r = mlx_link_decode(h, len, a->out);
	return 0;
}

static int query(struct mlx_ctx *ctx, const char *ifname, uint8_t cmd, const char *name, bool stats,
		 struct mlx_link *out)
{
	struct link_arg a = { out, 0, false };
	uint8_t req[128];
	int len, r;

	len = mlx_link_build(req, sizeof(req), cmd, ifname, stats);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ETHTOOL, ifname, name, req, (size_t)len, link_cb, &a);
	if (r < 0)
		return r;
	if (a.r < 0)
		return mlx_err(ctx, -a.r, "cannot decode the ethtool %s reply of '%s'", name, ifname);
	return a.got ? 0 : -ENODATA;
}

int mlx_link_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_link *out)
{
	memset(out, 0, sizeof(*out));
	out->autoneg = out->duplex = -1;
	out->speed_mbps = out->lanes = -1;
	out->fec_auto = -1;
	out->fec_corrected = out->fec_uncorrectable = -1;
	out->pause_autoneg = out->pause_rx = out->pause_tx = -1;
	out->pause_tx_frames = out->pause_rx_frames = -1;
	for (size_t i = 0; i < MLX_FEC_MAX_LANES; i++)
		out->fec_corrected_lane[i] = out->fec_uncorrectable_lane[i] = -1;
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	out->modes_err = query(ctx, ifname, ETHTOOL_MSG_LINKMODES_GET, "linkmodes-get", false, out);
	if (out->modes_err == -ENODEV)
		return mlx_err(ctx, ENODEV, "no network interface '%s'", ifname);
	out->fec_err = query(ctx, ifname, ETHTOOL_MSG_FEC_GET, "fec-get", true, out);
	out->pause_err = query(ctx, ifname, ETHTOOL_MSG_PAUSE_GET, "pause-get", true, out);
	mlx_err_clear(ctx);
	return 0;
}

int mlx_link_pause_get(struct mlx_ctx *ctx, const char *ifname, int *rx, int *tx)
{
	struct mlx_link *l = malloc(sizeof(*l));
	int r;

	*rx = *tx = -1;
	if (!l)
		return mlx_err(ctx, ENOMEM, "out of memory");
	memset(l, 0, sizeof(*l));
	l->pause_autoneg = l->pause_rx = l->pause_tx = -1;
	l->pause_tx_frames = l->pause_rx_frames = -1;
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		r = mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	else
		r = query(ctx, ifname, ETHTOOL_MSG_PAUSE_GET, "pause-get", false, l);
	if (r == 0) {
		*rx = l->pause_rx;
		*tx = l->pause_tx;
	}
	free(l);
	return r;
}
