/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure decoders of what the packet-filter, VXLAN and IPoIB views read
 * from rtnetlink and procfs:
 *
 *  RTM_NEWLINK (include/uapi/linux/if_link.h; net/core/rtnetlink.c
 *    rtnl_fill_ifinfo): the flags, IFLA_PROMISCUITY and IFLA_ALLMULTI (the
 *    counts: a device is promiscuous while any user holds it so), the
 *    queue counts, the address, and IFLA_LINKINFO's kind with the data of
 *    the two kinds the views need: "ipoib" (IFLA_IPOIB_PKEY, _MODE,
 *    _UMCAST; drivers/infiniband/ulp/ipoib/ipoib_netlink.c) and "vxlan"
 *    (IFLA_VXLAN_ID, _LINK, _PORT; drivers/net/vxlan/vxlan_core.c), and
 *    "vlan" (IFLA_VLAN_ID, _PROTOCOL, _EGRESS_QOS's IFLA_VLAN_QOS_MAPPING
 *    entries; net/8021q/vlan_netlink.c vlan_fill_info, which lists only
 *    the egress entries with a PCP: vlan_dev.c keeps the map as a hash of
 *    the non-zero ones).
 *  RTM_NEWNEIGH of a PF_BRIDGE fdb dump: for a netdev that is no bridge
 *    port, ndo_dflt_fdb_dump lists its unicast then its multicast address
 *    lists (dev->uc, dev->mc), one entry each (NDA_LLADDR, NTF_SELF,
 *    NUD_PERMANENT).
 *  /proc/net/dev_mcast: "ifindex name users global_use address" per line
 *    (net/core/dev_addr_lists.c dev_mc_seq_show: "%-4d %-15s %-5d %-5d
 *    %*phN"), the multicast list with its reference counts.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "netview.h"
#include "nl.h"

void mlx_hw_addr_format(const uint8_t *a, size_t n, struct mlx_hw_addr *out)
{
	size_t o = 0;

	out->text[0] = '\0';
	for (size_t i = 0; i < n && o + 4 <= sizeof(out->text); i++)
		o += (size_t)snprintf(out->text + o, sizeof(out->text) - o, "%s%02x", i ? ":" : "",
				      a[i]);
	out->multicast = n > 0 && (a[0] & 1);
	out->users = -1;
	out->global = false;
}

static void linkinfo(const struct mlx_nla *li, struct mlx_link_info *out, int *r)
{
	size_t off = 0;
	struct mlx_nla a, data = { 0 };
	bool have_data = false;

	while ((*r = mlx_nla_next(li->data, li->len, &off, &a)) == 1) {
		if (a.type == IFLA_INFO_KIND)
			mlx_nla_str(&a, out->kind, sizeof(out->kind));
		else if (a.type == IFLA_INFO_DATA) {
			data = a;
			have_data = true;
		}
	}
	if (*r < 0 || !have_data)
		return;
	off = 0;
	while ((*r = mlx_nla_next(data.data, data.len, &off, &a)) == 1) {
		uint16_t u16;
		uint32_t u32;

		if (!strcmp(out->kind, "ipoib")) {
			if (a.type != IFLA_IPOIB_PKEY && a.type != IFLA_IPOIB_MODE &&
			    a.type != IFLA_IPOIB_UMCAST)
				continue;
			if (mlx_nla_u16(&a, &u16) < 0) {
				*r = -EBADMSG;
				return;
			}
			if (a.type == IFLA_IPOIB_PKEY)
				out->pkey = u16;
			else if (a.type == IFLA_IPOIB_MODE)
				out->mode = u16;
			else
				out->umcast = u16;
		} else if (!strcmp(out->kind, "vlan")) {
			if (a.type == IFLA_VLAN_ID) {
				if (mlx_nla_u16(&a, &u16) < 0) {
					*r = -EBADMSG;
					return;
				}
				out->vlan_id = u16;
			} else if (a.type == IFLA_VLAN_PROTOCOL) {
				if (mlx_nla_u16(&a, &u16) < 0) {
					*r = -EBADMSG;
					return;
				}
				out->vlan_proto = ntohs(u16);   /* be16 */
			} else if (a.type == IFLA_VLAN_EGRESS_QOS) {
				struct mlx_nla m;
				size_t o2 = 0;

				while ((*r = mlx_nla_next(a.data, a.len, &o2, &m)) == 1) {
					struct ifla_vlan_qos_mapping q;

					if (m.type != IFLA_VLAN_QOS_MAPPING)
						continue;
					if (m.len < sizeof(q)) {
						*r = -EBADMSG;
						return;
					}
					memcpy(&q, m.data, sizeof(q));
					if (out->vlan_negress < MLX_VLAN_QOS_MAX) {
						out->vlan_egress[out->vlan_negress].from = q.from;
						out->vlan_egress[out->vlan_negress++].to = q.to;
					}
				}
				if (*r < 0)
					return;
			}
		} else if (!strcmp(out->kind, "vxlan")) {
			if (a.type == IFLA_VXLAN_ID && mlx_nla_u32(&a, &u32) == 0)
				out->vxlan.vni = u32;
			else if (a.type == IFLA_VXLAN_LINK && mlx_nla_u32(&a, &u32) == 0)
				out->vxlan.link = (int)u32;
			else if (a.type == IFLA_VXLAN_PORT && mlx_nla_u16(&a, &u16) == 0)
				out->vxlan.port = ntohs(u16);   /* be16 */
			else if (a.type == IFLA_VXLAN_ID || a.type == IFLA_VXLAN_LINK ||
				 a.type == IFLA_VXLAN_PORT) {
				*r = -EBADMSG;
				return;
			}
		}
	}
}

int mlx_link_info_decode(const struct nlmsghdr *h, size_t len, struct mlx_link_info *out)
{
	struct ifinfomsg ifi;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	memset(out, 0, sizeof(*out));
	out->promiscuity = out->allmulti = -1;
	out->num_tx_queues = out->num_rx_queues = -1;
	out->pkey = out->mode = out->umcast = -1;
	out->vxlan.vni = -1;
	out->mtu = -1;
	out->operstate = -1;
	out->vlan_id = -1;
	if (len < NLMSG_HDRLEN || h->nlmsg_type != RTM_NEWLINK)
		return len < NLMSG_HDRLEN ? -EBADMSG : -ENOMSG;
	r = mlx_nlmsg_attrs(h, len, sizeof(ifi), &attrs, &alen);
	if (r < 0)
		return r;
	memcpy(&ifi, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(ifi));
	out->ifindex = ifi.ifi_index;
	out->flags = ifi.ifi_flags;
	out->type = ifi.ifi_type;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		uint32_t u32;

		switch (a.type) {
		case IFLA_IFNAME:
			mlx_nla_str(&a, out->ifname, sizeof(out->ifname));
			break;
		case IFLA_PROMISCUITY:
		case IFLA_ALLMULTI:
		case IFLA_NUM_TX_QUEUES:
		case IFLA_NUM_RX_QUEUES:
		case IFLA_LINK:
		case IFLA_MTU:
			if (mlx_nla_u32(&a, &u32) < 0)
				return -EBADMSG;
			if (a.type == IFLA_PROMISCUITY)
				out->promiscuity = u32;
			else if (a.type == IFLA_ALLMULTI)
				out->allmulti = u32;
			else if (a.type == IFLA_NUM_TX_QUEUES)
				out->num_tx_queues = u32;
			else if (a.type == IFLA_NUM_RX_QUEUES)
				out->num_rx_queues = u32;
			else if (a.type == IFLA_MTU)
				out->mtu = u32;
			else
				out->link = (int)u32;
			break;
		case IFLA_OPERSTATE: {
			uint8_t u8;

			if (mlx_nla_u8(&a, &u8) < 0)
				return -EBADMSG;
			out->operstate = u8;
			break;
		}
		case IFLA_ADDRESS:
			out->addr_len = a.len < sizeof(out->addr) ? a.len : sizeof(out->addr);
			memcpy(out->addr, a.data, out->addr_len);
			break;
		case IFLA_LINKINFO:
			linkinfo(&a, out, &r);
			if (r < 0)
				return -EBADMSG;
			break;
		}
	}
	if (r < 0)
		return -EBADMSG;
	if (!strcmp(out->kind, "vxlan")) {
		snprintf(out->vxlan.ifname, sizeof(out->vxlan.ifname), "%s", out->ifname);
		out->vxlan.ifindex = out->ifindex;
		out->vxlan.up = out->flags & IFF_UP;
	}
	return 0;
}

int mlx_fdb_decode(const struct nlmsghdr *h, size_t len, int ifindex, struct mlx_hw_addr *a)
{
	struct ndmsg nd;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla n;
	int r, found = 0;

	if (len < NLMSG_HDRLEN)
		return -EBADMSG;
	if (h->nlmsg_type != RTM_NEWNEIGH)
		return 0;
	r = mlx_nlmsg_attrs(h, len, sizeof(nd), &attrs, &alen);
	if (r < 0)
		return r;
	memcpy(&nd, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(nd));
	while ((r = mlx_nla_next(attrs, alen, &off, &n)) == 1) {
		if (n.type != NDA_LLADDR)
			continue;
		if (!n.len || n.len > 20)
			return -EBADMSG;
		if (nd.ndm_ifindex == ifindex && nd.ndm_family == AF_BRIDGE) {
			mlx_hw_addr_format(n.data, n.len, a);
			found = 1;
		}
	}
	return r < 0 ? -EBADMSG : found;
}

static int hexbyte(const char *p)
{
	int v = 0;

	for (int i = 0; i < 2; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

int mlx_dev_mcast_parse(const char *text, size_t len, const char *ifname,
			struct mlx_hw_addr **out, size_t *n)
{
	const char *p = text, *end = text + len;
	struct mlx_hw_addr *v = NULL;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char line[160], name[IFNAMSIZ + 1], hex[64];
		int idx, users, global, k;
		uint8_t bytes[20];
		size_t nb;

		if (ll == 0 || ll >= sizeof(line)) {
			if (ll >= sizeof(line))
				goto bad;
			p += 1;
			continue;
		}
		memcpy(line, p, ll);
		line[ll] = '\0';
		p += ll + (nl ? 1 : 0);
		if (sscanf(line, "%d %16s %d %d %63s%n", &idx, name, &users, &global, hex, &k) != 5 ||
		    line[k] != '\0' || idx < 0 || users < 0 || (global != 0 && global != 1))
			goto bad;
		nb = strlen(hex);
		if (nb % 2 || nb / 2 > sizeof(bytes) || !nb)
			goto bad;
		nb /= 2;
		for (size_t i = 0; i < nb; i++) {
			int b = hexbyte(hex + 2 * i);

			if (b < 0)
				goto bad;
			bytes[i] = (uint8_t)b;
		}
		if (strcmp(name, ifname))
			continue;
		if (*n == cap) {
			struct mlx_hw_addr *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		mlx_hw_addr_format(bytes, nb, &v[*n]);
		v[*n].users = users;
		v[*n].global = global;
		(*n)++;
	}
	*out = v;
	return 0;
bad:
	free(v);
	*n = 0;
	return -EBADMSG;
}
