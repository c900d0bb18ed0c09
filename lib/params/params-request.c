/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel requests of `params set` (lib/params.h), pure: built from a
 * knob and a value, and parsed back (what the emulator of a captured
 * system, lib/emul/params-emul.c, reads; the unit tests hold both to the
 * uapi layout):
 *  - ethtool netlink RINGS_SET, CHANNELS_SET, COALESCE_SET: the header
 *    nest with the device name and the one attribute
 *    (include/uapi/linux/ethtool_netlink.h; net/ethtool/rings.c,
 *    channels.c, coalesce.c take a request of any subset);
 *  - FEATURES_SET (WANTED) and PRIVFLAGS_SET (FLAGS): a verbose bitset
 *    without NOMASK naming the one bit, so no other bit changes
 *    (net/ethtool/bitset.c ethnl_update_bitset32); a feature group that
 *    ethtool -K names (tso: tx-tcp*-segmentation) names every changeable
 *    member, as ethtool's netlink/features.c fill_legacy_flag does;
 *  - RTM_SETLINK with IFLA_IFNAME and IFLA_MTU (rtnl_setlink finds the
 *    device by name when ifi_index is 0);
 *  - devlink PARAM_SET in the row's cmode: runtime, driverinit (for the
 *    next reload) or permanent (a firmware NV setting, issue 27)
 *    (devlink_nl_param_set_doit: a bool's DATA is a flag, present when
 *    true).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "nl.h"
#include "params.h"
#include "write.h"

/* The SET command of each ethtool source and its bitset attribute. */
static uint8_t set_cmd(enum mlx_knob_source s)
{
	switch (s) {
	case MLX_KS_RING: return ETHTOOL_MSG_RINGS_SET;
	case MLX_KS_CHANNEL: return ETHTOOL_MSG_CHANNELS_SET;
	case MLX_KS_COALESCE: return ETHTOOL_MSG_COALESCE_SET;
	case MLX_KS_FEATURE: return ETHTOOL_MSG_FEATURES_SET;
	case MLX_KS_PRIVFLAG: return ETHTOOL_MSG_PRIVFLAGS_SET;
	default: return 0;
	}
}

static void eth_header(struct mlx_nlbuf *b, uint8_t cmd, const char *ifname)
{
	mlx_ethtool_req_start(b, cmd, NLM_F_ACK, ifname, 0);
}

int mlx_params_req_build(const struct mlx_knob *k, const char *ifname, const char *bus,
			 const char *bdf, uint8_t dl_type, const struct mlx_val *v, void *buf, size_t cap,
			 int *fam)
{
	return mlx_params_req_build_cmode(k, ifname, bus, bdf, dl_type, DEVLINK_PARAM_CMODE_RUNTIME,
					  v, buf, cap, fam);
}

int mlx_params_req_build_cmode(const struct mlx_knob *k, const char *ifname, const char *bus,
			       const char *bdf, uint8_t dl_type, uint8_t cmode,
			       const struct mlx_val *v, void *buf, size_t cap, int *fam)
{
	struct mlx_nlbuf b;
	size_t n1, n2, n3;

	mlx_nlb_init(&b, buf, cap);
	switch (k->src) {
	case MLX_KS_RING:
	case MLX_KS_CHANNEL:
	case MLX_KS_COALESCE:
		if (!ifname || (v->kind != MLX_VAL_UINT && v->kind != MLX_VAL_BOOL))
			return -EINVAL;
		*fam = MLX_NL_ETHTOOL;
		eth_header(&b, set_cmd(k->src), ifname);
		/* the coalescing switches are u8 (ethnl_update_bool32) */
		if (k->type == MLX_KT_BOOL)
			mlx_nlb_u8(&b, k->attr, v->b);
		else
			mlx_nlb_u32(&b, k->attr, (uint32_t)v->u);
		break;
	case MLX_KS_FEATURE:
	case MLX_KS_PRIVFLAG:
		/* a group's members are the device's: mlx_params_req_features */
		if (!ifname || v->kind != MLX_VAL_BOOL || !k->kname || strchr(k->kname, '*'))
			return -EINVAL;
		*fam = MLX_NL_ETHTOOL;
		eth_header(&b, set_cmd(k->src), ifname);
		n1 = mlx_nlb_nest_start(&b, (k->src == MLX_KS_FEATURE ? ETHTOOL_A_FEATURES_WANTED
								   : ETHTOOL_A_PRIVFLAGS_FLAGS) |
					    NLA_F_NESTED);
		n2 = mlx_nlb_nest_start(&b, ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
		n3 = mlx_nlb_nest_start(&b, ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);
		mlx_nlb_str(&b, ETHTOOL_A_BITSET_BIT_NAME, k->kname);
		if (v->b)
			mlx_nlb_attr(&b, ETHTOOL_A_BITSET_BIT_VALUE, NULL, 0);
		mlx_nlb_nest_end(&b, n3);
		mlx_nlb_nest_end(&b, n2);
		mlx_nlb_nest_end(&b, n1);
		break;
	case MLX_KS_MTU: {
		struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };

		if (!ifname || v->kind != MLX_VAL_UINT)
			return -EINVAL;
		*fam = MLX_NL_ROUTE;
		mlx_nlb_msg(&b, RTM_SETLINK, NLM_F_ACK);
		mlx_nlb_put(&b, &ifi, sizeof(ifi));
		mlx_nlb_str(&b, IFLA_IFNAME, ifname);
		mlx_nlb_u32(&b, IFLA_MTU, (uint32_t)v->u);
		break;
	}
	case MLX_KS_DEVLINK: {
		struct genlmsghdr g = { .cmd = DEVLINK_CMD_PARAM_SET, .version = DEVLINK_GENL_VERSION };

		if (!bdf)
			return -EINVAL;
		*fam = MLX_NL_DEVLINK;
		mlx_nlb_msg(&b, 0, NLM_F_ACK);
		mlx_nlb_put(&b, &g, sizeof(g));
		mlx_nlb_str(&b, DEVLINK_ATTR_BUS_NAME, bus ? bus : "pci");
		mlx_nlb_str(&b, DEVLINK_ATTR_DEV_NAME, bdf);
		mlx_nlb_str(&b, DEVLINK_ATTR_PARAM_NAME, k->kname);
		mlx_nlb_u8(&b, DEVLINK_ATTR_PARAM_TYPE, dl_type);
		if (cmode > DEVLINK_PARAM_CMODE_MAX)
			return -EINVAL;
		mlx_nlb_u8(&b, DEVLINK_ATTR_PARAM_VALUE_CMODE, cmode);
		switch (dl_type) {
		case MLX_DL_BOOL:
			if (v->kind != MLX_VAL_BOOL)
				return -EINVAL;
			if (v->b)
				mlx_nlb_attr(&b, DEVLINK_ATTR_PARAM_VALUE_DATA, NULL, 0);
			break;
		case MLX_DL_U8:
		case MLX_DL_U16:
		case MLX_DL_U32:
		case MLX_DL_U64:
			if (v->kind != MLX_VAL_UINT ||
			    (dl_type != MLX_DL_U64 && v->u >> (8u << (dl_type - 1))))
				return -EINVAL;
			if (dl_type == MLX_DL_U8)
				mlx_nlb_u8(&b, DEVLINK_ATTR_PARAM_VALUE_DATA, (uint8_t)v->u);
			else if (dl_type == MLX_DL_U16)
				mlx_nlb_u16(&b, DEVLINK_ATTR_PARAM_VALUE_DATA, (uint16_t)v->u);
			else if (dl_type == MLX_DL_U32)
				mlx_nlb_u32(&b, DEVLINK_ATTR_PARAM_VALUE_DATA, (uint32_t)v->u);
			else
				mlx_nlb_u64(&b, DEVLINK_ATTR_PARAM_VALUE_DATA, v->u);
			break;
		case MLX_DL_STRING:
			if (v->kind != MLX_VAL_STR)
				return -EINVAL;
			mlx_nlb_str(&b, DEVLINK_ATTR_PARAM_VALUE_DATA, v->s);
			break;
		default:
			return -EINVAL;
		}
		break;
	}
	default:
		return -EOPNOTSUPP;
	}
	return mlx_nlb_finish(&b);
}

int mlx_params_req_features(const char *ifname, const char (*names)[MLX_BIT_NAME], size_t n,
			    bool on, void *buf, size_t cap)
{
	struct mlx_nlbuf b;
	size_t n1, n2;

	if (!ifname || !n || n > MLX_FEATURE_GROUP_MAX)
		return -EINVAL;
	mlx_nlb_init(&b, buf, cap);
	eth_header(&b, ETHTOOL_MSG_FEATURES_SET, ifname);
	n1 = mlx_nlb_nest_start(&b, ETHTOOL_A_FEATURES_WANTED | NLA_F_NESTED);
	n2 = mlx_nlb_nest_start(&b, ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
	for (size_t i = 0; i < n; i++) {
		size_t n3 = mlx_nlb_nest_start(&b, ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);

		if (!names[i][0] || !memchr(names[i], '\0', MLX_BIT_NAME))
			return -EINVAL;
		mlx_nlb_str(&b, ETHTOOL_A_BITSET_BIT_NAME, names[i]);
		if (on)
			mlx_nlb_attr(&b, ETHTOOL_A_BITSET_BIT_VALUE, NULL, 0);
		mlx_nlb_nest_end(&b, n3);
	}
	mlx_nlb_nest_end(&b, n2);
	mlx_nlb_nest_end(&b, n1);
	return mlx_nlb_finish(&b);
}

/* The only attribute of a nest, of type @type. */
static int only(const uint8_t *p, size_t len, uint16_t type, struct mlx_nla *out)
{
	size_t off = 0;
	struct mlx_nla a;
	int n = 0, r;

	while ((r = mlx_nla_next(p, len, &off, &a)) == 1) {
		if (a.type != type || n++)
			return -EINVAL;
		*out = a;
	}
	return r < 0 || n != 1 ? -EINVAL : 0;
}

static int parse_eth(const uint8_t *attrs, size_t alen, uint8_t cmd, struct mlx_params_set *s,
		     char *why, size_t wl)
{
	struct mlx_nla a, hdr = { 0 }, bits = { 0 }, bit;
	size_t off = 0;
	int r, nval = 0;

	switch (cmd) {
	case ETHTOOL_MSG_RINGS_SET: s->src = MLX_KS_RING; break;
	case ETHTOOL_MSG_CHANNELS_SET: s->src = MLX_KS_CHANNEL; break;
	case ETHTOOL_MSG_COALESCE_SET: s->src = MLX_KS_COALESCE; break;
	case ETHTOOL_MSG_FEATURES_SET: s->src = MLX_KS_FEATURE; break;
	case ETHTOOL_MSG_PRIVFLAGS_SET: s->src = MLX_KS_PRIVFLAG; break;
	default: return -ENOENT;
	}
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == 1) {
			hdr = a;
			continue;
		}
		if (nval++) {
			snprintf(why, wl, "more than one setting in one request");
			return -EINVAL;
		}
		if (s->src == MLX_KS_FEATURE || s->src == MLX_KS_PRIVFLAG) {
			size_t boff = 0;
			struct mlx_nla ba;

			if (a.type != (s->src == MLX_KS_FEATURE ? ETHTOOL_A_FEATURES_WANTED
							       : ETHTOOL_A_PRIVFLAGS_FLAGS) ||
			    only(a.data, a.len, ETHTOOL_A_BITSET_BITS, &bits) < 0) {
				snprintf(why, wl, "not one bitset of named bits");
				return -EINVAL;
			}
			/* a private flag is one bit; a feature group several */
			while ((r = mlx_nla_next(bits.data, bits.len, &boff, &bit)) == 1) {
				size_t xoff = 0;
				char name[MLX_BIT_NAME] = "";
				bool on = false;

				if (bit.type != ETHTOOL_A_BITSET_BITS_BIT ||
				    s->nbits == (s->src == MLX_KS_FEATURE ? MLX_FEATURE_GROUP_MAX : 1u)) {
					snprintf(why, wl, s->src == MLX_KS_FEATURE ?
						 "more than %u bits or another attribute" :
						 "not one bit (%u)", MLX_FEATURE_GROUP_MAX);
					return -EINVAL;
				}
				while ((r = mlx_nla_next(bit.data, bit.len, &xoff, &ba)) == 1) {
					if (ba.type == ETHTOOL_A_BITSET_BIT_NAME)
						mlx_nla_str(&ba, name, sizeof(name));
					else if (ba.type == ETHTOOL_A_BITSET_BIT_VALUE)
						on = true;
				}
				if (r < 0 || !name[0]) {
					snprintf(why, wl, "a bit without a name");
					return -EINVAL;
				}
				memcpy(s->bits[s->nbits].name, name, sizeof(name));
				s->bits[s->nbits++].on = on;
			}
			if (r < 0 || !s->nbits) {
				snprintf(why, wl, "no bit");
				return -EINVAL;
			}
			snprintf(s->name, sizeof(s->name), "%s", s->bits[0].name);
			s->on = s->bits[0].on;
		} else {
			uint32_t u32;
			uint8_t u8;

			s->attr = a.type;
			if (a.len == 1 && mlx_nla_u8(&a, &u8) == 0) {
				s->u = u8;
				s->is_u8 = true;
			} else if (a.len == 4 && mlx_nla_u32(&a, &u32) == 0) {
				s->u = u32;
			} else {
				snprintf(why, wl, "attribute %u of %zu bytes", a.type, a.len);
				return -EINVAL;
			}
		}
	}
	if (r < 0 || !nval || !hdr.data) {
		snprintf(why, wl, r < 0 ? "a malformed attribute" : "no header or no setting");
		return -EINVAL;
	}
	r = mlx_ethtool_header_decode(&hdr, s->ifname, sizeof(s->ifname), NULL);
	if (r < 0 || !s->ifname[0]) {
		snprintf(why, wl, "no device name in the header");
		return -EINVAL;
	}
	return 0;
}

static int parse_dl(const uint8_t *attrs, size_t alen, struct mlx_params_set *s, char *why,
		    size_t wl)
{
	struct mlx_nla a, data = { 0 };
	size_t off = 0;
	bool have_type = false, have_cmode = false, have_data = false;
	int r;

	s->src = MLX_KS_DEVLINK;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_BUS_NAME)
			mlx_nla_str(&a, s->bus, sizeof(s->bus));
		else if (a.type == DEVLINK_ATTR_DEV_NAME)
			mlx_nla_str(&a, s->dev, sizeof(s->dev));
		else if (a.type == DEVLINK_ATTR_PARAM_NAME)
			mlx_nla_str(&a, s->name, sizeof(s->name));
		else if (a.type == DEVLINK_ATTR_PARAM_TYPE)
			have_type = mlx_nla_u8(&a, &s->dl_type) == 0;
		else if (a.type == DEVLINK_ATTR_PARAM_VALUE_CMODE)
			have_cmode = mlx_nla_u8(&a, &s->cmode) == 0;
		else if (a.type == DEVLINK_ATTR_PARAM_VALUE_DATA) {
			data = a;
			have_data = true;
		}
	}
	if (r < 0 || !s->bus[0] || !s->dev[0] || !s->name[0] || !have_type || !have_cmode) {
		snprintf(why, wl, "not bus, device, parameter, type and cmode");
		return -EINVAL;
	}
	switch (s->dl_type) {
	case MLX_DL_BOOL:
		s->on = have_data;
		return 0;
	case MLX_DL_STRING:
		if (!have_data || !data.len || data.data[data.len - 1] != '\0') {
			snprintf(why, wl, "a string without its NUL");
			return -EINVAL;
		}
		mlx_nla_str(&data, s->str, sizeof(s->str));
		return 0;
	case MLX_DL_U8:
	case MLX_DL_U16:
	case MLX_DL_U32:
	case MLX_DL_U64: {
		size_t want = (size_t)1 << (s->dl_type - 1);
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;

		if (!have_data || data.len != want) {
			snprintf(why, wl, "a value of %zu bytes for a %zu-byte type",
				 have_data ? data.len : 0, want);
			return -EINVAL;
		}
		if (want == 1 && mlx_nla_u8(&data, &u8) == 0)
			s->u = u8;
		else if (want == 2 && mlx_nla_u16(&data, &u16) == 0)
			s->u = u16;
		else if (want == 4 && mlx_nla_u32(&data, &u32) == 0)
			s->u = u32;
		else
			(void)mlx_nla_u64(&data, &s->u);
		return 0;
	}
	}
	snprintf(why, wl, "parameter type %u", s->dl_type);
	return -EINVAL;
}

static int parse_mtu(const uint8_t *attrs, size_t alen, struct mlx_params_set *s, char *why,
		     size_t wl)
{
	struct mlx_nla a;
	size_t off = 0;
	bool mtu = false;
	int r;
	uint32_t u;

	s->src = MLX_KS_MTU;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == IFLA_IFNAME)
			mlx_nla_str(&a, s->ifname, sizeof(s->ifname));
		else if (a.type == IFLA_MTU && mlx_nla_u32(&a, &u) == 0) {
			s->u = u;
			mtu = true;
		} else {
			snprintf(why, wl, "attribute %u besides the name and the MTU", a.type);
			return -EINVAL;
		}
	}
	if (r < 0 || !mtu || !s->ifname[0]) {
		snprintf(why, wl, "not one interface name and one MTU");
		return -EINVAL;
	}
	return 0;
}

int mlx_params_req_parse(int fam, const void *req, size_t len, struct mlx_params_set *out,
			 char *why, size_t whylen)
{
	struct nlmsghdr h;
	struct genlmsghdr g = { 0 };
	const uint8_t *attrs;
	size_t alen;
	bool ours;

	memset(out, 0, sizeof(*out));
	if (len < NLMSG_HDRLEN)
		return -ENOENT;
	memcpy(&h, req, sizeof(h));
	if (len >= NLMSG_HDRLEN + GENL_HDRLEN)
		memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	/* which requests are ours: by type, before anything is checked */
	if (fam == MLX_NL_ROUTE) {
		struct mlx_nla a;
		size_t off = 0;

		if (h.nlmsg_type != RTM_SETLINK || h.nlmsg_len != len ||
		    mlx_nlmsg_attrs(req, len, sizeof(struct ifinfomsg), &attrs, &alen) < 0)
			return -ENOENT;
		/* the VF settings are RTM_SETLINK too: ours carries IFLA_MTU */
		ours = false;
		while (mlx_nla_next(attrs, alen, &off, &a) == 1)
			ours |= a.type == IFLA_MTU;
	} else if (fam == MLX_NL_ETHTOOL) {
		ours = set_cmd(MLX_KS_RING) == g.cmd || set_cmd(MLX_KS_CHANNEL) == g.cmd ||
		       set_cmd(MLX_KS_COALESCE) == g.cmd || set_cmd(MLX_KS_FEATURE) == g.cmd ||
		       set_cmd(MLX_KS_PRIVFLAG) == g.cmd;
	} else {
		ours = fam == MLX_NL_DEVLINK && g.cmd == DEVLINK_CMD_PARAM_SET;
	}
	if (!ours)
		return -ENOENT;
	snprintf(why, whylen, "shorter than its headers");
	if (len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	if (h.nlmsg_len != len || !(h.nlmsg_flags & NLM_F_REQUEST)) {
		snprintf(why, whylen, "length %u in %zu bytes, or not a request", h.nlmsg_len, len);
		return -EINVAL;
	}
	if (fam == MLX_NL_ROUTE)
		return parse_mtu(attrs, alen, out, why, whylen);
	if (mlx_nlmsg_attrs(req, len, GENL_HDRLEN, &attrs, &alen) < 0)
		return -EINVAL;
	if (fam == MLX_NL_ETHTOOL)
		return parse_eth(attrs, alen, g.cmd, out, why, whylen);
	return parse_dl(attrs, alen, out, why, whylen);
}
