/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of `params set` on a captured system: the same
 * request bytes the live path sends (lib/params/params-write.c), parsed
 * back, change the recorded dump replies the reads replay
 * (netlink/ethtool/all/<rings|channels|coalesce|features|privflags>-dump.nl,
 * netlink/devlink/all/param-dump.nl) or the sysfs MTU file, as the kernel
 * would answer the next GET.  A knob the recorded reply does not carry is
 * -EOPNOTSUPP, as the driver answers a knob it lacks; a malformed request
 * is -EINVAL with the reason as the extended ack.
 *
 * The edit of a reply is a splice: replace a byte range of one message
 * and add the difference to its nlmsg_len and to the length of every
 * enclosing nest, so a flag can appear or go (a bool devlink value, a
 * bit of a NOMASK bitset) and a string can change its length.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "emul.h"
#include "mlx-private.h"
#include "nl.h"
#include "params.h"
#include "snapshot.h"
#include "sriov-emul-private.h"

struct file {
	uint8_t *b;
	size_t len;
};

/* Enclosing headers of a spot: the message and up to 6 nests. */
struct spot {
	size_t msg;              /* offset of the nlmsghdr */
	size_t nest[6];          /* offsets of the enclosing nlattr headers */
	unsigned depth;
};

static int splice(struct file *f, const struct spot *s, size_t at, size_t oldlen,
		  const void *nw, size_t newlen)
{
	long delta = (long)newlen - (long)oldlen;
	uint32_t ml;

	if (delta > 0) {
		uint8_t *b = realloc(f->b, f->len + (size_t)delta);

		if (!b)
			return -ENOMEM;
		f->b = b;
	}
	memmove(f->b + at + newlen, f->b + at + oldlen, f->len - at - oldlen);
	if (newlen)
		memcpy(f->b + at, nw, newlen);
	f->len = (size_t)((long)f->len + delta);
	memcpy(&ml, f->b + s->msg, 4);
	ml = (uint32_t)((long)ml + delta);
	memcpy(f->b + s->msg, &ml, 4);
	for (unsigned i = 0; i < s->depth; i++) {
		uint16_t nl;

		memcpy(&nl, f->b + s->nest[i], 2);
		nl = (uint16_t)((long)nl + delta);
		memcpy(f->b + s->nest[i], &nl, 2);
	}
	return 0;
}

/* The attribute @type among [start, end) of the file: its header's
 * offset, or 0 when absent. */
static size_t find(const struct file *f, size_t start, size_t end, uint16_t type)
{
	size_t off = 0;
	struct mlx_nla a;

	while (mlx_nla_next(f->b + start, end - start, &off, &a) == 1)
		if (a.type == type)
			return (size_t)(a.data - f->b) - NLA_HDRLEN;
	return 0;
}

static size_t alen(const struct file *f, size_t at)
{
	uint16_t l;

	memcpy(&l, f->b + at, 2);
	return l;
}

/* An attribute's bytes, aligned: for a splice. */
static size_t attr_bytes(uint8_t *out, uint16_t type, const void *data, size_t len)
{
	uint16_t l = (uint16_t)(NLA_HDRLEN + len);
	size_t total = NLA_ALIGN(l);

	memset(out, 0, total);
	memcpy(out, &l, 2);
	memcpy(out + 2, &type, 2);
	if (len)
		memcpy(out + NLA_HDRLEN, data, len);
	return total;
}

/* The first message of @f whose attribute @hdr nest names @ifname
 * (ethtool), or whose bus/device/param name match (devlink).  Its
 * attributes are [*as, *ae).  0, or -ENOENT. */
static int find_msg(const struct file *f, const struct mlx_params_set *s, size_t *msg,
		    size_t *as, size_t *ae)
{
	size_t off = 0;

	while (off + NLMSG_HDRLEN + GENL_HDRLEN <= f->len) {
		struct nlmsghdr h;
		char a[64] = "", b[64] = "", c[64] = "";
		size_t st, en, x;

		memcpy(&h, f->b + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || off + h.nlmsg_len > f->len)
			return -ENOENT;
		st = off + NLMSG_HDRLEN + GENL_HDRLEN;
		en = off + h.nlmsg_len;
		if (h.nlmsg_type >= NLMSG_MIN_TYPE && st <= en) {
			struct mlx_nla at = { 0 };

			if (s->src == MLX_KS_DEVLINK) {
				size_t p = find(f, st, en, DEVLINK_ATTR_PARAM);

				if ((x = find(f, st, en, DEVLINK_ATTR_BUS_NAME)))
					snprintf(a, sizeof(a), "%s", (char *)f->b + x + NLA_HDRLEN);
				if ((x = find(f, st, en, DEVLINK_ATTR_DEV_NAME)))
					snprintf(b, sizeof(b), "%s", (char *)f->b + x + NLA_HDRLEN);
				if (p && (x = find(f, p + NLA_HDRLEN, p + alen(f, p),
						   DEVLINK_ATTR_PARAM_NAME)))
					snprintf(c, sizeof(c), "%s", (char *)f->b + x + NLA_HDRLEN);
				if (!strcmp(a, s->bus) && !strcmp(b, s->dev) && !strcmp(c, s->name)) {
					*msg = off;
					*as = st;
					*ae = en;
					return 0;
				}
			} else if ((x = find(f, st, en, 1))) {
				size_t y = find(f, x + NLA_HDRLEN, x + alen(f, x),
						ETHTOOL_A_HEADER_DEV_NAME);

				if (y) {
					at.data = f->b + y + NLA_HDRLEN;
					at.len = alen(f, y) - NLA_HDRLEN;
					mlx_nla_str(&at, a, sizeof(a));
				}
				if (!strcmp(a, s->ifname)) {
					*msg = off;
					*as = st;
					*ae = en;
					return 0;
				}
			}
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return -ENOENT;
}

/* The index of bit @name in any verbose bitset of the message (the
 * device's HW set lists every feature it can change), or -1. */
static long bit_index(const struct file *f, size_t as, size_t ae, const char *name)
{
	for (uint16_t t = 1; t < 8; t++) {
		size_t set = find(f, as, ae, t), bits, off = 0;
		struct mlx_nla a;

		if (!set || !(bits = find(f, set + NLA_HDRLEN, set + alen(f, set),
					  ETHTOOL_A_BITSET_BITS)))
			continue;
		while (mlx_nla_next(f->b + bits + NLA_HDRLEN, alen(f, bits) - NLA_HDRLEN, &off,
				    &a) == 1) {
			size_t b = (size_t)(a.data - f->b) - NLA_HDRLEN;
			size_t n = find(f, b + NLA_HDRLEN, b + alen(f, b), ETHTOOL_A_BITSET_BIT_NAME);
			size_t i = find(f, b + NLA_HDRLEN, b + alen(f, b), ETHTOOL_A_BITSET_BIT_INDEX);
			uint32_t idx;

			if (n && i && !strcmp((char *)f->b + n + NLA_HDRLEN, name)) {
				memcpy(&idx, f->b + i + NLA_HDRLEN, 4);
				return idx;
			}
		}
	}
	return -1;
}

/* Set bit @name of the verbose bitset nest at @set to @on. */
static int set_bit(struct mlx_ctx *ctx, struct file *f, struct spot sp, size_t set,
		   const char *name, bool on, long idx)
{
	size_t bits = find(f, set + NLA_HDRLEN, set + alen(f, set), ETHTOOL_A_BITSET_BITS);
	bool nomask = find(f, set + NLA_HDRLEN, set + alen(f, set), ETHTOOL_A_BITSET_NOMASK);
	size_t off = 0;
	struct mlx_nla a;
	uint8_t nb[128];

	if (!bits)
		return mlx_err(ctx, EOPNOTSUPP, "the recorded bitset is compact: not emulated");
	sp.nest[sp.depth++] = set;
	sp.nest[sp.depth++] = bits;
	while (mlx_nla_next(f->b + bits + NLA_HDRLEN, alen(f, bits) - NLA_HDRLEN, &off, &a) == 1) {
		size_t b = (size_t)(a.data - f->b) - NLA_HDRLEN, bl = alen(f, b);
		size_t n = find(f, b + NLA_HDRLEN, b + bl, ETHTOOL_A_BITSET_BIT_NAME);
		size_t v = find(f, b + NLA_HDRLEN, b + bl, ETHTOOL_A_BITSET_BIT_VALUE);

		if (!n || strcmp((char *)f->b + n + NLA_HDRLEN, name))
			continue;
		/* NOMASK lists the set bits only: the bit goes */
		if (nomask)
			return on ? 0 : splice(f, &sp, b, NLA_ALIGN(bl), NULL, 0);
		sp.nest[sp.depth++] = b;
		if (on && !v)
			return splice(f, &sp, b + NLA_ALIGN(bl), 0, nb,
				      attr_bytes(nb, ETHTOOL_A_BITSET_BIT_VALUE, NULL, 0));
		if (!on && v)
			return splice(f, &sp, v, NLA_HDRLEN, NULL, 0);
		return 0;
	}
	if (!nomask || !on)
		return nomask ? 0 : -ENOENT;
	if (idx < 0)
		return -ENOENT;
	{
		/* a new BIT nest: INDEX, NAME */
		uint8_t in[96];
		uint32_t i32 = (uint32_t)idx;
		size_t l = attr_bytes(in, ETHTOOL_A_BITSET_BIT_INDEX, &i32, 4);

		l += attr_bytes(in + l, ETHTOOL_A_BITSET_BIT_NAME, name, strlen(name) + 1);
		l = attr_bytes(nb, ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED, in, l);
		return splice(f, &sp, bits + NLA_ALIGN(alen(f, bits)), 0, nb, l);
	}
}

static int edit_eth(struct mlx_ctx *ctx, struct file *f, const struct mlx_params_set *s)
{
	struct spot sp = { 0 };
	size_t as, ae, at;
	int r = find_msg(f, s, &sp.msg, &as, &ae);

	if (r < 0)
		return mlx_err(ctx, ENODEV, "the recorded %s dump has no '%s'",
			       mlx_knob_source_name(s->src), s->ifname);
	if (s->src == MLX_KS_FEATURE || s->src == MLX_KS_PRIVFLAG) {
		static const uint16_t fsets[] = { ETHTOOL_A_FEATURES_WANTED,
						  ETHTOOL_A_FEATURES_ACTIVE };

		/* every bit of the request (a feature group has several) */
		for (unsigned k = 0; k < s->nbits; k++) {
			const char *name = s->bits[k].name;
			long idx = bit_index(f, as, ae, name);
			bool any = false;

			for (size_t i = 0; i < (s->src == MLX_KS_FEATURE ? 2u : 1u); i++) {
				uint16_t t = s->src == MLX_KS_FEATURE ? fsets[i]
								      : ETHTOOL_A_PRIVFLAGS_FLAGS;

				/* a splice moves what follows: find again */
				find_msg(f, s, &sp.msg, &as, &ae);
				at = find(f, as, ae, t);
				if (!at)
					continue;
				r = set_bit(ctx, f, sp, at, name, s->bits[k].on, idx);
				if (r == -ENOENT)
					continue;
				if (r < 0)
					return r;
				any = true;
			}
			if (!any)
				return mlx_err(ctx, EOPNOTSUPP, "'%s' has no %s '%s'", s->ifname,
					       s->src == MLX_KS_FEATURE ? "feature" : "private flag",
					       name);
			find_msg(f, s, &sp.msg, &as, &ae);
		}
		return 0;
	}
	at = find(f, as, ae, s->attr);
	if (!at)
		return mlx_err(ctx, EOPNOTSUPP, "'%s' does not report %s attribute %u",
			       s->ifname, mlx_knob_source_name(s->src), s->attr);
	if (alen(f, at) == NLA_HDRLEN + 1 && s->is_u8) {
		f->b[at + NLA_HDRLEN] = (uint8_t)s->u;
	} else if (alen(f, at) == NLA_HDRLEN + 4 && !s->is_u8) {
		uint32_t v = (uint32_t)s->u;

		memcpy(f->b + at + NLA_HDRLEN, &v, 4);
	} else {
		return mlx_err(ctx, EINVAL, "%s attribute %u: a value of the wrong size",
			       mlx_knob_source_name(s->src), s->attr);
	}
	return 0;
}

static int edit_dl(struct mlx_ctx *ctx, struct file *f, const struct mlx_params_set *s)
{
	struct spot sp = { 0 };
	size_t as, ae, p, list, off = 0;
	struct mlx_nla a;
	uint8_t nb[160], data[128];
	size_t dl = 0;

	if (find_msg(f, s, &sp.msg, &as, &ae) < 0)
		return mlx_err(ctx, EINVAL, "%s/%s has no parameter '%s'", s->bus, s->dev, s->name);
	p = find(f, as, ae, DEVLINK_ATTR_PARAM);
	list = find(f, p + NLA_HDRLEN, p + alen(f, p), DEVLINK_ATTR_PARAM_VALUES_LIST);
	if (!list)
		return mlx_err(ctx, EBADMSG, "the recorded '%s' has no values", s->name);
	/* net/devlink/param.c: a request of another type than the
	 * parameter's is -EINVAL, whatever its cmode */
	{
		size_t t = find(f, p + NLA_HDRLEN, p + alen(f, p), DEVLINK_ATTR_PARAM_TYPE);

		if (t && alen(f, t) >= NLA_HDRLEN + 1 && f->b[t + NLA_HDRLEN] != s->dl_type) {
			mlx_nl_set_extack(ctx, "param type mismatch");
			return mlx_err(ctx, EINVAL, "%s/%s's '%s' is of devlink type %u, not %u", s->bus,
				       s->dev, s->name, f->b[t + NLA_HDRLEN], s->dl_type);
		}
	}
	switch (s->dl_type) {
	case MLX_DL_BOOL: dl = 0; break;
	case MLX_DL_STRING: dl = strlen(s->str) + 1; memcpy(data, s->str, dl); break;
	default: {
		/* host order, each in its own width, as nla_put_u8..u64 */
		uint8_t u8 = (uint8_t)s->u;
		uint16_t u16 = (uint16_t)s->u;
		uint32_t u32 = (uint32_t)s->u;

		dl = (size_t)1 << (s->dl_type - 1);
		memcpy(data, dl == 1 ? (const void *)&u8 : dl == 2 ? (const void *)&u16 :
			     dl == 4 ? (const void *)&u32 : (const void *)&s->u, dl);
		break;
	}
	}
	sp.nest[sp.depth++] = p;
	sp.nest[sp.depth++] = list;
	while (mlx_nla_next(f->b + list + NLA_HDRLEN, alen(f, list) - NLA_HDRLEN, &off, &a) == 1) {
		size_t v = (size_t)(a.data - f->b) - NLA_HDRLEN, vl = alen(f, v);
		size_t cm = find(f, v + NLA_HDRLEN, v + vl, DEVLINK_ATTR_PARAM_VALUE_CMODE);
		size_t d = find(f, v + NLA_HDRLEN, v + vl, DEVLINK_ATTR_PARAM_VALUE_DATA);
		size_t nl = 0;

		if (!cm || f->b[cm + NLA_HDRLEN] != s->cmode)
			continue;
		if (s->dl_type != MLX_DL_BOOL || s->on)
			nl = attr_bytes(nb, DEVLINK_ATTR_PARAM_VALUE_DATA, data, dl);
		sp.nest[sp.depth++] = v;
		if (d)
			return splice(f, &sp, d, NLA_ALIGN(alen(f, d)), nb, nl);
		return splice(f, &sp, v + NLA_ALIGN(vl), 0, nb, nl);
	}
	return mlx_err(ctx, EINVAL, "%s/%s's '%s' has no %s value", s->bus, s->dev, s->name,
		       mlx_devlink_cmode_name(s->cmode));
}

int mlx_emul_params(struct mlx_ctx *ctx, int fam, const uint8_t *req, size_t len)
{
	static const char *const dumps[MLX_KS_NSOURCES] = {
		[MLX_KS_PRIVFLAG] = "privflags-dump", [MLX_KS_RING] = "rings-dump",
		[MLX_KS_CHANNEL] = "channels-dump", [MLX_KS_COALESCE] = "coalesce-dump",
		[MLX_KS_FEATURE] = "features-dump", [MLX_KS_DEVLINK] = "param-dump",
	};
	struct mlx_params_set s;
	char why[160] = "", path[512];
	struct file f = { 0 };
	int r = mlx_params_req_parse(fam, req, len, &s, why, sizeof(why));

	if (r < 0) {
		mlx_nl_set_extack(ctx, why);
		return mlx_err(ctx, EINVAL, "malformed params request: %s", why);
	}
	if (s.src == MLX_KS_MTU) {
		char v[24];

		if (!mlx_name_is_safe(s.ifname) ||
		    snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", s.ifname) < 0 ||
		    !mlx_exists(ctx, path))
			return mlx_err(ctx, ENODEV, "no network interface '%s' in '%s'", s.ifname,
				       mlx_root(ctx));
		/* dev_validate_mtu: the driver's bounds, ours are the catalogue's */
		if (s.u < 68) {
			mlx_nl_set_extack(ctx, "MTU less than device minimum");
			return mlx_err(ctx, EINVAL, "MTU %" PRIu64 " is below the minimum", s.u);
		}
		snprintf(v, sizeof(v), "%" PRIu64 "\n", s.u);
		return mlx_write_str(ctx, path, v);
	}
	if (s.src == MLX_KS_DEVLINK && (strcmp(s.bus, "pci") || !mlx_name_is_safe(s.dev)))
		return mlx_err(ctx, EINVAL, "malformed params request: device %s/%s", s.bus, s.dev);
	r = mlx_emul_read_capture(ctx, s.src == MLX_KS_DEVLINK ? "devlink" : "ethtool", "all",
				  dumps[s.src], path, sizeof(path), (char **)&f.b, &f.len);
	if (r < 0)
		return r;
	r = s.src == MLX_KS_DEVLINK ? edit_dl(ctx, &f, &s) : edit_eth(ctx, &f, &s);
	if (r == 0)
		r = mlx_emul_write_file(ctx, path, f.b, f.len);
	free(f.b);
	return r;
}

/* A write of MLNX_OFED's /sys/class/infiniband/DEV/tc/PORT/traffic_class:
 * mlx5_ib keeps the number and reads it back as "Global tclass=N"
 * (fixtures/dcqcn/mlx5-sysfs-tc1-traffic_class-global-tclass.txt). */
bool mlx_emul_params_is_tclass(const char *path)
{
	static const char pre[] = "/sys/class/infiniband/", suf[] = "/traffic_class";
	size_t l = strlen(path);

	return !strncmp(path, pre, sizeof(pre) - 1) && l > sizeof(pre) - 1 + sizeof(suf) - 1 &&
	       !strcmp(path + l - (sizeof(suf) - 1), suf) && strstr(path, "/tc/");
}

int mlx_emul_params_tclass(struct mlx_ctx *ctx, const char *path, const char *val)
{
	char buf[48];
	uint64_t u;

	if (mlx_parse_u64(val, &u) < 0 || u > 255)
		return mlx_err(ctx, EINVAL, "traffic_class: '%s' is not 0..255", val);
	if (!mlx_exists(ctx, path))
		return mlx_err(ctx, ENOENT, "no %s in '%s'", path, mlx_root(ctx));
	snprintf(buf, sizeof(buf), "Global tclass=%" PRIu64 "\n", u);
	return mlx_write_str(ctx, path, buf);
}

/* ---- the captured boundary's entry (emul.h) ------------------------------ */

/* ethtool *_SET, devlink PARAM_SET, RTM_SETLINK with IFLA_MTU: what
 * mlx_params_req_parse knows as a knob's request (malformed ones too,
 * which mlx_emul_params refuses as the kernel would). */
static bool knobs_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct mlx_params_set s;
	char why[8];

	return mlx_params_req_parse(fam, req, len, &s, why, sizeof(why)) != -ENOENT;
}

static int knobs_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req, size_t len,
			 mlx_nl_cb cb, void *arg)
{
	(void)cb;
	(void)arg;
	return mlx_emul_params(ctx, fam, req, len);
}

const struct mlx_emul mlx_emul_knobs = {
	.name = "params",
	.nl_takes = knobs_takes,
	.nl_request = knobs_request,
	.file_takes = mlx_emul_params_is_tclass,
	.file_write = mlx_emul_params_tclass,
};
