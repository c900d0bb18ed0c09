/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RTNLGRP_DCB notifications -> qos_changed events (issue 16), pure: an
 * audit of QoS changes.  net/dcb/dcbnl.c sends one after every set that
 * reached the driver (dcbnl_ieee_set/_del: RTM_SETDCB with DCB_CMD_IEEE_SET
 * or DCB_CMD_IEEE_DEL; dcbnl_setall: DCB_CMD_SET_ALL) and drivers send
 * RTM_GETDCB DCB_CMD_IEEE_GET when the firmware or the DCBX peer changed
 * the settings (dcbnl_ieee_notify).  Each carries the port's whole state
 * (dcbnl_ieee_fill: DCB_ATTR_IFNAME, the DCB_ATTR_IEEE nest, DCB_ATTR_DCBX),
 * decoded here by lib's DCB decoder (lib/decode/decode-dcb.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>

#include "dcb.h"
#include "monitor.h"

static const char *cmd_name(uint16_t type, uint8_t cmd)
{
	if (type == RTM_SETDCB)
		return cmd == DCB_CMD_IEEE_SET ? "IEEE_SET" : cmd == DCB_CMD_IEEE_DEL ? "IEEE_DEL" :
		       cmd == DCB_CMD_SET_ALL ? "SET_ALL" : NULL;
	if (type == RTM_GETDCB)
		return cmd == DCB_CMD_IEEE_GET ? "IEEE_GET" : cmd == DCB_CMD_CEE_GET ? "CEE_GET" : NULL;
	return NULL;
}

/* "a,b,c" of @n bytes */
static size_t list_u8(char *buf, size_t len, const uint8_t *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? "," : "", v[i]);
	return k < len ? k : len - 1;
}

int mlx_dcb_notify_event(const struct nlmsghdr *h, size_t len, struct mlx_event *ev)
{
	struct mlx_dcb_state *st;
	const char *what;
	uint8_t cmd;
	size_t k = 0, cap = sizeof(ev->text);
	int r;

	if (len < sizeof(*h) || (h->nlmsg_type != RTM_SETDCB && h->nlmsg_type != RTM_GETDCB))
		return 0;
	if (mlx_dcb_msg_cmd(h, len, &cmd) < 0)
		return -EBADMSG;
	what = cmd_name(h->nlmsg_type, cmd);
	if (!what)
		return 0;       /* a reply to someone's GET, or another set's ack */
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	r = mlx_dcb_parse(h, len, st);
	if (r < 0 || !st->ifname[0]) {
		free(st);
		return -EBADMSG;
	}
	memset(ev, 0, sizeof(*ev));
	ev->kind = MLX_EV_QOS_CHANGED;
	ev->severity = mlx_ev_kind_info(MLX_EV_QOS_CHANGED)->severity;
	ev->source = MLX_EVS_RTNL;
	snprintf(ev->netdev, sizeof(ev->netdev), "%s", st->ifname);
	snprintf(ev->detail, sizeof(ev->detail), "%s", what);
	k += (size_t)snprintf(ev->text, cap, "%s %s:", what, st->ifname);
	if (st->has_pfc && k < cap)
		k += (size_t)snprintf(ev->text + k, cap - k, " pfc_enabled=0x%02x", st->pfc.pfc_en);
	if (st->has_ets && k < cap) {
		k += (size_t)snprintf(ev->text + k, cap - k, " ets prio_tc=");
		if (k < cap)
			k += list_u8(ev->text + k, cap - k, st->ets.prio_tc, MLX_DCB_NPRIO);
		if (k < cap)
			k += (size_t)snprintf(ev->text + k, cap - k, " tc_bw=");
		if (k < cap)
			k += list_u8(ev->text + k, cap - k, st->ets.tc_tx_bw, MLX_DCB_NTC);
		if (k < cap)
			k += (size_t)snprintf(ev->text + k, cap - k, " tc_tsa=");
		if (k < cap)
			k += list_u8(ev->text + k, cap - k, st->ets.tc_tsa, MLX_DCB_NTC);
	}
	if (k < cap)
		k += (size_t)snprintf(ev->text + k, cap - k, " app_entries=%zu", st->napp);
	if (st->has_dcbx && k < cap)
		snprintf(ev->text + k, cap - k, " dcbx=0x%02x", st->dcbx);
	free(st);
	return 1;
}
