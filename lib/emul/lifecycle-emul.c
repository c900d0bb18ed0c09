/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of issue 27's writes on a captured system, fed the
 * request bytes the live path sends (lib/debug/health-policy.c,
 * lib/phy/link-settings.c), parsed back:
 *  - DEVLINK_CMD_HEALTH_REPORTER_SET changes the reporter's attributes in
 *    the recorded netlink/devlink/<obj>/health-get.nl, as the next GET
 *    would answer; a field the recorded reporter does not carry is
 *    EOPNOTSUPP, as devlink refuses it (no recover op, no dump op);
 *  - ETHTOOL_MSG_PAUSE_SET, LINKMODES_SET and FEC_SET change the recorded
 *    netlink/ethtool/<if>/{pause,linkmodes,fec}-get.nl: the flags in
 *    place, FEC_MODES anew (a NOMASK list of the configured modes, as
 *    net/ethtool/fec.c answers), and a speed asked with autonegotiation
 *    on as the advertised modes of that speed among the supported ones
 *    (net/ethtool/linkmodes.c ethnl_auto_linkmodes); global pause turned
 *    on clears the port's PFC (mlx5's one register, PFCC: emul.h), and a
 *    PFC write of the DCB emulator clears pause here (mlx_emul_pause_clear).
 * Each file is replaced whole (mlx_replace_file: the transaction's
 * journal keeps the old one).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "health.h"
#include "emul.h"
#include "mlx-private.h"
#include "nl.h"
#include "phy.h"
#include "settings.h"
#include "snapshot.h"

struct reply {
	char path[512];
	uint8_t *b;
	size_t len;
};

static int reply_load(struct mlx_ctx *ctx, struct reply *f, const char *fam, const char *obj,
		      const char *name)
{
	char *data = NULL;
	int r;

	memset(f, 0, sizeof(*f));
	if (mlx_netlink_capture_path(f->path, sizeof(f->path), fam, obj, name) < 0)
		return mlx_err(ctx, EINVAL, "'%s' is not a usable object name", obj);
	r = mlx_read_file(ctx, f->path, &data, &f->len);
	if (r == -ENOENT)
		return mlx_err(ctx, EOPNOTSUPP, "the captured system %s has no %s reply for '%s' to "
			       "change", mlx_root(ctx), name, obj);
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read %s: %s", f->path, strerror(-r));
	f->b = (uint8_t *)data;
	return 0;
}

/* The data messages of the file, each with its attributes after the genl
 * header: @fn gets the message's offset and may edit the file. */
static int each_msg(struct reply *f, int (*fn)(struct reply *f, size_t msg, void *arg), void *arg)
{
	size_t off = 0;

	while (off + NLMSG_HDRLEN <= f->len) {
		struct nlmsghdr h;
		int r;

		memcpy(&h, f->b + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > f->len - off)
			return -EBADMSG;
		if (h.nlmsg_type != NLMSG_DONE && h.nlmsg_type != NLMSG_ERROR &&
		    h.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN) {
			r = fn(f, off, arg);
			if (r)
				return r;
			memcpy(&h, f->b + off, sizeof(h));   /* an edit may resize it */
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return 0;
}

/* Replace @oldlen bytes at @at of the message at @msg with @nw (a whole
 * top-level attribute, 4-aligned): nlmsg_len follows. */
static int splice_msg(struct reply *f, size_t msg, size_t at, size_t oldlen, const uint8_t *nw,
		      size_t newlen)
{
	uint32_t ml;
	uint8_t *b;

	if (newlen > oldlen) {
		b = realloc(f->b, f->len + newlen - oldlen);
		if (!b)
			return -ENOMEM;
		f->b = b;
	}
	memmove(f->b + at + newlen, f->b + at + oldlen, f->len - at - oldlen);
	memcpy(f->b + at, nw, newlen);
	f->len = f->len + newlen - oldlen;
	memcpy(&ml, f->b + msg, 4);
	ml = (uint32_t)(ml + newlen - oldlen);
	memcpy(f->b + msg, &ml, 4);
	return 0;
}

/* The top-level attribute @type of the message at @msg: its offset in the
 * file and its whole length (header included, aligned); 0 when absent. */
static size_t find_attr(const struct reply *f, size_t msg, uint16_t type, size_t *alen)
{
	struct nlmsghdr h;
	size_t off, end;

	memcpy(&h, f->b + msg, sizeof(h));
	off = msg + NLMSG_HDRLEN + GENL_HDRLEN;
	end = msg + h.nlmsg_len;
	while (off + NLA_HDRLEN <= end) {
		struct nlattr a;

		memcpy(&a, f->b + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || (size_t)a.nla_len > end - off)
			return 0;
		if ((a.nla_type & NLA_TYPE_MASK) == type) {
			*alen = (size_t)NLA_ALIGN(a.nla_len) <= end - off ? (size_t)NLA_ALIGN(a.nla_len) : a.nla_len;
			return off;
		}
		off += NLA_ALIGN(a.nla_len);
	}
	return 0;
}

/* ---- HEALTH_REPORTER_SET ---- */

struct hset {
	const struct mlx_health_set_req *rq;
	bool found;
	int err;
};

static int hset_msg(struct reply *f, size_t msg, void *arg)
{
	static const uint16_t fattr[MLX_HEALTH_NFIELDS] = {
		DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER,
		DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP,
	};
	struct hset *hs = arg;
	struct nlmsghdr h;
	const uint8_t *attrs;
	size_t alen, off = 0, nest_at = 0;
	struct mlx_nla a, nest = { 0 };
	char name[64] = "";
	int64_t port = -1;
	uint32_t u32;

	memcpy(&h, f->b + msg, sizeof(h));
	if (mlx_nlmsg_attrs((const struct nlmsghdr *)(f->b + msg), h.nlmsg_len, GENL_HDRLEN, &attrs,
			    &alen) < 0)
		return -EBADMSG;
	while (mlx_nla_next(attrs, alen, &off, &a) == 1) {
		if (a.type == DEVLINK_ATTR_PORT_INDEX && mlx_nla_u32(&a, &u32) == 0)
			port = u32;
		else if (a.type == DEVLINK_ATTR_HEALTH_REPORTER) {
			nest = a;
			nest_at = (size_t)(a.data - f->b);
		}
	}
	if (!nest.data || port != hs->rq->port_index)
		return 0;
	off = 0;
	while (mlx_nla_next(nest.data, nest.len, &off, &a) == 1)
		if (a.type == DEVLINK_ATTR_HEALTH_REPORTER_NAME)
			mlx_nla_str(&a, name, sizeof(name));
	if (strcmp(name, hs->rq->reporter))
		return 0;
	hs->found = true;
	for (int fl = 0; fl < MLX_HEALTH_NFIELDS; fl++) {
		bool there = false;

		if (!hs->rq->has[fl])
			continue;
		off = 0;
		while (mlx_nla_next(f->b + nest_at, nest.len, &off, &a) == 1) {
			uint8_t *p = (uint8_t *)a.data;

			if (a.type != fattr[fl])
				continue;
			there = true;
			if (fl == 0 && a.len >= 8)
				memcpy(p, &hs->rq->v[fl], 8);
			else if (fl && a.len >= 1)
				p[0] = (uint8_t)hs->rq->v[fl];
		}
		/* devlink refuses a field of a reporter without its op */
		if (!there)
			hs->err = -EOPNOTSUPP;
	}
	return 1;
}

bool mlx_emul_health_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct genlmsghdr g;

	if (fam != MLX_NL_DEVLINK || len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	return g.cmd == DEVLINK_CMD_HEALTH_REPORTER_SET;
}

int mlx_emul_health_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req,
			    size_t len, mlx_nl_cb cb, void *arg)
{
	struct mlx_health_set_req rq;
	struct hset hs = { &rq, false, 0 };
	struct reply f;
	char why[80] = "", obj[128];
	int r;

	(void)fam;
	(void)cb;
	(void)arg;
	if (mlx_health_set_parse(req, len, &rq, why, sizeof(why)) < 0) {
		mlx_nl_set_extack(ctx, why);
		return -EINVAL;
	}
	snprintf(obj, sizeof(obj), "%s:%s", rq.bus, rq.dev);
	r = reply_load(ctx, &f, "devlink", obj, "health-get");
	if (r < 0)
		return r;
	r = each_msg(&f, hset_msg, &hs);
	if (r >= 0 && !hs.found) {
		/* devlink_health_reporter_get_from_info: no such reporter */
		mlx_nl_set_extack(ctx, "");
		r = -EINVAL;
	} else if (r >= 0 && hs.err) {
		r = hs.err;
	} else if (r >= 0) {
		r = mlx_replace_file(ctx, f.path, f.b, f.len);
	}
	free(f.b);
	return r < 0 ? r : 0;
}

/* ---- PAUSE_SET, LINKMODES_SET, FEC_SET ---- */

struct lset {
	const struct mlx_link_set_req *rq;
	int err;
};

/* A u8 or u32 attribute set in place; -EOPNOTSUPP when the reply lacks it. */
static int put_in_place(struct reply *f, size_t msg, uint16_t type, uint64_t v, bool u32)
{
	size_t alen, at = find_attr(f, msg, type, &alen);

	if (!at || alen < NLA_HDRLEN + (u32 ? 4u : 1u))
		return -EOPNOTSUPP;
	if (u32) {
		uint32_t x = (uint32_t)v;

		memcpy(f->b + at + NLA_HDRLEN, &x, 4);
	} else {
		f->b[at + NLA_HDRLEN] = (uint8_t)v;
	}
	return 0;
}

/* A new FEC_MODES: the NOMASK list of the modes of @bits. */
static int fec_modes_put(struct reply *f, size_t msg, uint8_t bits)
{
	static const char *const kn[MLX_FEC_NMODES] = { NULL, "None", "RS", "BASER", "LLRS" };
	static const uint32_t idx[MLX_FEC_NMODES] = {
		0, ETHTOOL_LINK_MODE_FEC_NONE_BIT, ETHTOOL_LINK_MODE_FEC_RS_BIT,
		ETHTOOL_LINK_MODE_FEC_BASER_BIT, ETHTOOL_LINK_MODE_FEC_LLRS_BIT,
	};
	uint8_t buf[512];
	struct mlx_nlbuf b;
	size_t alen, at = find_attr(f, msg, ETHTOOL_A_FEC_MODES, &alen), bs, bits_at;

	mlx_nlb_init(&b, buf, sizeof(buf));
	bs = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_FEC_MODES);
	mlx_nlb_attr(&b, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
	mlx_nlb_u32(&b, ETHTOOL_A_BITSET_SIZE, __ETHTOOL_LINK_MODE_MASK_NBITS);
	bits_at = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS);
	for (unsigned m = 1; m < MLX_FEC_NMODES; m++) {
		size_t bit;

		if (!(bits & (1u << m)))
			continue;
		bit = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS_BIT);
		mlx_nlb_u32(&b, ETHTOOL_A_BITSET_BIT_INDEX, idx[m]);
		mlx_nlb_str(&b, ETHTOOL_A_BITSET_BIT_NAME, kn[m]);
		mlx_nlb_nest_end(&b, bit);
	}
	mlx_nlb_nest_end(&b, bits_at);
	mlx_nlb_nest_end(&b, bs);
	if (b.overflow)
		return -ENOMEM;
	if (!at) {
		/* none recorded (no mode configured): after the header */
		size_t hlen, hat = find_attr(f, msg, ETHTOOL_A_FEC_HEADER, &hlen);

		if (!hat)
			return -EOPNOTSUPP;
		return splice_msg(f, msg, hat + hlen, 0, buf, b.len);
	}
	return splice_msg(f, msg, at, alen, buf, b.len);
}

/* The advertised modes (OURS) rebuilt: the speed modes of @speed get
 * VALUE, the other speed modes lose it; the modes without a speed (Pause,
 * Autoneg, FEC) stay as they were. */
static int ours_put(struct reply *f, size_t msg, uint32_t speed)
{
	size_t alen, at = find_attr(f, msg, ETHTOOL_A_LINKMODES_OURS, &alen), bs, bits_at;
	struct mlx_nla nest, a, bit, fl;
	struct mlx_nlbuf b;
	uint8_t *buf;
	size_t off = 0;
	bool any = false;
	int r;

	if (!at)
		return -EOPNOTSUPP;
	buf = malloc(2 * alen + 64);
	if (!buf)
		return -ENOMEM;
	nest.data = f->b + at + NLA_HDRLEN;
	nest.len = alen - NLA_HDRLEN;
	mlx_nlb_init(&b, buf, 2 * alen + 64);
	bs = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_LINKMODES_OURS);
	while ((r = mlx_nla_next(nest.data, nest.len, &off, &a)) == 1) {
		size_t o2 = 0;

		if (a.type != ETHTOOL_A_BITSET_BITS) {
			mlx_nlb_attr(&b, a.type, a.data, a.len);
			continue;
		}
		bits_at = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS);
		while ((r = mlx_nla_next(a.data, a.len, &o2, &bit)) == 1) {
			size_t o3 = 0, bn;
			char name[MLX_LINK_MODE_LEN] = "";
			bool value = false;
			int64_t s;

			if (bit.type != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			bn = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS_BIT);
			while ((r = mlx_nla_next(bit.data, bit.len, &o3, &fl)) == 1) {
				if (fl.type == ETHTOOL_A_BITSET_BIT_VALUE) {
					value = true;
					continue;
				}
				if (fl.type == ETHTOOL_A_BITSET_BIT_NAME)
					mlx_nla_str(&fl, name, sizeof(name));
				mlx_nlb_attr(&b, fl.type, fl.data, fl.len);
			}
			s = mlx_link_mode_speed(name);
			if (s)
				value = s == (int64_t)speed;
			any |= s && value;
			if (value)
				mlx_nlb_attr(&b, ETHTOOL_A_BITSET_BIT_VALUE, NULL, 0);
			mlx_nlb_nest_end(&b, bn);
		}
		mlx_nlb_nest_end(&b, bits_at);
	}
	mlx_nlb_nest_end(&b, bs);
	if (r < 0 || b.overflow) {
		free(buf);
		return r < 0 ? r : -ENOMEM;
	}
	/* the kernel's answer to a speed no supported mode has */
	r = any ? splice_msg(f, msg, at, alen, buf, b.len) : -EINVAL;
	free(buf);
	return r;
}

static int lset_msg(struct reply *f, size_t msg, void *arg)
{
	struct lset *ls = arg;
	const struct mlx_link_set_req *rq = ls->rq;
	struct genlmsghdr g;
	int r = 0;

	memcpy(&g, f->b + msg + NLMSG_HDRLEN, sizeof(g));
	switch (g.cmd) {
	case ETHTOOL_MSG_PAUSE_GET_REPLY:
		if (rq->has[MLX_LINK_PAUSE_AUTONEG])
			r = put_in_place(f, msg, ETHTOOL_A_PAUSE_AUTONEG, rq->v[MLX_LINK_PAUSE_AUTONEG], false);
		if (!r && rq->has[MLX_LINK_PAUSE_RX])
			r = put_in_place(f, msg, ETHTOOL_A_PAUSE_RX, rq->v[MLX_LINK_PAUSE_RX], false);
		if (!r && rq->has[MLX_LINK_PAUSE_TX])
			r = put_in_place(f, msg, ETHTOOL_A_PAUSE_TX, rq->v[MLX_LINK_PAUSE_TX], false);
		break;
	case ETHTOOL_MSG_LINKMODES_GET_REPLY: {
		size_t alen, an = find_attr(f, msg, ETHTOOL_A_LINKMODES_AUTONEG, &alen);
		bool autoneg = an && f->b[an + NLA_HDRLEN] == AUTONEG_ENABLE;

		if (rq->has[MLX_LINK_AUTONEG]) {
			r = put_in_place(f, msg, ETHTOOL_A_LINKMODES_AUTONEG,
					 rq->v[MLX_LINK_AUTONEG] ? AUTONEG_ENABLE : AUTONEG_DISABLE, false);
			autoneg = rq->v[MLX_LINK_AUTONEG];
		}
		if (!r && rq->has[MLX_LINK_SPEED])
			r = autoneg ? ours_put(f, msg, (uint32_t)rq->v[MLX_LINK_SPEED]) :
			    put_in_place(f, msg, ETHTOOL_A_LINKMODES_SPEED, rq->v[MLX_LINK_SPEED], true);
		if (!r && rq->has[MLX_LINK_DUPLEX])
			r = put_in_place(f, msg, ETHTOOL_A_LINKMODES_DUPLEX,
					 rq->v[MLX_LINK_DUPLEX] ? DUPLEX_FULL : DUPLEX_HALF, false);
		break;
	}
	case ETHTOOL_MSG_FEC_GET_REPLY:
		if (rq->has[MLX_LINK_FEC])
			r = put_in_place(f, msg, ETHTOOL_A_FEC_AUTO, rq->v[MLX_LINK_FEC], false);
		if (!r && rq->fec_modes_given) {
			/* ethtool_link_modes_to_fecparam: no mode and no auto */
			if (!rq->fec_modes && !(rq->has[MLX_LINK_FEC] && rq->v[MLX_LINK_FEC]))
				r = -EINVAL;
			else
				r = fec_modes_put(f, msg, rq->fec_modes);
		}
		break;
	default:
		return 0;
	}
	ls->err = r;
	return r ? r : 1;
}

bool mlx_emul_link_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct genlmsghdr g;

	if (fam != MLX_NL_ETHTOOL || len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	return g.cmd == ETHTOOL_MSG_PAUSE_SET || g.cmd == ETHTOOL_MSG_LINKMODES_SET ||
	       g.cmd == ETHTOOL_MSG_FEC_SET;
}

int mlx_emul_link_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req,
			  size_t len, mlx_nl_cb cb, void *arg)
{
	struct mlx_link_set_req rq;
	struct lset ls = { &rq, 0 };
	struct genlmsghdr g;
	struct reply f;
	char why[80] = "";
	const char *name;
	int r;

	(void)fam;
	(void)cb;
	(void)arg;
	if (mlx_link_set_parse(req, len, &rq, why, sizeof(why)) < 0) {
		mlx_nl_set_extack(ctx, why);
		return -EINVAL;
	}
	memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	name = g.cmd == ETHTOOL_MSG_PAUSE_SET ? "pause-get" :
	       g.cmd == ETHTOOL_MSG_FEC_SET ? "fec-get" : "linkmodes-get";
	r = reply_load(ctx, &f, "ethtool", rq.ifname, name);
	if (r < 0)
		return r;
	r = each_msg(&f, lset_msg, &ls);
	if (r > 0 || (r == 0 && !ls.err))
		r = r > 0 ? mlx_replace_file(ctx, f.path, f.b, f.len) : -EOPNOTSUPP;
	free(f.b);
	/* global pause on leaves PFC off on mlx5 (emul.h) */
	if (r >= 0 && g.cmd == ETHTOOL_MSG_PAUSE_SET &&
	    ((rq.has[MLX_LINK_PAUSE_RX] && rq.v[MLX_LINK_PAUSE_RX]) ||
	     (rq.has[MLX_LINK_PAUSE_TX] && rq.v[MLX_LINK_PAUSE_TX])))
		r = mlx_emul_pfc_clear(ctx, rq.ifname);
	return r < 0 ? r : 0;
}

static int pclear_msg(struct reply *f, size_t msg, void *arg)
{
	struct genlmsghdr g;
	bool *changed = arg;

	memcpy(&g, f->b + msg + NLMSG_HDRLEN, sizeof(g));
	if (g.cmd != ETHTOOL_MSG_PAUSE_GET_REPLY)
		return 0;
	/* a reply without the attribute keeps saying nothing of it */
	if (put_in_place(f, msg, ETHTOOL_A_PAUSE_RX, 0, false) == 0)
		*changed = true;
	if (put_in_place(f, msg, ETHTOOL_A_PAUSE_TX, 0, false) == 0)
		*changed = true;
	return 0;
}

int mlx_emul_pause_clear(struct mlx_ctx *ctx, const char *ifname)
{
	struct reply f;
	bool changed = false;
	int r;

	r = reply_load(ctx, &f, "ethtool", ifname, "pause-get");
	if (r < 0) {
		/* no recorded pause reply: nothing to clear */
		mlx_err_clear(ctx);
		return r == -EOPNOTSUPP ? 0 : r;
	}
	r = each_msg(&f, pclear_msg, &changed);
	if (r == 0 && changed)
		r = mlx_replace_file(ctx, f.path, f.b, f.len);
	free(f.b);
	return r < 0 ? r : 0;
}

/* The entries of lib/emul/emulators.c's table (emul.h). */
const struct mlx_emul mlx_emul_health_policy = {
	.name = "health policy",
	.nl_takes = mlx_emul_health_takes,
	.nl_request = mlx_emul_health_request,
};

const struct mlx_emul mlx_emul_link_settings = {
	.name = "link settings",
	.nl_takes = mlx_emul_link_takes,
	.nl_request = mlx_emul_link_request,
};
