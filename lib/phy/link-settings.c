/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The link's settings (issue 27): pause (ETHTOOL_MSG_PAUSE_SET), speed,
 * duplex and autonegotiation (LINKMODES_SET), FEC (FEC_SET), as a
 * subsystem of the settings model (lib/settings.h MLX_SUB_LINK): read
 * from the replies `mlxcli link` decodes, planned, one request per
 * setting through the write engine, read back, put back newest first.
 *
 * What a value means where the kernel's reply says something else:
 *  - speed_mbps with autonegotiation on is the speed the port advertises
 *    (the kernel chose the modes of that speed: net/ethtool/linkmodes.c
 *    ethnl_auto_linkmodes), read back as the one speed of the advertised
 *    modes (null when they are of several); with autonegotiation off, the
 *    forced speed the kernel reports;
 *  - fec is the configured mode (FEC_MODES and FEC_AUTO), not the active
 *    one: auto, off ("None"), rs, baser, llrs, as ethtool --set-fec
 *    encoding names them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>

#include "dcb.h"
#include "mlx-private.h"
#include "nl.h"
#include "phy.h"
#include "settings-private.h"

static const char *const field_names[MLX_LINK_NFIELDS] = {
	[MLX_LINK_PAUSE_AUTONEG] = "pause.autoneg",
	[MLX_LINK_PAUSE_RX] = "pause.rx",
	[MLX_LINK_PAUSE_TX] = "pause.tx",
	[MLX_LINK_AUTONEG] = "autoneg",
	[MLX_LINK_SPEED] = "speed_mbps",
	[MLX_LINK_DUPLEX] = "duplex",
	[MLX_LINK_FEC] = "fec",
};

const char *mlx_link_field_name(enum mlx_link_field f)
{
	return (unsigned)f < MLX_LINK_NFIELDS ? field_names[f] : "?";
}

/* enum mlx_fec_mode, and the kernel's link mode names of the FEC bits
 * (net/ethtool/common.c link_mode_names: FEC_NONE "None", FEC_RS "RS",
 * FEC_BASER "BASER", FEC_LLRS "LLRS"). */
static const char *const fec_names[MLX_FEC_NMODES] = { "auto", "off", "rs", "baser", "llrs" };
static const char *const fec_knames[MLX_FEC_NMODES] = { NULL, "None", "RS", "BASER", "LLRS" };

int mlx_fec_mode_parse(const char *s, uint8_t *mode)
{
	for (unsigned i = 0; i < MLX_FEC_NMODES; i++)
		if (!strcmp(s, fec_names[i])) {
			*mode = (uint8_t)i;
			return 0;
		}
	return -EINVAL;
}

const char *mlx_fec_mode_name(unsigned mode)
{
	return mode < MLX_FEC_NMODES ? fec_names[mode] : NULL;
}

/* ---- requests ---- */

int mlx_link_set_build(void *buf, size_t cap, const char *ifname, enum mlx_link_field f,
		       uint64_t v)
{
	static const uint8_t cmd[MLX_LINK_NFIELDS] = {
		[MLX_LINK_PAUSE_AUTONEG] = ETHTOOL_MSG_PAUSE_SET,
		[MLX_LINK_PAUSE_RX] = ETHTOOL_MSG_PAUSE_SET,
		[MLX_LINK_PAUSE_TX] = ETHTOOL_MSG_PAUSE_SET,
		[MLX_LINK_AUTONEG] = ETHTOOL_MSG_LINKMODES_SET,
		[MLX_LINK_SPEED] = ETHTOOL_MSG_LINKMODES_SET,
		[MLX_LINK_DUPLEX] = ETHTOOL_MSG_LINKMODES_SET,
		[MLX_LINK_FEC] = ETHTOOL_MSG_FEC_SET,
	};
	struct mlx_nlbuf b;

	if ((unsigned)f >= MLX_LINK_NFIELDS || !ifname)
		return -EINVAL;
	if (f == MLX_LINK_FEC && v >= MLX_FEC_NMODES)
		return -EINVAL;
	if (f == MLX_LINK_SPEED && (v == 0 || v > UINT32_MAX - 1))
		return -EINVAL;
	mlx_nlb_init(&b, buf, cap);
	mlx_ethtool_req_start(&b, cmd[f], NLM_F_ACK, ifname, 0);
	switch (f) {
	case MLX_LINK_PAUSE_AUTONEG:
		mlx_nlb_u8(&b, ETHTOOL_A_PAUSE_AUTONEG, v != 0);
		break;
	case MLX_LINK_PAUSE_RX:
		mlx_nlb_u8(&b, ETHTOOL_A_PAUSE_RX, v != 0);
		break;
	case MLX_LINK_PAUSE_TX:
		mlx_nlb_u8(&b, ETHTOOL_A_PAUSE_TX, v != 0);
		break;
	case MLX_LINK_AUTONEG:
		mlx_nlb_u8(&b, ETHTOOL_A_LINKMODES_AUTONEG, v ? AUTONEG_ENABLE : AUTONEG_DISABLE);
		break;
	case MLX_LINK_SPEED:
		mlx_nlb_u32(&b, ETHTOOL_A_LINKMODES_SPEED, (uint32_t)v);
		break;
	case MLX_LINK_DUPLEX:
		mlx_nlb_u8(&b, ETHTOOL_A_LINKMODES_DUPLEX, v ? DUPLEX_FULL : DUPLEX_HALF);
		break;
	case MLX_LINK_FEC: {
		/* the whole set of modes (NOMASK replaces it: ethnl_update_bitset),
		 * by name as ethtool --set-fec sends them; auto is the AUTO flag
		 * with no mode (net/ethtool/fec.c ethtool_link_modes_to_fecparam) */
		size_t bs = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_FEC_MODES), bits;

		mlx_nlb_attr(&b, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
		bits = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS);
		if (fec_knames[v]) {
			size_t bit = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS_BIT);

			mlx_nlb_str(&b, ETHTOOL_A_BITSET_BIT_NAME, fec_knames[v]);
			mlx_nlb_nest_end(&b, bit);
		}
		mlx_nlb_nest_end(&b, bits);
		mlx_nlb_nest_end(&b, bs);
		mlx_nlb_u8(&b, ETHTOOL_A_FEC_AUTO, v == MLX_FEC_AUTO);
		break;
	}
	default:
		return -EINVAL;
	}
	return mlx_nlb_finish(&b);
}

static int why_say(char *why, size_t len, const char *text)
{
	if (why && len)
		snprintf(why, len, "%s", text);
	return -EINVAL;
}

/* A FEC_MODES bitset of a request: the names of its bits. */
static int fec_modes(const struct mlx_nla *bs, uint8_t *bits, char *why, size_t whylen)
{
	struct mlx_nla a, bit, f;
	size_t off = 0;
	int r;

	*bits = 0;
	while ((r = mlx_nla_next(bs->data, bs->len, &off, &a)) == 1) {
		size_t o2 = 0;

		if (a.type != ETHTOOL_A_BITSET_BITS)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &o2, &bit)) == 1) {
			size_t o3 = 0;
			char name[16] = "";
			unsigned i;

			if (bit.type != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			while ((r = mlx_nla_next(bit.data, bit.len, &o3, &f)) == 1)
				if (f.type == ETHTOOL_A_BITSET_BIT_NAME)
					mlx_nla_str(&f, name, sizeof(name));
			if (r < 0)
				return why_say(why, whylen, "a truncated FEC mode");
			for (i = 1; i < MLX_FEC_NMODES && strcmp(fec_knames[i], name); i++)
				;
			if (i == MLX_FEC_NMODES)
				return why_say(why, whylen, "an unknown FEC mode");
			*bits |= (uint8_t)(1u << i);
		}
		if (r < 0)
			return why_say(why, whylen, "a truncated FEC mode list");
	}
	return r < 0 ? why_say(why, whylen, "a truncated FEC bitset") : 0;
}

int mlx_link_set_parse(const void *req, size_t len, struct mlx_link_set_req *out, char *why,
		       size_t whylen)
{
	const struct nlmsghdr *h = req;
	const uint8_t *attrs;
	struct mlx_nla a;
	size_t alen, off = 0;
	uint8_t u8, cmd;
	uint32_t u32;
	int r;

	memset(out, 0, sizeof(*out));
	if (mlx_genlmsg_attrs(h, len, &cmd, &attrs, &alen) < 0 || h->nlmsg_len != len)
		return why_say(why, whylen, "a short or malformed request");
	if (cmd != ETHTOOL_MSG_PAUSE_SET && cmd != ETHTOOL_MSG_LINKMODES_SET &&
	    cmd != ETHTOOL_MSG_FEC_SET)
		return -ENOENT;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		int f = -1;

		/* attribute 1 of every message is its header */
		if (a.type == 1) {
			if (mlx_ethtool_header_decode(&a, out->ifname, sizeof(out->ifname), NULL) < 0)
				return why_say(why, whylen, "a malformed header");
			continue;
		}
		if (cmd == ETHTOOL_MSG_PAUSE_SET)
			f = a.type == ETHTOOL_A_PAUSE_AUTONEG ? MLX_LINK_PAUSE_AUTONEG :
			    a.type == ETHTOOL_A_PAUSE_RX ? MLX_LINK_PAUSE_RX :
			    a.type == ETHTOOL_A_PAUSE_TX ? MLX_LINK_PAUSE_TX : -1;
		else if (cmd == ETHTOOL_MSG_LINKMODES_SET)
			f = a.type == ETHTOOL_A_LINKMODES_AUTONEG ? MLX_LINK_AUTONEG :
			    a.type == ETHTOOL_A_LINKMODES_SPEED ? MLX_LINK_SPEED :
			    a.type == ETHTOOL_A_LINKMODES_DUPLEX ? MLX_LINK_DUPLEX : -1;
		else if (a.type == ETHTOOL_A_FEC_MODES) {
			if (fec_modes(&a, &out->fec_modes, why, whylen) < 0)
				return -EINVAL;
			out->fec_modes_given = true;
			continue;
		} else if (a.type == ETHTOOL_A_FEC_AUTO) {
			if (mlx_nla_u8(&a, &u8) < 0)
				return why_say(why, whylen, "a short FEC_AUTO");
			out->has[MLX_LINK_FEC] = true;
			out->v[MLX_LINK_FEC] = u8 != 0;
			continue;
		}
		if (f < 0)
			return why_say(why, whylen, "an attribute this request does not take");
		if (f == MLX_LINK_SPEED) {
			if (mlx_nla_u32(&a, &u32) < 0)
				return why_say(why, whylen, "a short speed");
			out->v[f] = u32;
		} else {
			if (mlx_nla_u8(&a, &u8) < 0)
				return why_say(why, whylen, "a short value");
			out->v[f] = f == MLX_LINK_AUTONEG ? u8 == AUTONEG_ENABLE :
				    f == MLX_LINK_DUPLEX ? u8 == DUPLEX_FULL : u8 != 0;
		}
		out->has[f] = true;
	}
	if (r < 0)
		return why_say(why, whylen, "a truncated attribute");
	if (!out->ifname[0])
		return why_say(why, whylen, "no device named");
	return 0;
}

static int write_err(struct mlx_ctx *ctx, const char *ifname, enum mlx_link_field f, int q)
{
	const char *why = q == -EOPNOTSUPP ? "not supported by the driver" : strerror(-q);

	return mlx_err(ctx, -q, "cannot set %s of '%s': %s%s%s", field_names[f], ifname, why,
		       *mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
}

int mlx_link_set(struct mlx_ctx *ctx, const char *ifname, enum mlx_link_field f, uint64_t v)
{
	uint8_t req[256];
	int len, q;

	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	len = mlx_link_set_build(req, sizeof(req), ifname, f, v);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the request for %s of '%s'", field_names[f],
			       ifname);
	q = mlx_nl_query(ctx, MLX_NL_ETHTOOL, ifname, "link-set", req, (size_t)len, NULL, NULL);
	return q < 0 ? write_err(ctx, ifname, f, q) : 0;
}

/* ---- what a reply says ---- */

uint8_t mlx_link_fec_bits(const struct mlx_link *l)
{
	uint8_t bits = l->fec_auto == 1 ? 1u << MLX_FEC_AUTO : 0;

	for (size_t i = 0; i < l->fec_configured.n; i++)
		for (unsigned m = 1; m < MLX_FEC_NMODES; m++)
			if (!strcmp(l->fec_configured.name[i], fec_knames[m]))
				bits |= (uint8_t)(1u << m);
	return bits;
}

int64_t mlx_link_advertised_speed(const struct mlx_link *l)
{
	int64_t s = 0;

	for (size_t i = 0; i < l->advertised.n; i++) {
		int64_t v = mlx_link_mode_speed(l->advertised.name[i]);

		/* the FEC and pause "modes" have no speed */
		if (!v)
			continue;
		if (s && v != s)
			return 0;
		s = v;
	}
	return s;
}

/* The one mode of @bits (auto wins over the modes it tries), or -1. */
static int fec_one(uint8_t bits)
{
	if (bits & (1u << MLX_FEC_AUTO))
		return MLX_FEC_AUTO;
	for (int m = 1; m < MLX_FEC_NMODES; m++)
		if (bits == (1u << m))
			return m;
	return -1;
}

/* The value of @f in @l as a setting: null when the kernel does not say. */
static struct mlx_val field_val(const struct mlx_link *l, enum mlx_link_field f)
{
	int64_t s;
	int m;

	switch (f) {
	case MLX_LINK_PAUSE_AUTONEG:
		return l->pause_err || l->pause_autoneg < 0 ? mlx_val_null() : mlx_val_bool(l->pause_autoneg);
	case MLX_LINK_PAUSE_RX:
		return l->pause_err || l->pause_rx < 0 ? mlx_val_null() : mlx_val_bool(l->pause_rx);
	case MLX_LINK_PAUSE_TX:
		return l->pause_err || l->pause_tx < 0 ? mlx_val_null() : mlx_val_bool(l->pause_tx);
	case MLX_LINK_AUTONEG:
		return l->modes_err || l->autoneg < 0 ? mlx_val_null() : mlx_val_bool(l->autoneg);
	case MLX_LINK_SPEED:
		if (l->modes_err || l->autoneg < 0)
			return mlx_val_null();
		s = l->autoneg ? mlx_link_advertised_speed(l) : l->speed_mbps;
		return s > 0 ? mlx_val_uint((uint64_t)s) : mlx_val_null();
	case MLX_LINK_DUPLEX:
		return l->modes_err || l->duplex < 0 ? mlx_val_null() :
		       mlx_val_str(l->duplex ? "full" : "half");
	case MLX_LINK_FEC:
		m = l->fec_err ? -1 : fec_one(mlx_link_fec_bits(l));
		return m < 0 ? mlx_val_null() : mlx_val_str(fec_names[m]);
	default:
		return mlx_val_null();
	}
}

/* ---- the settings model ---- */

int mlx_link_put_speed(struct mlx_ctx *ctx, struct mlx_link_settings *l, int64_t mbps)
{
	/* a u32 of Mb/s; SPEED_UNKNOWN (-1) is no speed to ask for */
	if (mbps <= 0 || mbps >= (int64_t)UINT32_MAX)
		return mlx_err(ctx, ERANGE, "%" PRId64 " is out of range (1-4294967294 Mb/s)", mbps);
	l->have = l->speed_h = MLX_SET;
	l->speed_mbps = (uint32_t)mbps;
	return 0;
}

int mlx_link_put_duplex(struct mlx_ctx *ctx, struct mlx_link_settings *l, const char *text)
{
	if (strcmp(text, "full") && strcmp(text, "half"))
		return mlx_err(ctx, EINVAL, "'%s' is not a duplex: full or half", text);
	l->have = l->duplex_h = MLX_SET;
	l->duplex_full = !strcmp(text, "full");
	return 0;
}

int mlx_link_put_fec(struct mlx_ctx *ctx, struct mlx_link_settings *l, const char *text)
{
	uint8_t m;

	if (mlx_fec_mode_parse(text, &m) < 0)
		return mlx_err(ctx, EINVAL, "'%s' is not a FEC mode: auto, off, rs, baser or llrs", text);
	l->have = l->fec_h = MLX_SET;
	l->fec = m;
	return 0;
}

static void from_link(struct mlx_link_settings *s, const struct mlx_link *l)
{
	struct mlx_val v;

	memset(s, 0, sizeof(*s));
	s->have = MLX_SET;
#define TRI(f, h, dst) do { v = field_val(l, f); (h) = v.kind == MLX_VAL_NULL ? MLX_NULL : MLX_SET; \
		(dst) = v.kind == MLX_VAL_BOOL && v.b; } while (0)
	TRI(MLX_LINK_PAUSE_AUTONEG, s->pause_autoneg_h, s->pause_autoneg);
	TRI(MLX_LINK_PAUSE_RX, s->pause_rx_h, s->pause_rx);
	TRI(MLX_LINK_PAUSE_TX, s->pause_tx_h, s->pause_tx);
	TRI(MLX_LINK_AUTONEG, s->autoneg_h, s->autoneg);
#undef TRI
	v = field_val(l, MLX_LINK_SPEED);
	s->speed_h = v.kind == MLX_VAL_NULL ? MLX_NULL : MLX_SET;
	s->speed_mbps = v.kind == MLX_VAL_UINT ? (uint32_t)v.u : 0;
	s->duplex_h = l->modes_err || l->duplex < 0 ? MLX_NULL : MLX_SET;
	s->duplex_full = l->duplex == 1;
	s->fec_modes = l->fec_err ? 0 : mlx_link_fec_bits(l);
	v = field_val(l, MLX_LINK_FEC);
	s->fec_h = v.kind == MLX_VAL_NULL ? MLX_NULL : MLX_SET;
	if (v.kind == MLX_VAL_STR)
		mlx_fec_mode_parse(v.s, &s->fec);
}

void mlx_link_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		    struct mlx_port_settings *out)
{
	struct mlx_link *l;

	memset(&out->link, 0, sizeof(out->link));
	out->link.have = MLX_NULL;
	/* a VF's link is its PF's port; no netdev, no ethtool */
	if (!t->ifname || (t->fn && t->fn->role == MLX_FN_VF) || !(l = malloc(sizeof(*l))))
		return;
	if (mlx_link_get(rd->ctx, t->ifname, l) == 0 &&
	    (!l->modes_err || !l->fec_err || !l->pause_err))
		from_link(&out->link, l);
	mlx_err_clear(rd->ctx);
	free(l);
}

bool mlx_link_wanted(const struct mlx_port_settings *want, size_t vf)
{
	const struct mlx_link_settings *l = &want->link;

	(void)vf;
	return l->pause_autoneg_h == MLX_SET || l->pause_rx_h == MLX_SET || l->pause_tx_h == MLX_SET ||
	       l->autoneg_h == MLX_SET || l->speed_h == MLX_SET || l->duplex_h == MLX_SET ||
	       l->fec_h == MLX_SET;
}

int mlx_link_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_link_writer *w = feat;

	(void)ctx;
	(void)parent;
	memset(w, 0, sizeof(*w));
	w->ifname = t->ifname;
	w->on = mlx_port_ref_name(t);
	/* mlx5 keeps global pause and PFC in one register, each write
	 * clearing the other (port.c mlx5_set_port_pause): only a ConnectX
	 * port's PFC is at stake */
	if (t->fn && t->ifname) {
		struct mlx_dcb_state *st = malloc(sizeof(*st));

		if (st && mlx_dcb_get(ctx, t->ifname, st) == 0 && st->has_pfc && st->pfc.pfc_en) {
			w->pfc_on = true;
			w->pfc_en = st->pfc.pfc_en;
		}
		free(st);
		mlx_err_clear(ctx);
	}
	return 0;
}

static int add(struct mlx_ctx *ctx, struct mlx_plan *pl, enum mlx_link_field f, struct mlx_val v)
{
	static const char *const unit[MLX_LINK_NFIELDS] = { [MLX_LINK_SPEED] = "Mbit/s" };

	if (mlx_plan_add(pl, field_names[f], unit[f], (int)f, 0, v) < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	return 0;
}

int mlx_link_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		       size_t vf, struct mlx_plan *pl)
{
	struct mlx_link_writer *w = feat;
	const struct mlx_link_settings *l = &want->link;
	int e = 0;

	(void)vf;
	if (!w->ifname)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "link", "%s has no network interface: no "
				     "link settings", w->on);
	/* autonegotiation before the speed it governs, duplex with the speed */
	if (l->autoneg_h == MLX_SET)
		e = add(ctx, pl, MLX_LINK_AUTONEG, mlx_val_bool(l->autoneg));
	if (!e && l->speed_h == MLX_SET)
		e = add(ctx, pl, MLX_LINK_SPEED, mlx_val_uint(l->speed_mbps));
	if (!e && l->duplex_h == MLX_SET)
		e = add(ctx, pl, MLX_LINK_DUPLEX, mlx_val_str(l->duplex_full ? "full" : "half"));
	if (!e && l->fec_h == MLX_SET) {
		if (l->fec >= MLX_FEC_NMODES)
			return mlx_plan_fail(ctx, pl, EINVAL, "link.fec", "no such FEC mode");
		e = add(ctx, pl, MLX_LINK_FEC, mlx_val_str(fec_names[l->fec]));
	}
	if (!e && l->pause_autoneg_h == MLX_SET)
		e = add(ctx, pl, MLX_LINK_PAUSE_AUTONEG, mlx_val_bool(l->pause_autoneg));
	if (!e && l->pause_rx_h == MLX_SET)
		e = add(ctx, pl, MLX_LINK_PAUSE_RX, mlx_val_bool(l->pause_rx));
	if (!e && l->pause_tx_h == MLX_SET)
		e = add(ctx, pl, MLX_LINK_PAUSE_TX, mlx_val_bool(l->pause_tx));
	if (e)
		return e;
	/* global pause on over PFC: on mlx5 the write turns PFC off (one
	 * register, PFCC: port.c mlx5_set_port_pause writes pfctx/pfcrx 0) */
	if (w->pfc_on && ((l->pause_rx_h == MLX_SET && l->pause_rx) ||
			  (l->pause_tx_h == MLX_SET && l->pause_tx))) {
		for (size_t i = 0; i < pl->n; i++)
			if ((pl->c[i].id == MLX_LINK_PAUSE_RX || pl->c[i].id == MLX_LINK_PAUSE_TX) &&
			    pl->c[i].new.kind == MLX_VAL_BOOL && pl->c[i].new.b) {
				pl->c[i].flags |= MLX_CHG_DESTROYS;
				pl->c[i].note = "global pause and PFC share one register on mlx5: "
						"this turns PFC off on the port";
			}
	}
	return 0;
}

/* ---- the write engine's operations ---- */

static int lk_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct mlx_link_writer *w = feat;
	struct mlx_link *l = malloc(sizeof(*l));
	int e, err;

	if (!l)
		return mlx_err(ctx, ENOMEM, "out of memory");
	e = mlx_link_get(ctx, w->ifname, l);
	if (e == 0) {
		err = c->id <= MLX_LINK_PAUSE_TX ? l->pause_err : c->id == MLX_LINK_FEC ? l->fec_err :
		      l->modes_err;
		if (err == -EOPNOTSUPP || err == -ENODATA)
			e = mlx_err(ctx, EOPNOTSUPP, "'%s' has no %s setting (%s)", w->ifname,
				    c->id <= MLX_LINK_PAUSE_TX ? "pause" : c->id == MLX_LINK_FEC ? "FEC" :
				    "link mode", err == -ENODATA ? "the capture has no reply" :
				    "not supported by the driver");
		else if (err < 0)
			e = mlx_err(ctx, -err, "cannot read %s of '%s': %s", field_names[c->id], w->ifname,
				    strerror(-err));
		else
			*out = field_val(l, (enum mlx_link_field)c->id);
	}
	free(l);
	return e;
}

static int lk_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_link_writer *w = feat;
	uint8_t m = 0;
	uint64_t u;
	int e;

	if (c->id < 0 || c->id >= MLX_LINK_NFIELDS)
		return mlx_err(ctx, EINVAL, "no such link setting");
	/* unknown before (null): nothing to put back */
	if (v->kind == MLX_VAL_NULL)
		return 0;
	switch (c->id) {
	case MLX_LINK_FEC:
		if (v->kind != MLX_VAL_STR || mlx_fec_mode_parse(v->s, &m) < 0)
			return mlx_err(ctx, EINVAL, "no such FEC mode");
		u = m;
		break;
	case MLX_LINK_DUPLEX:
		u = v->kind == MLX_VAL_STR && !strcmp(v->s, "full");
		break;
	case MLX_LINK_SPEED:
		u = v->u;
		break;
	default:
		u = v->kind == MLX_VAL_BOOL ? v->b : v->u != 0;
		break;
	}
	e = mlx_link_set(ctx, w->ifname, (enum mlx_link_field)c->id, u);
	if (e == 0 && w->pfc_on && (c->id == MLX_LINK_PAUSE_RX || c->id == MLX_LINK_PAUSE_TX)) {
		if (v == &c->new && u)
			w->pfc_cleared = true;
		else if (v == &c->old && w->pfc_cleared)
			w->pfc_restore = true;
	}
	return e;
}

/* After a put-back of pause: the PFC a pause-on write of this run turned
 * off, back as it was at the plan, in one PFC request (which on mlx5
 * leaves pause off, as the put-back wants).  Without it a failed `link
 * set pause rx on tx on` put pause back and left PFC off: seen in the
 * fault matrix (tests/cli/fault-matrix.sh, link-pause). */
static int lk_flush(struct mlx_ctx *ctx, void *feat)
{
	struct mlx_link_writer *w = feat;
	struct mlx_dcb_state *st;
	struct mlx_dcb_msg m = { 0 };
	int e;

	if (!w->pfc_restore)
		return 0;
	st = malloc(sizeof(*st));
	if (!st)
		return mlx_err(ctx, ENOMEM, "out of memory");
	e = mlx_dcb_get(ctx, w->ifname, st);
	if (e == 0 && !st->has_pfc)
		e = mlx_err(ctx, EOPNOTSUPP, "'%s' no longer reports PFC", w->ifname);
	if (e == 0) {
		st->pfc.pfc_en = w->pfc_en;
		m.pfc = &st->pfc;
		e = mlx_dcb_send(ctx, w->ifname, DCB_CMD_IEEE_SET, &m, 0);
	}
	if (e == 0)
		w->pfc_cleared = w->pfc_restore = false;
	free(st);
	return e;
}

const struct mlx_write_ops mlx_link_write_ops = {
	.read = lk_read,
	.write = lk_write,
	.flush = lk_flush,
};

/* ---- diff, merge ---- */

void mlx_link_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	const struct mlx_link_settings *l = &p->link;
	struct mlx_val v;

	if (l->have == MLX_NULL) {
		mlx_flat_null(fn, arg, "link");
		return;
	}
	v = mlx_val_bool(l->autoneg);
	mlx_flat_val(fn, arg, "link.autoneg", l->autoneg_h, &v);
	v = mlx_val_uint(l->speed_mbps);
	mlx_flat_val(fn, arg, "link.speed_mbps", l->speed_h, &v);
	v = mlx_val_str(l->duplex_full ? "full" : "half");
	mlx_flat_val(fn, arg, "link.duplex", l->duplex_h, &v);
	v = mlx_val_str(mlx_fec_mode_name(l->fec) ? mlx_fec_mode_name(l->fec) : "");
	mlx_flat_val(fn, arg, "link.fec", l->fec_h, &v);
	v = mlx_val_bool(l->pause_autoneg);
	mlx_flat_val(fn, arg, "link.pause.autoneg", l->pause_autoneg_h, &v);
	v = mlx_val_bool(l->pause_rx);
	mlx_flat_val(fn, arg, "link.pause.rx", l->pause_rx_h, &v);
	v = mlx_val_bool(l->pause_tx);
	mlx_flat_val(fn, arg, "link.pause.tx", l->pause_tx_h, &v);
}

int mlx_link_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add_)
{
	struct mlx_link_settings *d = &pd->link;
	const struct mlx_link_settings *s = &ps->link;

	(void)add_;
	if (s->have != MLX_SET)
		return 0;
	d->have = MLX_SET;
#define M(h, f) do { if (s->h == MLX_SET) { d->h = MLX_SET; d->f = s->f; } } while (0)
	M(pause_autoneg_h, pause_autoneg);
	M(pause_rx_h, pause_rx);
	M(pause_tx_h, pause_tx);
	M(autoneg_h, autoneg);
	M(speed_h, speed_mbps);
	M(duplex_h, duplex_full);
	M(fec_h, fec);
#undef M
	return 0;
}
