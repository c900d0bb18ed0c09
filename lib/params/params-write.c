/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `params set` and `reset` in the write engine (issue 17; lib/write.h).
 * One knob is one change and one kernel request, built here by pure
 * functions that the emulator (lib/emul/params-emul.c) parses back:
 *  - ethtool netlink RINGS_SET, CHANNELS_SET, COALESCE_SET: the header
 *    nest with the device name and the one attribute
 *    (include/uapi/linux/ethtool_netlink.h; net/ethtool/rings.c,
 *    channels.c, coalesce.c take a request of any subset);
 *  - FEATURES_SET (WANTED) and PRIVFLAGS_SET (FLAGS): a verbose bitset
 *    without NOMASK naming the one bit, so no other bit changes
 *    (net/ethtool/bitset.c ethnl_update_bitset32);
 *  - RTM_SETLINK with IFLA_IFNAME and IFLA_MTU (rtnl_setlink finds the
 *    device by name when ifi_index is 0);
 *  - devlink PARAM_SET in cmode runtime (devlink_nl_param_set_doit: a
 *    bool's DATA is a flag, present when true).
 * The writable module parameter, rdma_cm's configfs and MLNX_OFED's
 * traffic_class are files.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "params.h"
#include "settings.h"
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

static bool parse_bool(const char *s, bool *b)
{
	static const char *const t[] = { "on", "true", "1", "yes", "Y", NULL };
	static const char *const f[] = { "off", "false", "0", "no", "N", NULL };

	for (size_t i = 0; t[i]; i++)
		if (!strcmp(s, t[i])) {
			*b = true;
			return true;
		}
	for (size_t i = 0; f[i]; i++)
		if (!strcmp(s, f[i])) {
			*b = false;
			return true;
		}
	return false;
}

int mlx_params_parse_value(struct mlx_ctx *ctx, const struct mlx_knob *k, const char *value,
			   struct mlx_val *out)
{
	char *end;
	unsigned long long u;
	uint64_t hi;
	bool b;

	switch (k->type) {
	case MLX_KT_BOOL:
		if (!parse_bool(value, &b))
			return mlx_err(ctx, EINVAL, "'%s' is not a value of %s: it takes on or off",
				       value, k->name);
		*out = mlx_val_bool(b);
		return 0;
	case MLX_KT_U32:
	case MLX_KT_U64:
		errno = 0;
		u = strtoull(value, &end, 0);
		if (!*value || *end || errno || value[0] == '-')
			return mlx_err(ctx, EINVAL, "'%s' is not a number (%s)", value, k->name);
		hi = k->max ? k->max : k->type == MLX_KT_U32 ? UINT32_MAX : UINT64_MAX;
		if (u < k->min || u > hi)
			return mlx_err(ctx, ERANGE, "%s %s is out of its range %" PRIu64 "..%" PRIu64,
				       k->name, value, k->min, hi);
		*out = mlx_val_uint(u);
		return 0;
	case MLX_KT_STRING:
		/* rdma_cm's mode: the one validator of the roce section's too */
		if (k->src == MLX_KS_RDMA && !strcmp(k->kname, "default_roce_mode")) {
			char mode[24];
			int r = mlx_roce_mode_parse(ctx, value, mode, sizeof(mode));

			if (r == 0)
				*out = mlx_val_str(mode);
			return r;
		}
		if (k->choices) {
			size_t i;

			for (i = 0; k->choices[i] && strcmp(k->choices[i], value); i++)
				;
			if (!k->choices[i])
				return mlx_err(ctx, EINVAL, "'%s' is not a value of %s", value,
					       k->name);
		}
		if (strlen(value) >= MLX_VAL_STR_MAX)
			return mlx_err(ctx, EINVAL, "'%s' is too long for %s", value, k->name);
		*out = mlx_val_str(value);
		return 0;
	}
	return -EINVAL;
}

int mlx_params_plan_set(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name,
			const char *value)
{
	const struct mlx_knob *k = mlx_knob_find(name);
	struct mlx_val v;
	int r;

	if (!k)
		return mlx_err(ctx, EINVAL, "no knob '%s' (mlxcli params info lists them)", name);
	if (mlx_plan_find(pl, name))
		return mlx_err(ctx, EINVAL, "%s is given twice", name);
	r = mlx_params_parse_value(ctx, k, value, &v);
	if (r < 0)
		return r;
	r = mlx_plan_add(pl, k->name, k->unit, (int)(k - mlx_knobs), 0, v);
	return r < 0 ? r : 0;
}

int mlx_params_default(struct mlx_ctx *ctx, const struct mlx_knob *k, struct mlx_val *out)
{
	if (!k->dflt)
		return mlx_err(ctx, ENODATA, "cannot reset %s: its default is not known (%s)",
			       k->name, k->dflt_from);
	/* a default that is a state no write makes: MLNX_OFED's traffic_class
	 * is empty until written, and nothing writes it empty again */
	if (k->type != MLX_KT_STRING && !strcmp(k->dflt, "unset"))
		return mlx_err(ctx, ENODATA, "cannot reset %s: its default is 'unset', which no "
			       "write restores (%s); set a value instead", k->name, k->dflt_from);
	return mlx_params_parse_value(ctx, k, k->dflt, out);
}

int mlx_params_plan_reset(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name)
{
	const struct mlx_knob *k = mlx_knob_find(name);
	struct mlx_val v;
	int r;

	if (!k)
		return mlx_err(ctx, EINVAL, "no knob '%s' (mlxcli params info lists them)", name);
	r = mlx_params_default(ctx, k, &v);
	if (r < 0)
		return r;
	return mlx_params_plan_set(ctx, pl, name, k->dflt);
}

/* ---- requests: pure -------------------------------------------------------- */

static void eth_header(struct mlx_nlbuf *b, uint8_t cmd, const char *ifname)
{
	mlx_ethtool_req_start(b, cmd, NLM_F_ACK, ifname, 0);
}

int mlx_params_req_build(const struct mlx_knob *k, const char *ifname, const char *bdf,
			 uint8_t dl_type, const struct mlx_val *v, void *buf, size_t cap,
			 int *fam)
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
		if (!ifname || v->kind != MLX_VAL_BOOL)
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
		mlx_nlb_str(&b, DEVLINK_ATTR_BUS_NAME, "pci");
		mlx_nlb_str(&b, DEVLINK_ATTR_DEV_NAME, bdf);
		mlx_nlb_str(&b, DEVLINK_ATTR_PARAM_NAME, k->kname);
		mlx_nlb_u8(&b, DEVLINK_ATTR_PARAM_TYPE, dl_type);
		mlx_nlb_u8(&b, DEVLINK_ATTR_PARAM_VALUE_CMODE, DEVLINK_PARAM_CMODE_RUNTIME);
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
	struct mlx_nla a, hdr = { 0 }, bits, bit;
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
			    only(a.data, a.len, ETHTOOL_A_BITSET_BITS, &bits) < 0 ||
			    only(bits.data, bits.len, ETHTOOL_A_BITSET_BITS_BIT, &bit) < 0) {
				snprintf(why, wl, "not one bitset naming one bit");
				return -EINVAL;
			}
			while ((r = mlx_nla_next(bit.data, bit.len, &boff, &ba)) == 1) {
				if (ba.type == ETHTOOL_A_BITSET_BIT_NAME)
					mlx_nla_str(&ba, s->name, sizeof(s->name));
				else if (ba.type == ETHTOOL_A_BITSET_BIT_VALUE)
					s->on = true;
			}
			if (r < 0 || !s->name[0]) {
				snprintf(why, wl, "a bit without a name");
				return -EINVAL;
			}
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

/* ---- the write engine's ops ------------------------------------------------ */

void mlx_params_writer_free(struct mlx_params_writer *w)
{
	if (w->have) {
		mlx_params_free(&w->cur);
		mlx_params_free(&w->mod);
	}
	w->have = false;
}

/* What the kernel reports now: one fresh collection per read after a
 * write (a write invalidates it), so read-back sees the kernel's answer. */
static int refresh(struct mlx_ctx *ctx, struct mlx_params_writer *w)
{
	struct mlx_params_cache *c;
	int r;

	if (w->have)
		return 0;
	r = mlx_params_cache_new(ctx, &c);
	if (r < 0)
		return r;
	r = mlx_params_port(ctx, c, w->ifname, w->bdf, true, &w->cur);
	if (r == 0 && w->rdma_dev)
		r = mlx_params_rdma(ctx, w->rdma_dev, w->rdma_port ? w->rdma_port : 1, &w->cur);
	mlx_params_cache_free(c);
	if (r == 0)
		r = mlx_params_module(ctx, &w->mod);
	else
		memset(&w->mod, 0, sizeof(w->mod));
	w->have = true;
	if (r < 0)
		mlx_params_writer_free(w);
	return r;
}

/* The device's row of @k: for a devlink parameter the runtime one when it
 * has one, else its first (whose cmode the plan refuses). */
static const struct mlx_knob_value *find_row(const struct mlx_params_writer *w,
					     const struct mlx_knob *k)
{
	const struct mlx_params *p = k->src == MLX_KS_MODULE ? &w->mod : &w->cur;
	const struct mlx_knob_value *first = NULL;

	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].k != k)
			continue;
		if (p->v[i].apply == MLX_KA_RUNTIME)
			return &p->v[i];
		if (!first)
			first = &p->v[i];
	}
	return first;
}

static const struct mlx_knob *knob_of(const struct mlx_change *c)
{
	return c->id >= 0 && (size_t)c->id < mlx_nknobs ? &mlx_knobs[c->id] : NULL;
}

static int pw_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		   struct mlx_val *out)
{
	struct mlx_params_writer *w = feat;
	const struct mlx_knob *k = knob_of(c);
	const struct mlx_knob_value *kv;
	int r;

	if (!k)
		return -EINVAL;
	r = refresh(ctx, w);
	if (r < 0)
		return r;
	kv = find_row(w, k);
	if (!kv || !kv->known) {
		*out = mlx_val_null();
		return 0;
	}
	/* the device's own spelling goes through the catalogue's parser;
	 * a value outside the catalogue's range is still what it holds */
	if (k->type == MLX_KT_BOOL) {
		bool b;

		*out = parse_bool(kv->value, &b) ? mlx_val_bool(b) : mlx_val_str(kv->value);
	} else if (k->type == MLX_KT_STRING) {
		*out = mlx_val_str(kv->value);
	} else {
		uint64_t u;

		/* a state in words ("unset": traffic_class never written) stays one */
		*out = mlx_parse_u64(kv->value, &u) == 0 ? mlx_val_uint(u) : mlx_val_str(kv->value);
	}
	return 0;
}

/* Against what the device reports: the knob is there, changeable now,
 * within the device's maximum. */
static int pw_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl)
{
	struct mlx_params_writer *w = feat;
	const char *on = w->ifname ? w->ifname : w->bdf;

	for (size_t i = 0; i < pl->n; i++) {
		struct mlx_change *c = &pl->c[i];
		const struct mlx_knob *k = knob_of(c);
		const struct mlx_knob_value *kv = k ? find_row(w, k) : NULL;

		if (!k)
			return -EINVAL;
		if (!kv || !kv->known)
			return mlx_err(ctx, EOPNOTSUPP, "%s reports no %s (%s): nothing to set", on,
				       k->name, mlx_knob_source_name(k->src));
		if (kv->apply != MLX_KA_RUNTIME) {
			char val[MLX_VAL_STR_MAX + 8];

			/* devlink(8) spells a bool true or false */
			if (c->new.kind == MLX_VAL_BOOL)
				snprintf(val, sizeof(val), "%s", c->new.b ? "true" : "false");
			else
				mlx_val_fmt(&c->new, val, sizeof(val));
			if (k->src == MLX_KS_DEVLINK)
				return mlx_err(ctx, EOPNOTSUPP, "%s takes effect at a %s (devlink "
					       "cmode %s), not at run time: mlxcli does not reload "
					       "the driver or reset the firmware (devlink dev param "
					       "set pci/%s name %s value %s cmode %s, then %s)",
					       k->name, mlx_knob_apply_name(kv->apply),
					       kv->apply == MLX_KA_RELOAD ? "driverinit" : "permanent",
					       w->bdf, k->kname, val,
					       kv->apply == MLX_KA_RELOAD ? "driverinit" : "permanent",
					       kv->apply == MLX_KA_RELOAD ? "devlink dev reload"
									  : "a firmware reset");
			return mlx_err(ctx, EOPNOTSUPP, "%s takes effect at a %s, not at run time: "
				       "set it where the module is loaded (modprobe.d)", k->name,
				       mlx_knob_apply_name(kv->apply));
		}
		if (kv->fixed)
			return mlx_err(ctx, EOPNOTSUPP, "%s is fixed on %s: the device cannot "
				       "change it", k->name, on);
		if (kv->maximum[0] && c->new.kind == MLX_VAL_UINT &&
		    c->new.u > strtoull(kv->maximum, NULL, 10))
			return mlx_err(ctx, ERANGE, "cannot set %s on %s: %" PRIu64 " is above the "
				       "device's maximum %s", k->name, on, c->new.u, kv->maximum);
		if (k->src == MLX_KS_DEVLINK && !kv->dl_type)
			return mlx_err(ctx, EBADMSG, "%s's devlink parameter %s has no type",
				       on, k->kname);
	}
	return 0;
}

static int ignore(const struct nlmsghdr *h, size_t len, void *arg)
{
	(void)h;
	(void)len;
	(void)arg;
	return 0;
}

static int pw_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_params_writer *w = feat;
	const struct mlx_knob *k = knob_of(c);
	const struct mlx_knob_value *kv;
	uint8_t req[256];
	char path[320], val[64];
	int fam, len, r;

	if (!k)
		return -EINVAL;
	r = refresh(ctx, w);
	if (r < 0)
		return r;
	kv = find_row(w, k);
	/* whatever happens next, the state read is stale */
	if (k->src == MLX_KS_MODULE || k->src == MLX_KS_RDMA) {
		if (k->src == MLX_KS_MODULE) {
			snprintf(path, sizeof(path), "/sys/module/mlx5_core/parameters/%s", k->kname);
		} else if (!strcmp(k->kname, "traffic_class") && v->kind == MLX_VAL_STR) {
			/* a rollback to "unset": nothing writes the file empty */
			mlx_params_writer_free(w);
			return mlx_err(ctx, ENODATA, "cannot put %s back to '%s': no write "
				       "restores it", k->name, v->s);
		} else if (!strcmp(k->kname, "traffic_class")) {
			snprintf(path, sizeof(path), "/sys/class/infiniband/%s/tc/%u/traffic_class",
				 w->rdma_dev ? w->rdma_dev : "", w->rdma_port ? w->rdma_port : 1);
		} else if (mlx_rdma_cm_path(path, sizeof(path), w->rdma_dev,
					    w->rdma_port ? w->rdma_port : 1, k->kname) < 0) {
			mlx_params_writer_free(w);
			return mlx_err(ctx, EINVAL, "%s: no RDMA device: no RDMA CM defaults", k->name);
		}
		mlx_val_fmt(v, val, sizeof(val));
		if (v->kind == MLX_VAL_BOOL)
			snprintf(val, sizeof(val), "%d", v->b);
		mlx_params_writer_free(w);
		r = mlx_kernel_write(ctx, path, val);
		return r < 0 ? mlx_err(ctx, -r, "cannot write %s: %s", path, strerror(-r)) : 0;
	}
	len = mlx_params_req_build(k, w->ifname, w->bdf, kv ? kv->dl_type : 0, v, req,
				   sizeof(req), &fam);
	mlx_params_writer_free(w);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the request that sets %s: %s", k->name,
			       strerror(-len));
	return mlx_nl_query(ctx, (enum mlx_nl_family)fam,
			    fam == MLX_NL_DEVLINK ? "all" : w->ifname,
			    fam == MLX_NL_DEVLINK ? "param-set" : "params-set", req, (size_t)len,
			    ignore, NULL);
}

const struct mlx_write_ops mlx_params_write_ops = {
	.read = pw_read,
	.plan = pw_plan,
	.write = pw_write,
};
