/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ethtool netlink notifications (issue 16), pure: the audit trail of the
 * port settings.  net/ethtool/netlink.c: after a SET request that changed
 * something (ethtool -K, -A, -G, -L, -C, -s, --set-priv-flags, ...; also
 * when a driver changes a setting itself, netdev_features_change ->
 * ETHTOOL_MSG_FEATURES_NTF) ethnl_notify() -> ethnl_default_notify()
 * multicasts to the family's "monitor" group (ETHTOOL_MCGRP_MONITOR_NAME)
 * a message of type ETHTOOL_MSG_<X>_NTF that carries what the <X>_GET
 * reply carries: ETHTOOL_A_<X>_HEADER (attribute 1 in every message: the
 * device's ETHTOOL_A_HEADER_DEV_INDEX and DEV_NAME), then the settings,
 * bit sets in their compact form.  It is sent by the kernel (nlmsg_pid 0)
 * with nothing about the process or the tool that asked: who made the
 * change is not there, only what and when.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "monitor.h"
#include "nl.h"
#include "params.h"

static const struct {
	uint8_t cmd;
	enum mlx_ev_kind kind;
	const char *uapi, *what;
} ntf[] = {
	{ ETHTOOL_MSG_LINKINFO_NTF, MLX_EV_LINK_INFO_CHANGED, "ETHTOOL_MSG_LINKINFO_NTF", "link info" },
	{ ETHTOOL_MSG_LINKMODES_NTF, MLX_EV_LINK_MODES_CHANGED, "ETHTOOL_MSG_LINKMODES_NTF", "link modes" },
	{ ETHTOOL_MSG_DEBUG_NTF, MLX_EV_MSGLEVEL_CHANGED, "ETHTOOL_MSG_DEBUG_NTF", "message level" },
	{ ETHTOOL_MSG_WOL_NTF, MLX_EV_WOL_CHANGED, "ETHTOOL_MSG_WOL_NTF", "wake-on-LAN settings" },
	{ ETHTOOL_MSG_FEATURES_NTF, MLX_EV_FEATURES_CHANGED, "ETHTOOL_MSG_FEATURES_NTF", "features" },
	{ ETHTOOL_MSG_PRIVFLAGS_NTF, MLX_EV_PRIVFLAGS_CHANGED, "ETHTOOL_MSG_PRIVFLAGS_NTF", "private flags" },
	{ ETHTOOL_MSG_RINGS_NTF, MLX_EV_RINGS_CHANGED, "ETHTOOL_MSG_RINGS_NTF", "ring sizes" },
	{ ETHTOOL_MSG_CHANNELS_NTF, MLX_EV_CHANNELS_CHANGED, "ETHTOOL_MSG_CHANNELS_NTF", "channels" },
	{ ETHTOOL_MSG_COALESCE_NTF, MLX_EV_COALESCE_CHANGED, "ETHTOOL_MSG_COALESCE_NTF", "coalescing" },
	{ ETHTOOL_MSG_PAUSE_NTF, MLX_EV_PAUSE_CHANGED, "ETHTOOL_MSG_PAUSE_NTF", "pause settings" },
	{ ETHTOOL_MSG_EEE_NTF, MLX_EV_EEE_CHANGED, "ETHTOOL_MSG_EEE_NTF", "EEE settings" },
	{ ETHTOOL_MSG_FEC_NTF, MLX_EV_FEC_CHANGED, "ETHTOOL_MSG_FEC_NTF", "FEC settings" },
	{ ETHTOOL_MSG_MODULE_NTF, MLX_EV_MODULE_POWER_CHANGED, "ETHTOOL_MSG_MODULE_NTF",
	  "module power mode" },
};

/* the values a reader wants to see at once: (message, attribute, label) */
static const struct {
	uint8_t cmd;
	uint16_t type;
	bool u8;                    /* an on/off u8, else a u32 count */
	const char *label;
} shown[] = {
	{ ETHTOOL_MSG_PAUSE_NTF, ETHTOOL_A_PAUSE_AUTONEG, true, "autoneg" },
	{ ETHTOOL_MSG_PAUSE_NTF, ETHTOOL_A_PAUSE_RX, true, "rx" },
	{ ETHTOOL_MSG_PAUSE_NTF, ETHTOOL_A_PAUSE_TX, true, "tx" },
	{ ETHTOOL_MSG_RINGS_NTF, ETHTOOL_A_RINGS_RX, false, "rx" },
	{ ETHTOOL_MSG_RINGS_NTF, ETHTOOL_A_RINGS_RX_MINI, false, "rx-mini" },
	{ ETHTOOL_MSG_RINGS_NTF, ETHTOOL_A_RINGS_RX_JUMBO, false, "rx-jumbo" },
	{ ETHTOOL_MSG_RINGS_NTF, ETHTOOL_A_RINGS_TX, false, "tx" },
	{ ETHTOOL_MSG_CHANNELS_NTF, ETHTOOL_A_CHANNELS_RX_COUNT, false, "rx" },
	{ ETHTOOL_MSG_CHANNELS_NTF, ETHTOOL_A_CHANNELS_TX_COUNT, false, "tx" },
	{ ETHTOOL_MSG_CHANNELS_NTF, ETHTOOL_A_CHANNELS_OTHER_COUNT, false, "other" },
	{ ETHTOOL_MSG_CHANNELS_NTF, ETHTOOL_A_CHANNELS_COMBINED_COUNT, false, "combined" },
};

/* the ETHTOOL_A_HEADER_* nest: the device (the one header decoder) */
static int header(const struct mlx_nla *nest, struct mlx_event *ev)
{
	uint32_t ifindex = 0;

	if (mlx_ethtool_header_decode(nest, ev->netdev, sizeof(ev->netdev), &ifindex) < 0 ||
	    !ev->netdev[0])
		return -EBADMSG;
	if (ifindex)
		mlx_ev_set(ev, MLX_EVF_IFINDEX, ifindex);
	return 0;
}

/* ", label value" for each shown attribute @a is */
static void show(uint8_t cmd, const struct mlx_nla *a, char *buf, size_t cap, size_t *k)
{
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		uint8_t b;
		uint32_t v;

		if (shown[i].cmd != cmd || shown[i].type != a->type || *k >= cap)
			continue;
		if (shown[i].u8 && mlx_nla_u8(a, &b) == 0)
			*k += (size_t)snprintf(buf + *k, cap - *k, "%s %s %s", *k ? "," : ":", shown[i].label,
					       b ? "on" : "off");
		else if (!shown[i].u8 && mlx_nla_u32(a, &v) == 0)
			*k += (size_t)snprintf(buf + *k, cap - *k, "%s %s %u", *k ? "," : ":", shown[i].label, v);
	}
}

int mlx_ethtool_notify_event(const struct nlmsghdr *h, size_t len, struct mlx_event *ev)
{
	const struct genlmsghdr *g;
	const uint8_t *attrs;
	size_t alen, off = 0, k = 0, i;
	struct mlx_nla a;
	char values[160] = "";
	bool have_header = false;
	int r;

	memset(ev, 0, sizeof(*ev));
	if (len < sizeof(*h) || h->nlmsg_len > len ||
	    mlx_nlmsg_attrs(h, h->nlmsg_len, sizeof(*g), &attrs, &alen) < 0)
		return -EBADMSG;
	g = (const struct genlmsghdr *)(h + 1);
	for (i = 0; i < sizeof(ntf) / sizeof(ntf[0]) && ntf[i].cmd != g->cmd; i++)
		;
	if (i == sizeof(ntf) / sizeof(ntf[0]))
		return 0;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == 1) {              /* ETHTOOL_A_<X>_HEADER */
			if (header(&a, ev) < 0)
				return -EBADMSG;
			have_header = true;
		} else {
			show(g->cmd, &a, values, sizeof(values), &k);
		}
	}
	if (r < 0 || !have_header)
		return -EBADMSG;
	ev->source = MLX_EVS_ETHTOOL;
	ev->kind = ntf[i].kind;
	ev->severity = mlx_ev_kind_info(ev->kind)->severity;
	snprintf(ev->detail, sizeof(ev->detail), "%s", ntf[i].uapi);
	snprintf(ev->text, sizeof(ev->text), "%s: %s changed%s", ev->netdev, ntf[i].what, values);
	return 1;
}
