/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure decoders of the ethtool netlink replies that carry the driver's
 * knobs (include/uapi/linux/ethtool_netlink.h; net/ethtool/{privflags,
 * rings,channels,coalesce,features,bitset}.c build them):
 *  - PRIVFLAGS_GET_REPLY: header + ETHTOOL_A_PRIVFLAGS_FLAGS, a bitset;
 *  - FEATURES_GET_REPLY: header + HW, WANTED, ACTIVE, NOCHANGE bitsets;
 *  - RINGS, CHANNELS, COALESCE_GET_REPLY: header + flat u8/u32 attributes
 *    (one decoder for the three: the attribute number is the knob).
 * A bitset is verbose (BITS nest of BIT {INDEX, NAME, VALUE flag}, what the
 * kernel sends unless ETHTOOL_FLAG_COMPACT_BITSETS was asked for) or
 * compact (SIZE, VALUE and MASK u32 arrays, no names): both decode.
 * And the MTU bounds of rtnetlink's RTM_NEWLINK (the knob's range).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "nl.h"
#include "params.h"

static int bit_nest(const uint8_t *p, size_t len, struct mlx_bitset *out)
{
	size_t off = 0;
	struct mlx_nla a;
	uint32_t idx = UINT32_MAX;
	bool val = false, have_name = false;
	char name[MLX_BIT_NAME] = "";
	int r;

	while ((r = mlx_nla_next(p, len, &off, &a)) == 1) {
		if (a.type == ETHTOOL_A_BITSET_BIT_INDEX && mlx_nla_u32(&a, &idx) < 0)
			return -EBADMSG;
		if (a.type == ETHTOOL_A_BITSET_BIT_NAME) {
			mlx_nla_str(&a, name, sizeof(name));
			have_name = true;
		}
		if (a.type == ETHTOOL_A_BITSET_BIT_VALUE)
			val = true;
	}
	if (r < 0)
		return r;
	if (idx == UINT32_MAX && !have_name)
		return -EBADMSG;        /* a bit named by neither */
	if (out->n >= MLX_BITSET_MAX)
		return -E2BIG;
	out->bit[out->n].index = idx;
	out->bit[out->n].value = val;
	memcpy(out->bit[out->n].name, name, sizeof(name));
	out->n++;
	return 0;
}

int mlx_ethtool_bitset_decode(const uint8_t *p, size_t len, struct mlx_bitset *out)
{
	const uint8_t *value = NULL, *bits = NULL;
	size_t vlen = 0, blen = 0, off = 0;
	bool have_size = false;
	struct mlx_nla a;
	int r;

	memset(out, 0, sizeof(*out));
	while ((r = mlx_nla_next(p, len, &off, &a)) == 1) {
		switch (a.type) {
		case ETHTOOL_A_BITSET_NOMASK:
			out->nomask = true;
			break;
		case ETHTOOL_A_BITSET_SIZE:
			if (mlx_nla_u32(&a, &out->size) < 0)
				return -EBADMSG;
			have_size = true;
			break;
		case ETHTOOL_A_BITSET_BITS:
			bits = a.data;
			blen = a.len;
			break;
		case ETHTOOL_A_BITSET_VALUE:
			value = a.data;
			vlen = a.len;
			break;
		}
	}
	if (r < 0)
		return r;
	if (value) {
		/* compact: SIZE bits in u32 words, host order (bitset.c) */
		if (!have_size || vlen % 4 || (uint64_t)vlen * 8 < out->size)
			return -EBADMSG;
		if (out->size > MLX_BITSET_MAX)
			return -E2BIG;
		out->compact = true;
		for (uint32_t i = 0; i < out->size; i++) {
			uint32_t w;

			memcpy(&w, value + (i / 32) * 4, 4);
			out->bit[i].index = i;
			out->bit[i].value = (w >> (i % 32)) & 1;
		}
		out->n = out->size;
		return 0;
	}
	off = 0;
	while (bits && (r = mlx_nla_next(bits, blen, &off, &a)) == 1) {
		if (a.type != ETHTOOL_A_BITSET_BITS_BIT)
			continue;
		r = bit_nest(a.data, a.len, out);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	/* NOMASK: the list holds the set bits only, without VALUE flags
	 * (what the kernel sends for the four feature sets: features.c
	 * passes no mask to ethnl_put_bitset32) */
	if (out->nomask)
		for (size_t i = 0; i < out->n; i++)
			out->bit[i].value = true;
	return 0;
}

int mlx_bitset_get(const struct mlx_bitset *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->bit[i].name, name))
			return b->bit[i].value;
	/* a NOMASK list names the set bits only: any other bit is clear
	 * (whether the kernel knows its name, the caller cannot tell here) */
	return b->nomask ? 0 : -1;
}

int mlx_ethtool_header_decode(const struct mlx_nla *a, char *ifname, size_t n, uint32_t *ifindex)
{
	size_t off = 0;
	struct mlx_nla h;
	int r;

	while ((r = mlx_nla_next(a->data, a->len, &off, &h)) == 1) {
		if (h.type == ETHTOOL_A_HEADER_DEV_NAME)
			mlx_nla_str(&h, ifname, n);
		if (h.type == ETHTOOL_A_HEADER_DEV_INDEX && ifindex && mlx_nla_u32(&h, ifindex) < 0)
			return -EBADMSG;
	}
	return r < 0 ? -EBADMSG : 0;
}

/* The genl header of an ethtool reply: its attributes, or -ENOMSG when the
 * reply is another command's. */
static int reply_attrs(const struct nlmsghdr *h, size_t len, uint8_t cmd, const uint8_t **attrs,
		       size_t *alen)
{
	struct genlmsghdr g;
	int r;

	r = mlx_nlmsg_attrs(h, len, GENL_HDRLEN, attrs, alen);
	if (r < 0)
		return r;
	memcpy(&g, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(g));
	return g.cmd == cmd ? 0 : -ENOMSG;
}

int mlx_ethtool_attrs_decode(const struct nlmsghdr *h, size_t len, uint8_t cmd,
			     struct mlx_eth_attrs *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	memset(out, 0, sizeof(*out));
	r = reply_attrs(h, len, cmd, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == 1) {      /* ETHTOOL_A_{RINGS,CHANNELS,COALESCE}_HEADER */
			if (mlx_ethtool_header_decode(&a, out->ifname, sizeof(out->ifname), &out->ifindex) < 0)
				return -EBADMSG;
			continue;
		}
		if (a.type >= MLX_ETH_ATTRS)
			continue;       /* newer than us */
		if (a.len == 1) {
			out->v[a.type] = a.data[0];
		} else if (a.len == 4) {
			memcpy(&out->v[a.type], a.data, 4);
		} else {
			continue;       /* a nest (coalesce profiles): not a knob */
		}
		out->present |= 1ull << a.type;
	}
	return r < 0 ? r : 0;
}

int mlx_ethtool_features_decode(const struct nlmsghdr *h, size_t len,
				struct mlx_eth_features *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	memset(out, 0, sizeof(*out));
	r = reply_attrs(h, len, ETHTOOL_MSG_FEATURES_GET_REPLY, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		struct mlx_bitset *b = NULL;
		bool *have = NULL;

		switch (a.type) {
		case ETHTOOL_A_FEATURES_HEADER:
			if (mlx_ethtool_header_decode(&a, out->ifname, sizeof(out->ifname), &out->ifindex) < 0)
				return -EBADMSG;
			continue;
		case ETHTOOL_A_FEATURES_HW: b = &out->hw; have = &out->have_hw; break;
		case ETHTOOL_A_FEATURES_WANTED: b = &out->wanted; have = &out->have_wanted; break;
		case ETHTOOL_A_FEATURES_ACTIVE: b = &out->active; have = &out->have_active; break;
		case ETHTOOL_A_FEATURES_NOCHANGE:
			b = &out->nochange;
			have = &out->have_nochange;
			break;
		default:
			continue;
		}
		r = mlx_ethtool_bitset_decode(a.data, a.len, b);
		if (r < 0)
			return r;
		*have = true;
	}
	return r < 0 ? r : 0;
}

int mlx_ethtool_privflags_decode(const struct nlmsghdr *h, size_t len,
				 struct mlx_eth_privflags *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	bool seen = false;
	int r;

	memset(out, 0, sizeof(*out));
	r = reply_attrs(h, len, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == ETHTOOL_A_PRIVFLAGS_HEADER) {
			if (mlx_ethtool_header_decode(&a, out->ifname, sizeof(out->ifname), &out->ifindex) < 0)
				return -EBADMSG;
		} else if (a.type == ETHTOOL_A_PRIVFLAGS_FLAGS) {
			r = mlx_ethtool_bitset_decode(a.data, a.len, &out->flags);
			if (r < 0)
				return r;
			seen = true;
		}
	}
	if (r < 0)
		return r;
	return seen ? 0 : -ENODATA;
}

int mlx_link_mtu_decode(const struct nlmsghdr *h, size_t len, struct mlx_link_mtu *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint16_t type;
	int r;

	memset(out, 0, sizeof(*out));
	if (len < NLMSG_HDRLEN)
		return -EBADMSG;
	memcpy(&type, (const uint8_t *)h + 4, sizeof(type));
	if (type != RTM_NEWLINK)
		return -ENOMSG;
	r = mlx_nlmsg_attrs(h, len, sizeof(struct ifinfomsg), &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		uint32_t *dst = NULL;
		bool *have = NULL;

		switch (a.type) {
		case IFLA_IFNAME:
			mlx_nla_str(&a, out->ifname, sizeof(out->ifname));
			continue;
		case IFLA_MTU: dst = &out->mtu; have = &out->have_mtu; break;
		case IFLA_MIN_MTU: dst = &out->min; have = &out->have_min; break;
		case IFLA_MAX_MTU: dst = &out->max; have = &out->have_max; break;
		default:
			continue;
		}
		if (mlx_nla_u32(&a, dst) < 0)
			return -EBADMSG;
		*have = true;
	}
	return r < 0 ? -EBADMSG : 0;
}
