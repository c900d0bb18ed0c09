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
 *
 * The settings an operator cares about (issue 25 item 11) come in the same
 * message: IFLA_MTU, IFLA_ADDRESS, IFLA_MASTER (absent: no master); the VF
 * table (IFLA_NUM_VF, IFLA_VFINFO_LIST) only in a reply to a request with
 * RTEXT_FILTER_VF (rtnl_fill_vfinfo), which the source asks for when a
 * link with VFs changes (do_setlink's netdev_state_change on a VF write
 * sends a notification without them).  A VF's settings are compared by a
 * hash of what lib/decode/decode-rtnl-vf.c decodes (MAC, VLAN, QoS, rate,
 * spoofchk, trust, link state; not the statistics).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "monitor.h"
#include "nl.h"
#include "sriov.h"

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

/* An address as ip prints it: hex bytes joined by ':'. */
static void fmt_addr(char *buf, size_t len, const uint8_t *a, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && k + 4 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%02x", i ? ":" : "", a[i]);
}

static const char *name_of(const struct mlx_link_state *st, size_t nst, int ifindex)
{
	for (size_t i = 0; i < nst; i++)
		if (st[i].ifindex == ifindex && st[i].name[0])
			return st[i].name;
	return NULL;
}

/* FNV-1a of a VF's settings (what a user sets: ip link set DEV vf N ...). */
static uint32_t vf_hash(const struct mlx_vf_info *v)
{
	uint32_t h = 2166136261u;
	const uint32_t f[] = { v->has_mac, v->mac[0] | v->mac[1] << 8 | v->mac[2] << 16 | (uint32_t)v->mac[3] << 24,
			       (uint32_t)v->mac[4] | (uint32_t)v->mac[5] << 8, v->has_vlan, v->vlan, v->qos,
			       v->vlan_proto, v->has_rate, v->min_tx_rate, v->max_tx_rate, (uint32_t)v->spoofchk,
			       (uint32_t)v->trust, (uint32_t)v->link_state };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (int b = 0; b < 4; b++) {
			h ^= (f[i] >> (8 * b)) & 0xff;
			h *= 16777619u;
		}
	return h | 1;           /* 0: a VF not seen */
}

static void vf_text(char *buf, size_t len, const char *dev, const struct mlx_vf_info *v)
{
	char mac[24] = "?";

	if (v->has_mac)
		mlx_fmt_mac(v->mac, mac, sizeof(mac));
	snprintf(buf, len, "%s: VF %u: mac %s, vlan %u, qos %u, rate %u-%u Mb/s, spoofchk %s, trust %s, "
		 "link %s", dev, v->vf, mac, v->vlan, v->qos, v->min_tx_rate, v->max_tx_rate,
		 v->spoofchk < 0 ? "?" : v->spoofchk ? "on" : "off", v->trust < 0 ? "?" : v->trust ? "on" : "off",
		 mlx_vf_link_state_str(v->link_state));
}

/* The VF table of @h against @s's: a vf_count_changed and a vf_changed per
 * VF whose settings differ, into @ev (at most @max); updates @s. */
static size_t vf_events(const struct nlmsghdr *h, size_t len, struct mlx_link_state *s, bool report,
			struct mlx_event *ev, size_t max)
{
	struct mlx_link_vfs l;
	char err[128];
	size_t k = 0;

	if (mlx_rtnl_vf_decode(h, len, &l, err, sizeof(err)) < 0)
		return 0;
	if (report && l.has_num_vf && l.num_vf != s->num_vf && k < max) {
		link_event(&ev[k], MLX_EV_VF_COUNT_CHANGED, s);
		mlx_ev_set(&ev[k], MLX_EVF_NUM_VFS, l.num_vf);
		snprintf(ev[k].text, sizeof(ev[k].text), "%s: VFs %u -> %u", s->name, s->num_vf, l.num_vf);
		k++;
	}
	if (l.has_num_vf)
		s->num_vf = l.num_vf;
	for (size_t i = 0; i < l.nvf; i++) {
		const struct mlx_vf_info *v = &l.vf[i];
		uint32_t hv = vf_hash(v);

		if (v->vf >= MLX_LINK_VFS)
			continue;
		if (report && s->vf_hash[v->vf] != hv && k < max) {
			link_event(&ev[k], MLX_EV_VF_CHANGED, s);
			mlx_ev_set(&ev[k], MLX_EVF_VF, v->vf);
			snprintf(ev[k].detail, sizeof(ev[k].detail), "VF %u", v->vf);
			vf_text(ev[k].text, sizeof(ev[k].text), s->name, v);
			k++;
		}
		s->vf_hash[v->vf] = hv;
	}
	s->has_vfs = true;
	mlx_link_vfs_free(&l);
	return k;
}

int mlx_rtnl_link_events(const struct nlmsghdr *h, size_t len, struct mlx_link_state *st,
			 size_t nst, struct mlx_event *ev, size_t max)
{
	const struct ifinfomsg *ifi;
	const uint8_t *attrs;
	size_t alen, off = 0, k = 0;
	struct mlx_nla a;
	struct mlx_link_state now, *s;
	bool have_carrier = false, have_changes = false, have_mtu = false, have_vfs = false;
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
	/* the bridge's own messages about its ports (family AF_BRIDGE,
	 * br_ifinfo_notify: an RTM_DELLINK when a port leaves) are not the
	 * link's: they would reset its state */
	if (ifi->ifi_family != AF_UNSPEC)
		return 0;
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
		case IFLA_MTU:
			if (mlx_nla_u32(&a, &now.mtu) < 0)
				return -EBADMSG;
			have_mtu = true;
			break;
		case IFLA_ADDRESS:
			if (a.len > sizeof(now.addr))
				return -EBADMSG;
			memcpy(now.addr, a.data, a.len);
			now.addr_len = (uint8_t)a.len;
			break;
		case IFLA_MASTER:
			if (mlx_nla_u32(&a, &u32) < 0)
				return -EBADMSG;
			now.master = (int)u32;
			break;
		case IFLA_VFINFO_LIST:
		case IFLA_NUM_VF:
			have_vfs = true;
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
	if (!have_mtu)
		now.mtu = s->mtu;
	/* the VF table stays what the last message with it said */
	now.has_vfs = s->has_vfs;
	now.num_vf = s->num_vf;
	memcpy(now.vf_hash, s->vf_hash, sizeof(now.vf_hash));
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
		if (have_mtu && now.mtu != s->mtu && k < max) {
			link_event(&ev[k], MLX_EV_MTU_CHANGED, &now);
			mlx_ev_set(&ev[k], MLX_EVF_MTU, now.mtu);
			snprintf(ev[k].text, sizeof(ev[k].text), "%s: mtu %u -> %u", now.name, s->mtu, now.mtu);
			k++;
		}
		if (now.addr_len && (now.addr_len != s->addr_len || memcmp(now.addr, s->addr, now.addr_len)) &&
		    k < max) {
			char was[100], is[100];

			fmt_addr(was, sizeof(was), s->addr, s->addr_len);
			fmt_addr(is, sizeof(is), now.addr, now.addr_len);
			link_event(&ev[k], MLX_EV_ADDRESS_CHANGED, &now);
			snprintf(ev[k].detail, sizeof(ev[k].detail), "%s", is);
			snprintf(ev[k].text, sizeof(ev[k].text), "%s: address %s -> %s", now.name, was, is);
			k++;
		}
		if (now.master != s->master && k < max) {
			int mi = now.master ? now.master : s->master;
			const char *m = name_of(st, nst, mi);
			char mname[24];

			if (m)
				snprintf(mname, sizeof(mname), "%s", m);
			else
				snprintf(mname, sizeof(mname), "ifindex %d", mi);
			link_event(&ev[k], MLX_EV_MASTER_CHANGED, &now);
			if (now.master)
				mlx_ev_set(&ev[k], MLX_EVF_MASTER_IFINDEX, (uint64_t)now.master);
			snprintf(ev[k].detail, sizeof(ev[k].detail), "%s", now.master ? mname : "");
			snprintf(ev[k].text, sizeof(ev[k].text), now.master ? "%s: enslaved to %s" :
				 "%s: released from %s", now.name, mname);
			k++;
		}
	}
	if (have_vfs)
		k += vf_events(h, h->nlmsg_len, &now, s->known && s->has_vfs, ev + k, max - k);
	/* a notification (no VF table) of a link with VFs: a VF may have
	 * changed (do_setlink notifies after a VF write); the caller asks */
	now.want_vfs = !have_vfs && now.has_vfs && now.num_vf > 0 && h->nlmsg_pid == 0;
	*s = now;
	return (int)k;
}
