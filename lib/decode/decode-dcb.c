/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCB netlink: request builders, reply parsers, validation (contract in
 * lib/dcb.h).  Pure: bytes in, struct out; no I/O.  Layouts follow
 * include/uapi/linux/dcbnl.h; the order of attributes follows
 * net/dcb/dcbnl.c (dcbnl_ieee_fill, dcbnl_ieee_set).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "dcb.h"

/* The uapi sizes this file and the capture format depend on. */
_Static_assert(sizeof(struct dcbmsg) == 4, "struct dcbmsg");
_Static_assert(sizeof(struct ieee_ets) == 59, "struct ieee_ets");
_Static_assert(sizeof(struct ieee_pfc) == 136, "struct ieee_pfc");
_Static_assert(sizeof(struct ieee_maxrate) == 64, "struct ieee_maxrate");
_Static_assert(sizeof(struct dcbnl_buffer) == 44, "struct dcbnl_buffer");
_Static_assert(sizeof(struct dcb_app) == 4, "struct dcb_app");

static void why_set(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static void start(struct mlx_nlbuf *b, uint16_t type, uint8_t cmd, const char *ifname)
{
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = cmd, .dcb_pad = 0 };

	mlx_nlb_msg(b, type, 0);
	mlx_nlb_put(b, &d, sizeof(d));
	if (ifname)
		mlx_nlb_str(b, DCB_ATTR_IFNAME, ifname);
}

static bool ifname_ok(const char *ifname)
{
	size_t n = ifname ? strlen(ifname) : 0;

	return n > 0 && n < 16;
}

int mlx_dcb_build_get(struct mlx_nlbuf *b, uint8_t cmd, const char *ifname)
{
	if (!ifname_ok(ifname))
		return -EINVAL;
	start(b, RTM_GETDCB, cmd, ifname);
	return mlx_nlb_finish(b);
}

static void put_ieee(struct mlx_nlbuf *b, const struct mlx_dcb_msg *m)
{
	size_t nest = mlx_nlb_nest_start(b, DCB_ATTR_IEEE);

	if (m->ets)
		mlx_nlb_attr(b, DCB_ATTR_IEEE_ETS, m->ets, sizeof(*m->ets));
	if (m->maxrate)
		mlx_nlb_attr(b, DCB_ATTR_IEEE_MAXRATE, m->maxrate, sizeof(*m->maxrate));
	if (m->pfc)
		mlx_nlb_attr(b, DCB_ATTR_IEEE_PFC, m->pfc, sizeof(*m->pfc));
	if (m->buffer)
		mlx_nlb_attr(b, DCB_ATTR_DCB_BUFFER, m->buffer, sizeof(*m->buffer));
	if (m->app) {
		size_t t = mlx_nlb_nest_start(b, DCB_ATTR_IEEE_APP_TABLE);

		for (size_t i = 0; i < m->napp; i++)
			mlx_nlb_attr(b, DCB_ATTR_IEEE_APP, &m->app[i], sizeof(m->app[i]));
		mlx_nlb_nest_end(b, t);
	}
	mlx_nlb_nest_end(b, nest);
}

int mlx_dcb_build_ieee(struct mlx_nlbuf *b, uint8_t cmd, const char *ifname,
		       const struct mlx_dcb_msg *m)
{
	if (!ifname_ok(ifname) || (cmd != DCB_CMD_IEEE_SET && cmd != DCB_CMD_IEEE_DEL))
		return -EINVAL;
	start(b, RTM_SETDCB, cmd, ifname);
	put_ieee(b, m);
	return mlx_nlb_finish(b);
}

int mlx_dcb_build_sdcbx(struct mlx_nlbuf *b, const char *ifname, uint8_t mode)
{
	if (!ifname_ok(ifname))
		return -EINVAL;
	start(b, RTM_SETDCB, DCB_CMD_SDCBX, ifname);
	mlx_nlb_u8(b, DCB_ATTR_DCBX, mode);
	return mlx_nlb_finish(b);
}

int mlx_dcb_msg_cmd(const struct nlmsghdr *h, size_t len, uint8_t *cmd)
{
	struct dcbmsg d;

	if (len < NLMSG_HDRLEN + sizeof(d))
		return -EBADMSG;
	memcpy(&d, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(d));
	*cmd = d.cmd;
	return 0;
}

/* Copy a fixed-size struct attribute; its size must be exact. */
static int take(const struct mlx_nla *a, void *dst, size_t size)
{
	if (a->len != size)
		return -EBADMSG;
	memcpy(dst, a->data, size);
	return 0;
}

static int parse_app_table(const struct mlx_nla *t, struct dcb_app *app, size_t *napp)
{
	struct mlx_nla a;
	size_t off = 0;
	int r;

	*napp = 0;
	while ((r = mlx_nla_next(t->data, t->len, &off, &a)) == 1) {
		if (a.type != DCB_ATTR_IEEE_APP)
			continue;       /* as dcbnl.c: other types are skipped */
		if (*napp >= MLX_DCB_MAX_APP)
			return -E2BIG;
		r = take(&a, &app[*napp], sizeof(app[0]));
		if (r < 0)
			return r;
		(*napp)++;
	}
	return r;
}

static int parse_ieee_nest(const struct mlx_nla *n, struct mlx_dcb_state *st)
{
	struct mlx_nla a;
	size_t off = 0;
	int r;

	while ((r = mlx_nla_next(n->data, n->len, &off, &a)) == 1) {
		switch (a.type) {
		case DCB_ATTR_IEEE_ETS:
			r = take(&a, &st->ets, sizeof(st->ets));
			st->has_ets = r == 0;
			break;
		case DCB_ATTR_IEEE_PFC:
			r = take(&a, &st->pfc, sizeof(st->pfc));
			st->has_pfc = r == 0;
			break;
		case DCB_ATTR_IEEE_MAXRATE:
			r = take(&a, &st->maxrate, sizeof(st->maxrate));
			st->has_maxrate = r == 0;
			break;
		case DCB_ATTR_DCB_BUFFER:
			r = take(&a, &st->buffer, sizeof(st->buffer));
			st->has_buffer = r == 0;
			break;
		case DCB_ATTR_IEEE_APP_TABLE:
			r = parse_app_table(&a, st->app, &st->napp);
			break;
		default:
			r = 0;  /* QCN, peer info, trust tables: not used */
		}
		if (r < 0)
			return r;
	}
	return r;
}

int mlx_dcb_parse(const struct nlmsghdr *h, size_t len, struct mlx_dcb_state *st)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	r = mlx_nlmsg_attrs(h, len, sizeof(struct dcbmsg), &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case DCB_ATTR_IFNAME:
			mlx_nla_str(&a, st->ifname, sizeof(st->ifname));
			break;
		case DCB_ATTR_IEEE:
			r = parse_ieee_nest(&a, st);
			if (r < 0)
				return r;
			break;
		case DCB_ATTR_DCBX:
			if (mlx_nla_u8(&a, &st->dcbx) < 0)
				return -EBADMSG;
			st->has_dcbx = true;
			break;
		default:
			break;
		}
	}
	return r;
}

int mlx_dcb_parse_set_reply(const struct nlmsghdr *h, size_t len, int *kerr)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd, v;
	int r;

	r = mlx_dcb_msg_cmd(h, len, &cmd);
	if (r < 0)
		return r;
	r = mlx_nlmsg_attrs(h, len, sizeof(struct dcbmsg), &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (cmd == DCB_CMD_SDCBX && a.type == DCB_ATTR_DCBX) {
			if (mlx_nla_u8(&a, &v) < 0)
				return -EBADMSG;
			*kerr = v ? -EINVAL : 0;
			return 0;
		}
		if (cmd != DCB_CMD_SDCBX && a.type == DCB_ATTR_IEEE) {
			if (mlx_nla_u8(&a, &v) < 0)
				return -EBADMSG;
			/* nla_put_u8(skb, DCB_ATTR_IEEE, err): the low byte of a
			 * negative errno (-22 -> 0xea). */
			*kerr = v ? (int)(int8_t)v : 0;
			if (*kerr > 0)
				*kerr = -*kerr;
			return 0;
		}
	}
	return r < 0 ? r : -EBADMSG;
}

/* ---- requests, checked as dcb_doit() would ---- */

/* An attribute that is one uapi struct: exactly its size, kept by pointer. */
#define FIXED(field, type) do {                                         \
		if (a.len != sizeof(type))                              \
			goto size;                                      \
		rq->m.field = (const type *)a.data;                     \
	} while (0)

static int check_nest(const struct mlx_nla *n, struct mlx_dcb_req *rq, char *why, size_t wl)
{
	struct mlx_nla a;
	size_t off = 0;
	int r;

	while ((r = mlx_nla_next(n->data, n->len, &off, &a)) == 1) {
		switch (a.type) {
		case DCB_ATTR_IEEE_ETS:
			FIXED(ets, struct ieee_ets);
			break;
		case DCB_ATTR_IEEE_PFC:
			FIXED(pfc, struct ieee_pfc);
			break;
		case DCB_ATTR_IEEE_MAXRATE:
			FIXED(maxrate, struct ieee_maxrate);
			break;
		case DCB_ATTR_DCB_BUFFER:
			FIXED(buffer, struct dcbnl_buffer);
			break;
		case DCB_ATTR_IEEE_APP_TABLE: {
			struct mlx_nla e;
			size_t o2 = 0;

			rq->m.app = rq->app;
			rq->m.napp = 0;
			while ((r = mlx_nla_next(a.data, a.len, &o2, &e)) == 1) {
				if (e.type != DCB_ATTR_IEEE_APP || e.len != sizeof(struct dcb_app)) {
					why_set(why, wl, "APP table entry of type %u, %zu bytes (want type "
						"%d, %zu bytes)", e.type, e.len, DCB_ATTR_IEEE_APP,
						sizeof(struct dcb_app));
					return -EINVAL;
				}
				if (rq->m.napp >= MLX_DCB_MAX_APP)
					return -E2BIG;
				memcpy(&rq->app[rq->m.napp++], e.data, sizeof(struct dcb_app));
			}
			if (r < 0)
				goto bad;
			break;
		}
		default:
			why_set(why, wl, "unexpected IEEE attribute %u", a.type);
			return -EINVAL;
		}
		continue;
size:
		why_set(why, wl, "IEEE attribute %u has %zu bytes, not the uapi struct size", a.type,
			a.len);
		return -EINVAL;
	}
	if (r == 0)
		return 0;
bad:
	why_set(why, wl, "malformed attribute in the DCB_ATTR_IEEE nest");
	return -EINVAL;
}
#undef FIXED

int mlx_dcb_parse_req(const uint8_t *buf, size_t len, struct mlx_dcb_req *rq, char *why,
		      size_t whylen)
{
	struct nlmsghdr h;
	struct dcbmsg d;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	bool have_if = false;
	int r;

	memset(rq, 0, sizeof(*rq));
	if (len < NLMSG_HDRLEN + sizeof(d)) {
		why_set(why, whylen, "request of %zu bytes is shorter than nlmsghdr + dcbmsg", len);
		return -EINVAL;
	}
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len != len || !(h.nlmsg_flags & NLM_F_REQUEST) ||
	    (h.nlmsg_type != RTM_GETDCB && h.nlmsg_type != RTM_SETDCB)) {
		why_set(why, whylen, "bad header: length %u of %zu, type %u, flags 0x%x", h.nlmsg_len,
			len, h.nlmsg_type, h.nlmsg_flags);
		return -EINVAL;
	}
	memcpy(&d, buf + NLMSG_HDRLEN, sizeof(d));
	if (d.dcb_family != AF_UNSPEC || d.dcb_pad != 0) {
		why_set(why, whylen, "struct dcbmsg: family %u, pad %u (want 0, 0)", d.dcb_family,
			d.dcb_pad);
		return -EINVAL;
	}
	rq->type = h.nlmsg_type;
	rq->cmd = d.cmd;
	r = mlx_nlmsg_attrs((const struct nlmsghdr *)buf, len, sizeof(d), &attrs, &alen);
	if (r < 0)
		return -EINVAL;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case DCB_ATTR_IFNAME:
			if (a.len < 2 || a.len > 16 || a.data[a.len - 1] != '\0' ||
			    strlen((const char *)a.data) != a.len - 1) {
				why_set(why, whylen, "DCB_ATTR_IFNAME is not a NUL-terminated name");
				return -EINVAL;
			}
			memcpy(rq->ifname, a.data, a.len);
			have_if = true;
			break;
		case DCB_ATTR_IEEE:
			rq->has_ieee = true;
			r = check_nest(&a, rq, why, whylen);
			if (r < 0)
				return r;
			break;
		case DCB_ATTR_DCBX:
			if (a.len != 1) {
				why_set(why, whylen, "DCB_ATTR_DCBX is %zu bytes, not a u8", a.len);
				return -EINVAL;
			}
			rq->has_dcbx = true;
			rq->dcbx = a.data[0];
			break;
		default:
			why_set(why, whylen, "unexpected attribute %u", a.type);
			return -EINVAL;
		}
	}
	if (r < 0) {
		why_set(why, whylen, "malformed attributes");
		return -EINVAL;
	}
	if (!have_if) {
		why_set(why, whylen, "no DCB_ATTR_IFNAME");
		return -EINVAL;
	}
	return 0;
}

/* ---- replies, as the kernel lays them out ---- */

static int finish_reply(struct mlx_nlbuf *b)
{
	struct nlmsghdr h;
	int r = mlx_nlb_finish(b);

	if (r < 0)
		return r;
	memcpy(&h, b->buf, sizeof(h));
	h.nlmsg_flags = 0;      /* a reply, not a request */
	memcpy(b->buf, &h, sizeof(h));
	return r;
}

int mlx_dcb_encode_ieee(struct mlx_nlbuf *b, const struct mlx_dcb_state *st)
{
	struct mlx_dcb_msg m = {
		.ets = st->has_ets ? &st->ets : NULL,
		.maxrate = st->has_maxrate ? &st->maxrate : NULL,
		.pfc = st->has_pfc ? &st->pfc : NULL,
		.buffer = st->has_buffer ? &st->buffer : NULL,
		.app = st->app,              /* the APP_TABLE nest is always there */
		.napp = st->napp,
	};

	start(b, RTM_GETDCB, DCB_CMD_IEEE_GET, st->ifname);
	put_ieee(b, &m);
	if (st->has_dcbx)
		mlx_nlb_u8(b, DCB_ATTR_DCBX, st->dcbx);
	return finish_reply(b);
}

int mlx_dcb_encode_dcbx(struct mlx_nlbuf *b, const char *ifname, uint8_t dcbx)
{
	(void)ifname;           /* dcbnl_getdcbx replies with DCB_ATTR_DCBX only */
	start(b, RTM_GETDCB, DCB_CMD_GDCBX, NULL);
	mlx_nlb_u8(b, DCB_ATTR_DCBX, dcbx);
	return finish_reply(b);
}

int mlx_dcb_encode_set_reply(struct mlx_nlbuf *b, uint8_t cmd, int err)
{
	start(b, RTM_SETDCB, cmd, NULL);
	if (cmd == DCB_CMD_SDCBX)
		mlx_nlb_u8(b, DCB_ATTR_DCBX, err ? 1 : 0);
	else
		mlx_nlb_u8(b, DCB_ATTR_IEEE, (uint8_t)err);
	return finish_reply(b);
}

int mlx_dcb_encode_error(struct mlx_nlbuf *b, int err, const uint8_t *req, size_t reqlen)
{
	struct nlmsgerr e;

	memset(&e, 0, sizeof(e));
	e.error = err;
	if (req && reqlen >= sizeof(e.msg))
		memcpy(&e.msg, req, sizeof(e.msg));
	mlx_nlb_msg(b, NLMSG_ERROR, 0);
	mlx_nlb_put(b, &e, sizeof(e));
	return finish_reply(b);
}

/* ---- validation ---- */

const char *mlx_dcb_tsa_name(uint8_t tsa)
{
	switch (tsa) {
	case IEEE_8021QAZ_TSA_STRICT:
		return "strict";
	case IEEE_8021QAZ_TSA_CB_SHAPER:
		return "cbs";
	case IEEE_8021QAZ_TSA_ETS:
		return "ets";
	case IEEE_8021QAZ_TSA_VENDOR:
		return "vendor";
	default:
		return "unknown";
	}
}

int mlx_dcb_validate_ets(const struct ieee_ets *ets, char *why, size_t wl)
{
	unsigned cap = ets->ets_cap ? ets->ets_cap : MLX_DCB_NTC, sum = 0, nets = 0;

	if (cap > MLX_DCB_NTC)
		cap = MLX_DCB_NTC;
	for (int p = 0; p < MLX_DCB_NPRIO; p++)
		if (ets->prio_tc[p] >= cap) {
			why_set(why, wl, "priority %d is mapped to TC %u, but this port has %u traffic "
				"classes (TC 0-%u)", p, ets->prio_tc[p], cap, cap - 1);
			return -EINVAL;
		}
	for (unsigned tc = 0; tc < MLX_DCB_NTC; tc++) {
		uint8_t tsa = ets->tc_tsa[tc];

		if (tsa != IEEE_8021QAZ_TSA_STRICT && tsa != IEEE_8021QAZ_TSA_ETS &&
		    tsa != IEEE_8021QAZ_TSA_VENDOR) {
			why_set(why, wl, "TC %u: TSA '%s' is not one mlx5 implements (strict, ets, "
				"vendor)", tc, mlx_dcb_tsa_name(tsa));
			return -EINVAL;
		}
		if (ets->tc_tx_bw[tc] > 100) {
			why_set(why, wl, "TC %u: bandwidth %u%% is above 100%%", tc, ets->tc_tx_bw[tc]);
			return -EINVAL;
		}
		if (tsa == IEEE_8021QAZ_TSA_ETS) {
			sum += ets->tc_tx_bw[tc];
			nets++;
		}
		/* Strict and vendor TCs: mlx5 ignores tc_tx_bw (and reports 100
		 * for them), so their value is not checked here; the CLI refuses
		 * a bandwidth given for them explicitly. */
	}
	if (nets && sum != 100) {
		why_set(why, wl, "the bandwidths of the ETS traffic classes add up to %u%%; they "
			"must add up to 100%%", sum);
		return -EINVAL;
	}
	return 0;
}

int mlx_dcb_validate_pfc(const struct ieee_pfc *pfc, char *why, size_t wl)
{
	if (pfc->delay >= MLX_DCB_MAX_CABLE_LEN) {
		why_set(why, wl, "cable length %u m is out of range: mlx5 takes 0-%d m (and silently "
			"ignores larger values)", pfc->delay, MLX_DCB_MAX_CABLE_LEN - 1);
		return -EINVAL;
	}
	return 0;
}

int mlx_dcb_validate_buffer(const struct dcbnl_buffer *b, char *why, size_t wl)
{
	uint64_t sum = 0;

	for (int p = 0; p < MLX_DCB_NPRIO; p++)
		if (b->prio2buffer[p] >= DCBX_MAX_BUFFERS) {
			why_set(why, wl, "priority %d: buffer %u does not exist (buffers 0-%d)", p,
				b->prio2buffer[p], DCBX_MAX_BUFFERS - 1);
			return -EINVAL;
		}
	for (int i = 0; i < DCBX_MAX_BUFFERS; i++)
		sum += b->buffer_size[i];
	if (b->total_size && sum > b->total_size) {
		why_set(why, wl, "the buffer sizes add up to %llu bytes, more than the port's %u "
			"bytes", (unsigned long long)sum, b->total_size);
		return -EINVAL;
	}
	return 0;
}

int mlx_dcb_rate_quantize(uint64_t mbps, uint64_t *applied, int *how)
{
	*how = MLX_RATE_EXACT;
	if (mbps == 0) {
		*applied = 0;
		return 0;
	}
	if (mbps > MLX_DCB_RATE_MAX_MBPS)
		return -ERANGE;
	if (mbps < 100) {
		*applied = 100;
		*how = MLX_RATE_RAISED;
		return 0;
	}
	if (mbps <= MLX_DCB_RATE_100M_MAX_MBPS)
		*applied = mbps / 100 * 100;
	else
		*applied = mbps / 1000 * 1000;
	if (*applied != mbps)
		*how = MLX_RATE_ROUNDED;
	return 0;
}

bool mlx_dcb_trust_dscp(const struct mlx_dcb_state *st)
{
	for (size_t i = 0; i < st->napp; i++)
		if (st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
			return true;
	return false;
}

void mlx_dcb_dscp_map(const struct mlx_dcb_state *st, int map[MLX_DCB_NDSCP])
{
	for (int d = 0; d < MLX_DCB_NDSCP; d++)
		map[d] = -1;
	for (size_t i = 0; i < st->napp; i++)
		if (st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
		    st->app[i].protocol < MLX_DCB_NDSCP && map[st->app[i].protocol] < 0)
			map[st->app[i].protocol] = st->app[i].priority;
}

/* ---- OFED sysfs qos/ (en_sysfs.c) ---- */

int mlx_dcb_parse_sysfs_prio2buffer(const char *text, uint8_t p2b[MLX_DCB_NPRIO])
{
	const char *p = strchr(text, '\n');
	int seen = 0;

	if (!p || strncmp(text, "Priority", 8))
		return -EINVAL;
	for (p++; *p && seen < MLX_DCB_NPRIO;) {
		unsigned prio, buf;

		if (sscanf(p, "%u %u", &prio, &buf) != 2 || prio >= MLX_DCB_NPRIO || buf >= 8)
			return -EINVAL;
		p2b[prio] = (uint8_t)buf;
		seen++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return seen == MLX_DCB_NPRIO ? 0 : -EINVAL;
}

int mlx_dcb_parse_sysfs_buffer_size(const char *text, uint32_t size[MLX_DCB_NPRIO],
				    uint32_t *total)
{
	const char *p;
	unsigned v, seen = 0;

	if (sscanf(text, "Port buffer size = %u", &v) != 1)
		return -EINVAL;
	*total = v;
	p = strstr(text, "xon_threshold");
	if (!p)
		return -EINVAL;
	p = strchr(p, '\n');
	while (p && *++p && seen < MLX_DCB_NPRIO) {
		unsigned idx, sz;

		if (sscanf(p, "%u %u", &idx, &sz) != 2 || idx >= MLX_DCB_NPRIO)
			return -EINVAL;
		size[idx] = sz;
		seen++;
		p = strchr(p, '\n');
	}
	return seen == MLX_DCB_NPRIO ? 0 : -EINVAL;
}
