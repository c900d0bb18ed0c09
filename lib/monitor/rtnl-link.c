/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link events from rtnetlink (issue 16), pure: an RTM_NEWLINK/RTM_DELLINK
 * message of group RTNLGRP_LINK against what was last seen of the
 * interface.  The kernel sends one on every flags change (dev_close,
 * dev_open: __dev_notify_flags) and on every operstate change
 * (net/core/link_watch.c, via netdev_state_change); IFLA_CARRIER is
 * netif_carrier_ok() at the time of the message and IFLA_CARRIER_CHANGES
 * counts every up and down (carrier_up_count + carrier_down_count,
 * net/core/rtnetlink.c: rtnl_fill_ifinfo), so a flap that two messages hid
 * still shows as a jump in the count.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "monitor.h"
#include "nl.h"

static struct mlx_link_state *slot(struct mlx_link_state *st, size_t nst, int ifindex)
{
	struct mlx_link_state *free_slot = NULL;

	for (size_t i = 0; i < nst; i++) {
		if (st[i].ifindex == ifindex)
			return &st[i];
		if (!free_slot && st[i].ifindex == 0)
			free_slot = &st[i];
	}
	if (!free_slot) {
		/* full: forget the first (an interface seen again is only
		 * recorded, never reported wrongly) */
		memmove(st, st + 1, (nst - 1) * sizeof(*st));
		free_slot = &st[nst - 1];
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->ifindex = ifindex;
	return free_slot;
}

static void link_event(struct mlx_event *ev, enum mlx_ev_kind k, const struct mlx_link_state *s)
{
	memset(ev, 0, sizeof(*ev));
	ev->source = MLX_EVS_RTNL;
	ev->kind = k;
	ev->severity = mlx_ev_kind_info(k)->severity;
	snprintf(ev->netdev, sizeof(ev->netdev), "%s", s->name);
	mlx_ev_set(ev, MLX_EVF_IFINDEX, (uint64_t)s->ifindex);
	mlx_ev_set(ev, MLX_EVF_CARRIER_CHANGES, s->carrier_changes);
	snprintf(ev->text, sizeof(ev->text), "%s: %s", s->name, mlx_ev_kind_info(k)->id);
}

int mlx_rtnl_link_events(const struct nlmsghdr *h, size_t len, struct mlx_link_state *st,
			 size_t nst, struct mlx_event *ev, size_t max)
{
	const struct ifinfomsg *ifi;
	const uint8_t *attrs;
	size_t alen, off = 0, k = 0;
	struct mlx_nla a;
	struct mlx_link_state now, *s;
	bool have_carrier = false, have_changes = false;
	uint8_t u8;
	uint32_t u32;
	int r;

	if (nst == 0 || len < sizeof(*h) || h->nlmsg_len > len)
		return -EBADMSG;
	if (h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK)
		return 0;
	if (mlx_nlmsg_attrs(h, h->nlmsg_len, sizeof(*ifi), &attrs, &alen) < 0)
		return -EBADMSG;
	ifi = (const struct ifinfomsg *)(h + 1);
	if (ifi->ifi_index <= 0)
		return -EBADMSG;
	memset(&now, 0, sizeof(now));
	now.ifindex = ifi->ifi_index;
	now.admin_up = ifi->ifi_flags & IFF_UP;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case IFLA_IFNAME:
			mlx_nla_str(&a, now.name, sizeof(now.name));
			break;
		case IFLA_CARRIER:
			if (mlx_nla_u8(&a, &u8) < 0)
				return -EBADMSG;
			now.carrier = u8;
			have_carrier = true;
			break;
		case IFLA_CARRIER_CHANGES:
			if (mlx_nla_u32(&a, &u32) < 0)
				return -EBADMSG;
			now.carrier_changes = u32;
			have_changes = true;
			break;
		}
	}
	if (r < 0)
		return -EBADMSG;
	if (!have_carrier)           /* kernels before 3.x: IFF_LOWER_UP */
		now.carrier = ifi->ifi_flags & IFF_LOWER_UP;
	s = slot(st, nst, ifi->ifi_index);
	if (h->nlmsg_type == RTM_DELLINK) {
		memset(s, 0, sizeof(*s));
		return 0;
	}
	if (!now.name[0])
		snprintf(now.name, sizeof(now.name), "%s", s->name);
	if (!have_changes)
		now.carrier_changes = s->carrier_changes;
	now.known = true;
	if (s->known) {
		uint32_t seen = now.carrier_changes - s->carrier_changes;
		bool carrier_moved = now.carrier != s->carrier;

		if (now.admin_up != s->admin_up && k < max)
			link_event(&ev[k++], now.admin_up ? MLX_EV_ADMIN_UP : MLX_EV_ADMIN_DOWN, &now);
		if (carrier_moved && k < max)
			link_event(&ev[k++], now.carrier ? MLX_EV_CARRIER_UP : MLX_EV_CARRIER_DOWN, &now);
		/* each change counts one; two more than we saw is a down and
		 * up (or up and down) that happened between the messages */
		if (have_changes && seen >= (carrier_moved ? 3u : 2u) && seen < (1u << 31) && k < max)
			link_event(&ev[k++], MLX_EV_CARRIER_FLAPPED, &now);
	}
	*s = now;
	return (int)k;
}
