/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health and ethtool link state, pure: the fmsg stream decoder,
 * the HEALTH_REPORTER_GET reply, the LINKSTATE_GET reply, and the
 * requests.  See health.h for the layouts.
 *
 * fmsg facts (net/devlink/health.c): the stream of a diagnose or dump is
 * one object (OBJ_NEST_START ... NEST_END) of pairs (a driver may end
 * more nests than it started: the root stays open to the stream's end); a pair is
 * PAIR_NEST_START, OBJ_NAME, then a value, an object, or an array
 * (ARR_NEST_START ... NEST_END), then NEST_END; a value is OBJ_VALUE_TYPE
 * (u8, an NLA_* number) followed by OBJ_VALUE_DATA.  A flag's data is a u8
 * (older kernels sent a zero-length DATA for true and none for false);
 * a u64 may be preceded by DEVLINK_ATTR_PAD; a binary pair is an array of
 * chunks of at most DEVLINK_FMSG_MAX_SIZE bytes.  devlink_fmsg_snd splits
 * the stream over several messages (NLM_F_MULTI, then NLMSG_DONE), each
 * with its own DEVLINK_ATTR_FMSG nest, at item boundaries.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "health.h"
#include "nl.h"

static int bad(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int genl_payload(const struct nlmsghdr *h, size_t len, const uint8_t **attrs, size_t *alen,
			uint8_t *cmd, char *err, size_t errlen)
{
	struct genlmsghdr g;

	if (len < NLMSG_HDRLEN)
		return bad(err, errlen, -EBADMSG, "message of %zu bytes is shorter than a netlink header",
			   len);
	if (h->nlmsg_type < NLMSG_MIN_TYPE)
		return bad(err, errlen, -EBADMSG, "message type %u is a control message", h->nlmsg_type);
	if (mlx_nlmsg_attrs(h, len, GENL_HDRLEN, attrs, alen) < 0)
		return bad(err, errlen, -EBADMSG, "message of %u bytes is truncated (buffer %zu)",
			   h->nlmsg_len, len);
	memcpy(&g, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(g));
	*cmd = g.cmd;
	return 0;
}

/* ---- fmsg ----------------------------------------------------------------- */

void mlx_fmsg_init(struct mlx_fmsg_parser *p)
{
	memset(p, 0, sizeof(*p));
	p->pending_type = -1;
}

void mlx_fmsg_free(struct mlx_fmsg_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		mlx_fmsg_free(n->child[i]);
	free(n->child);
	free(n->name);
	free(n->s);
	free(n->bin);
	free(n);
}

void mlx_fmsg_parser_free(struct mlx_fmsg_parser *p)
{
	for (size_t i = 0; i < p->depth; i++)
		free(p->st[i].name);
	mlx_fmsg_free(p->root);
	mlx_fmsg_init(p);
}

static struct mlx_fmsg_node *new_node(struct mlx_fmsg_parser *p, enum mlx_fmsg_kind kind)
{
	struct mlx_fmsg_node *n;

	if (p->nodes >= MLX_FMSG_MAX_NODES)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (n) {
		n->kind = kind;
		p->nodes++;
	}
	return n;
}

static int append(struct mlx_fmsg_node *parent, struct mlx_fmsg_node *child)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? 2 * parent->cap : 8;
		struct mlx_fmsg_node **v = realloc(parent->child, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		parent->child = v;
		parent->cap = cap;
	}
	parent->child[parent->n++] = child;
	return 0;
}

/* Hang @n (new, owned here until attached) where the stream is. */
static int attach(struct mlx_fmsg_parser *p, struct mlx_fmsg_node *n, char *err, size_t errlen)
{
	int r;

	if (p->depth == 0) {
		if (p->root || n->kind != MLX_FMSG_OBJ) {
			/* the message before the free: it reads @n (fuzz-fmsg) */
			r = bad(err, errlen, -EBADMSG, "%s outside the top-level object",
				n->kind == MLX_FMSG_OBJ ? "a second top-level object" : "an item");
			mlx_fmsg_free(n);
			return r;
		}
		p->root = n;
		return 0;
	}
	switch (p->st[p->depth - 1].kind) {
	case MLX_FMSG_FR_ARR:
		r = append(p->st[p->depth - 1].node, n);
		break;
	case MLX_FMSG_FR_PAIR:
		if (!p->st[p->depth - 1].has_name || p->st[p->depth - 1].has_value) {
			mlx_fmsg_free(n);
			return bad(err, errlen, -EBADMSG, "a pair %s",
				   p->st[p->depth - 1].has_value ? "with two values" : "without a name");
		}
		/* the pair's parent is an object (checked at PAIR_NEST_START) */
		n->name = p->st[p->depth - 1].name;
		p->st[p->depth - 1].name = NULL;
		r = append(p->st[p->depth - 2].node, n);
		if (r == 0)
			p->st[p->depth - 1].has_value = true;
		break;
	default:
		mlx_fmsg_free(n);
		return bad(err, errlen, -EBADMSG, "a value directly in an object (no pair)");
	}
	if (r < 0) {
		mlx_fmsg_free(n);
		return bad(err, errlen, r, "out of memory");
	}
	return 0;
}

static int push(struct mlx_fmsg_parser *p, int kind, struct mlx_fmsg_node *node, char *err,
		size_t errlen)
{
	if (p->depth >= MLX_FMSG_MAX_DEPTH)
		return bad(err, errlen, -E2BIG, "nests deeper than %d", MLX_FMSG_MAX_DEPTH);
	memset(&p->st[p->depth], 0, sizeof(p->st[p->depth]));
	p->st[p->depth].kind = kind;
	p->st[p->depth].node = node;
	p->depth++;
	return 0;
}

static int value(struct mlx_fmsg_parser *p, int type, const struct mlx_nla *a, char *err,
		 size_t errlen)
{
	struct mlx_fmsg_node *n = new_node(p, MLX_FMSG_VAL);
	uint8_t u8;
	uint32_t u32;
	uint64_t u64;
	int r = 0;

	if (!n)
		return bad(err, errlen, p->nodes >= MLX_FMSG_MAX_NODES ? -E2BIG : -ENOMEM,
			   "more than %u items", MLX_FMSG_MAX_NODES);
	n->vtype = (uint8_t)type;
	switch (type) {
	case MLX_FMSG_FLAG:
		/* u8 now; zero-length (true) or absent (false) before */
		n->u = a ? (a->len ? (mlx_nla_u8(a, &u8) == 0 && u8) : 1) : 0;
		break;
	case MLX_FMSG_U8:
		if (!a || (r = mlx_nla_u8(a, &u8)) < 0)
			goto short_data;
		n->u = u8;
		break;
	case MLX_FMSG_U32:
		if (!a || (r = mlx_nla_u32(a, &u32)) < 0)
			goto short_data;
		n->u = u32;
		break;
	case MLX_FMSG_U64:
		if (!a || (r = mlx_nla_u64(a, &u64)) < 0)
			goto short_data;
		n->u = u64;
		break;
	case MLX_FMSG_STRING:
		if (!a)
			goto short_data;
		if (p->bytes + a->len > MLX_FMSG_MAX_BYTES)
			goto too_big;
		n->s = malloc(a->len + 1);
		if (!n->s)
			goto nomem;
		mlx_nla_str(a, n->s, a->len + 1);
		p->bytes += a->len;
		break;
	default:
		/* BINARY, and types this decoder does not know: the raw bytes */
		if (type != MLX_FMSG_BINARY)
			p->unknown_types++;
		if (!a)
			break;
		if (p->bytes + a->len > MLX_FMSG_MAX_BYTES)
			goto too_big;
		n->bin = malloc(a->len ? a->len : 1);
		if (!n->bin)
			goto nomem;
		memcpy(n->bin, a->data, a->len);
		n->binlen = a->len;
		p->bytes += a->len;
		break;
	}
	return attach(p, n, err, errlen);
short_data:
	mlx_fmsg_free(n);
	return bad(err, errlen, -EBADMSG, "a value of type %d with %s", type,
		   a ? "too few data bytes" : "no data");
too_big:
	mlx_fmsg_free(n);
	return bad(err, errlen, -E2BIG, "more than %u bytes of values", MLX_FMSG_MAX_BYTES);
nomem:
	mlx_fmsg_free(n);
	return bad(err, errlen, -ENOMEM, "out of memory");
}

/* An OBJ_VALUE_TYPE without DATA: only a flag (false, older kernels). */
static int flush_pending(struct mlx_fmsg_parser *p, char *err, size_t errlen)
{
	int t = p->pending_type;

	if (t < 0)
		return 0;
	p->pending_type = -1;
	if (t != MLX_FMSG_FLAG)
		return bad(err, errlen, -EBADMSG, "a value of type %d without data", t);
	return value(p, t, NULL, err, errlen);
}

int mlx_fmsg_feed(struct mlx_fmsg_parser *p, const uint8_t *buf, size_t len, char *err,
		  size_t errlen)
{
	struct mlx_fmsg_node *n;
	struct mlx_nla a;
	size_t off = 0;
	uint8_t u8;
	int r;

	while ((r = mlx_nla_next(buf, len, &off, &a)) == 1) {
		if (a.type != DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA && a.type != DEVLINK_ATTR_PAD &&
		    (r = flush_pending(p, err, errlen)) < 0)
			return r;
		switch (a.type) {
		case DEVLINK_ATTR_FMSG_OBJ_NEST_START:
		case DEVLINK_ATTR_FMSG_ARR_NEST_START: {
			bool obj = a.type == DEVLINK_ATTR_FMSG_OBJ_NEST_START;

			n = new_node(p, obj ? MLX_FMSG_OBJ : MLX_FMSG_ARR);
			if (!n)
				return bad(err, errlen, -E2BIG, "more than %u items", MLX_FMSG_MAX_NODES);
			if (p->depth >= MLX_FMSG_MAX_DEPTH) {
				mlx_fmsg_free(n);
				return bad(err, errlen, -E2BIG, "nests deeper than %d", MLX_FMSG_MAX_DEPTH);
			}
			r = attach(p, n, err, errlen);
			if (r == 0)
				r = push(p, obj ? MLX_FMSG_FR_OBJ : MLX_FMSG_FR_ARR, n, err, errlen);
			break;
		}
		case DEVLINK_ATTR_FMSG_PAIR_NEST_START:
			if (!p->depth || p->st[p->depth - 1].kind != MLX_FMSG_FR_OBJ)
				return bad(err, errlen, -EBADMSG, "a pair outside an object");
			r = push(p, MLX_FMSG_FR_PAIR, NULL, err, errlen);
			break;
		case DEVLINK_ATTR_FMSG_NEST_END:
			if (!p->depth)
				return bad(err, errlen, -EBADMSG, "NEST_END with no nest open");
			if (p->st[p->depth - 1].kind == MLX_FMSG_FR_PAIR && !p->st[p->depth - 1].has_value)
				return bad(err, errlen, -EBADMSG, "pair '%s' closed without a value",
					   p->st[p->depth - 1].name ? p->st[p->depth - 1].name : "");
			if (p->depth == 1) {
				/* The root's end, kept open until the stream
				 * ends: the kernel does not check the nesting,
				 * and a driver may close more than it opened
				 * (netdevsim 6.1's dummy reporter: a stray
				 * devlink_fmsg_arr_pair_nest_end, drivers/net/
				 * netdevsim/health.c).  What follows such an end
				 * belongs to the root, as iproute2 prints it. */
				p->root_ends++;
				break;
			}
			p->depth--;
			free(p->st[p->depth].name);
			p->st[p->depth].name = NULL;
			break;
		case DEVLINK_ATTR_FMSG_OBJ_NAME:
			if (!p->depth || p->st[p->depth - 1].kind != MLX_FMSG_FR_PAIR ||
			    p->st[p->depth - 1].has_name)
				return bad(err, errlen, -EBADMSG, "OBJ_NAME outside a pair, or a second one");
			if (p->bytes + a.len > MLX_FMSG_MAX_BYTES)
				return bad(err, errlen, -E2BIG, "more than %u bytes of values",
					   MLX_FMSG_MAX_BYTES);
			p->st[p->depth - 1].name = malloc(a.len + 1);
			if (!p->st[p->depth - 1].name)
				return bad(err, errlen, -ENOMEM, "out of memory");
			mlx_nla_str(&a, p->st[p->depth - 1].name, a.len + 1);
			p->st[p->depth - 1].has_name = true;
			p->bytes += a.len;
			break;
		case DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE:
			if (mlx_nla_u8(&a, &u8) < 0)
				return bad(err, errlen, -EBADMSG, "OBJ_VALUE_TYPE shorter than a u8");
			p->pending_type = u8;
			break;
		case DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA:
			if (p->pending_type < 0)
				return bad(err, errlen, -EBADMSG, "OBJ_VALUE_DATA without OBJ_VALUE_TYPE");
			u8 = (uint8_t)p->pending_type;
			p->pending_type = -1;
			r = value(p, u8, &a, err, errlen);
			break;
		default:
			break;      /* DEVLINK_ATTR_PAD, and attributes of newer kernels */
		}
		if (r < 0)
			return r;
	}
	if (r < 0)
		return bad(err, errlen, -EBADMSG, "an attribute runs past the end of the FMSG nest");
	return 0;
}

int mlx_fmsg_feed_msg(struct mlx_fmsg_parser *p, const struct nlmsghdr *h, size_t len, char *err,
		      size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd;
	bool seen = false;
	int r;

	r = genl_payload(h, len, &attrs, &alen, &cmd, err, errlen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type != DEVLINK_ATTR_FMSG)
			continue;
		seen = true;
		r = mlx_fmsg_feed(p, a.data, a.len, err, errlen);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return bad(err, errlen, -EBADMSG, "an attribute runs past the end of the message");
	if (!seen)
		return bad(err, errlen, -EBADMSG, "a devlink command %u reply without DEVLINK_ATTR_FMSG",
			   cmd);
	return 0;
}

int mlx_fmsg_finish(struct mlx_fmsg_parser *p, struct mlx_fmsg_node **out, char *err, size_t errlen)
{
	int r = flush_pending(p, err, errlen);

	*out = NULL;
	if (r < 0)
		return r;
	if (!p->root)
		return bad(err, errlen, -EBADMSG, "the stream has no object");
	if (p->depth > 1 || (p->depth == 1 && !p->root_ends))
		return bad(err, errlen, -EBADMSG, "truncated: %zu nest%s left open", p->depth,
			   p->depth == 1 ? "" : "s");
	*out = p->root;
	p->root = NULL;
	mlx_fmsg_parser_free(p);
	return 0;
}

const struct mlx_fmsg_node *mlx_fmsg_get(const struct mlx_fmsg_node *obj, const char *name)
{
	if (!obj || obj->kind != MLX_FMSG_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (obj->child[i]->name && !strcmp(obj->child[i]->name, name))
			return obj->child[i];
	return NULL;
}

/* ---- HEALTH_REPORTER_GET ---------------------------------------------------- */

static int reporter_nest(const struct mlx_nla *nest, struct mlx_health_reporter *r, char *err,
			 size_t errlen)
{
	struct mlx_nla a;
	size_t off = 0;
	uint8_t u8;
	uint64_t u64;
	int k;

	while ((k = mlx_nla_next(nest->data, nest->len, &off, &a)) == 1) {
		switch (a.type) {
		case DEVLINK_ATTR_HEALTH_REPORTER_NAME:
			mlx_nla_str(&a, r->name, sizeof(r->name));
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_STATE:
			if (mlx_nla_u8(&a, &u8) < 0)
				goto shrt;
			r->state = u8;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT:
			if (mlx_nla_u64(&a, &r->err_count) < 0)
				goto shrt;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT:
			if (mlx_nla_u64(&a, &r->recover_count) < 0)
				goto shrt;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD:
			if (mlx_nla_u64(&a, &u64) < 0)
				goto shrt;
			r->grace_period_ms = u64;
			r->has_grace = true;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER:
			if (mlx_nla_u8(&a, &u8) < 0)
				goto shrt;
			r->auto_recover = u8 != 0;
			r->has_auto_recover = true;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP:
			if (mlx_nla_u8(&a, &u8) < 0)
				goto shrt;
			r->auto_dump = u8 != 0;
			r->has_auto_dump = true;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS:
			if (mlx_nla_u64(&a, &r->dump_ts_ms) < 0)
				goto shrt;
			r->has_dump_ts = true;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS:
			if (mlx_nla_u64(&a, &r->dump_ts_ns) < 0)
				goto shrt;
			r->has_dump_ts_ns = true;
			break;
		default:
			break;
		}
	}
	if (k < 0)
		return bad(err, errlen, -EBADMSG, "truncated attribute in a health reporter nest");
	if (!r->name[0])
		return bad(err, errlen, -EBADMSG, "a health reporter without a name");
	return 0;
shrt:
	return bad(err, errlen, -EBADMSG, "health reporter attribute %u is too short", a.type);
}

int mlx_health_reporter_decode(const struct nlmsghdr *h, size_t len, const char *bus,
			       const char *dev, struct mlx_health *out, char *err, size_t errlen)
{
	struct mlx_health_reporter one;
	char b[32] = "", d[64] = "";
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	bool have = false;
	uint32_t u32;
	uint8_t cmd;
	int r;

	memset(&one, 0, sizeof(one));
	one.port_index = -1;
	one.state = -1;
	r = genl_payload(h, len, &attrs, &alen, &cmd, err, errlen);
	if (r < 0)
		return r;
	/* RECOVER: the notification of an error or a recovery (multicast
	 * group "config"), with the attributes of a GET reply */
	if (cmd != DEVLINK_CMD_HEALTH_REPORTER_GET && cmd != DEVLINK_CMD_HEALTH_REPORTER_RECOVER)
		return bad(err, errlen, -EBADMSG, "devlink command %u is not HEALTH_REPORTER_GET", cmd);
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_BUS_NAME) {
			mlx_nla_str(&a, b, sizeof(b));
		} else if (a.type == DEVLINK_ATTR_DEV_NAME) {
			mlx_nla_str(&a, d, sizeof(d));
		} else if (a.type == DEVLINK_ATTR_PORT_INDEX) {
			if (mlx_nla_u32(&a, &u32) < 0)
				return bad(err, errlen, -EBADMSG, "DEVLINK_ATTR_PORT_INDEX is too short");
			one.port_index = u32;
		} else if (a.type == DEVLINK_ATTR_HEALTH_REPORTER) {
			r = reporter_nest(&a, &one, err, errlen);
			if (r < 0)
				return r;
			have = true;
		}
	}
	if (r < 0)
		return bad(err, errlen, -EBADMSG, "truncated attribute in the health reporter reply");
	if (!have)
		return bad(err, errlen, -EBADMSG, "a health reporter reply without DEVLINK_ATTR_HEALTH_REPORTER");
	if ((bus && strcmp(b, bus)) || (dev && strcmp(d, dev)))
		return 0;    /* another device's (a dump of an older kernel) */
	if (out->n < MLX_HEALTH_MAX_REPORTERS)
		out->r[out->n++] = one;
	return 0;
}

const char *mlx_health_state_str(int state)
{
	/* enum devlink_health_reporter_state (include/net/devlink.h, not
	 * uapi): HEALTHY 0, ERROR 1 */
	switch (state) {
	case 0: return "healthy";
	case 1: return "error";
	default: return NULL;
	}
}

int mlx_health_build(void *buf, size_t cap, uint8_t cmd, const char *bus, const char *dev,
		     const char *reporter, int64_t port_index)
{
	struct genlmsghdr g = { .cmd = cmd, .version = DEVLINK_GENL_VERSION };
	bool dump = cmd == DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET ||
		    (cmd == DEVLINK_CMD_HEALTH_REPORTER_GET && !reporter);
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	/* DUMP_CLEAR and RECOVER answer nothing but their ack (without it
	 * the reader would wait for a reply that never comes) */
	mlx_nlb_msg(&b, 0, dump ? NLM_F_DUMP : cmd == DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR ||
		    cmd == DEVLINK_CMD_HEALTH_REPORTER_RECOVER ? NLM_F_ACK : 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	mlx_nlb_str(&b, DEVLINK_ATTR_BUS_NAME, bus);
	mlx_nlb_str(&b, DEVLINK_ATTR_DEV_NAME, dev);
	if (port_index >= 0)
		mlx_nlb_u32(&b, DEVLINK_ATTR_PORT_INDEX, (uint32_t)port_index);
	if (reporter)
		mlx_nlb_str(&b, DEVLINK_ATTR_HEALTH_REPORTER_NAME, reporter);
	return mlx_nlb_finish(&b);
}

int mlx_devlink_reload_build(void *buf, size_t cap, const char *bus, const char *dev,
			     uint8_t action)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_RELOAD, .version = DEVLINK_GENL_VERSION };
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, 0, NLM_F_ACK);
	mlx_nlb_put(&b, &g, sizeof(g));
	mlx_nlb_str(&b, DEVLINK_ATTR_BUS_NAME, bus);
	mlx_nlb_str(&b, DEVLINK_ATTR_DEV_NAME, dev);
	mlx_nlb_u8(&b, DEVLINK_ATTR_RELOAD_ACTION, action);
	return mlx_nlb_finish(&b);
}

void mlx_health_request_name(char *buf, size_t len, const char *what,
			     const struct mlx_health_reporter *r)
{
	if (r->port_index >= 0)
		snprintf(buf, len, "%s-%s-port%lld", what, r->name, (long long)r->port_index);
	else
		snprintf(buf, len, "%s-%s", what, r->name);
}

/* ---- ETHTOOL_MSG_LINKSTATE_GET ------------------------------------------------ */

int mlx_linkstate_build(void *buf, size_t cap, const char *ifname)
{
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_LINKSTATE_GET, 0, ifname, 0);
	return mlx_nlb_finish(&b);
}

int mlx_linkstate_decode(const struct nlmsghdr *h, size_t len, struct mlx_linkstate *out,
			 char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint32_t u32;
	uint8_t cmd, u8;
	int r;

	out->link = -1;
	out->sqi = out->sqi_max = -1;
	out->ext_state = out->ext_substate = -1;
	r = genl_payload(h, len, &attrs, &alen, &cmd, err, errlen);
	if (r < 0)
		return r;
	if (cmd != ETHTOOL_MSG_LINKSTATE_GET_REPLY)
		return bad(err, errlen, -EBADMSG, "ethtool command %u is not LINKSTATE_GET_REPLY", cmd);
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		/* SQI and SQI_MAX are u32, the others u8 */
		bool wide = a.type == ETHTOOL_A_LINKSTATE_SQI || a.type == ETHTOOL_A_LINKSTATE_SQI_MAX;
		int64_t v;

		if (a.type != ETHTOOL_A_LINKSTATE_LINK && !wide &&
		    a.type != ETHTOOL_A_LINKSTATE_EXT_STATE && a.type != ETHTOOL_A_LINKSTATE_EXT_SUBSTATE)
			continue;
		if (wide ? mlx_nla_u32(&a, &u32) < 0 : mlx_nla_u8(&a, &u8) < 0)
			goto shrt;
		v = wide ? (int64_t)u32 : (int64_t)u8;
		if (a.type == ETHTOOL_A_LINKSTATE_LINK)
			out->link = v != 0;
		else if (a.type == ETHTOOL_A_LINKSTATE_SQI)
			out->sqi = v;
		else if (a.type == ETHTOOL_A_LINKSTATE_SQI_MAX)
			out->sqi_max = v;
		else if (a.type == ETHTOOL_A_LINKSTATE_EXT_STATE)
			out->ext_state = (int)v;
		else
			out->ext_substate = (int)v;
	}
	if (r < 0)
		return bad(err, errlen, -EBADMSG, "truncated attribute in the link state reply");
	return 0;
shrt:
	return bad(err, errlen, -EBADMSG, "link state attribute %u is too short", a.type);
}

/* Names: the comments and enumerators of enum ethtool_link_ext_state and
 * the ethtool_link_ext_substate_* enums (include/uapi/linux/ethtool.h). */
const char *mlx_link_ext_state_str(int state)
{
	switch (state) {
	case ETHTOOL_LINK_EXT_STATE_AUTONEG: return "autoneg";
	case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE: return "link training failure";
	case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH: return "logical mismatch";
	case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY: return "bad signal integrity";
	case ETHTOOL_LINK_EXT_STATE_NO_CABLE: return "no cable";
	case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE: return "cable issue";
	case ETHTOOL_LINK_EXT_STATE_EEPROM_ISSUE: return "EEPROM issue";
	case ETHTOOL_LINK_EXT_STATE_CALIBRATION_FAILURE: return "calibration failure";
	case ETHTOOL_LINK_EXT_STATE_POWER_BUDGET_EXCEEDED: return "power budget exceeded";
	case ETHTOOL_LINK_EXT_STATE_OVERHEAT: return "overheat";
	case ETHTOOL_LINK_EXT_STATE_MODULE: return "module";
	default: return NULL;
	}
}

const char *mlx_link_ext_substate_str(int state, int sub)
{
	switch (state) {
	case ETHTOOL_LINK_EXT_STATE_AUTONEG:
		switch (sub) {
		case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED: return "no partner detected";
		case ETHTOOL_LINK_EXT_SUBSTATE_AN_ACK_NOT_RECEIVED: return "ack not received";
		case ETHTOOL_LINK_EXT_SUBSTATE_AN_NEXT_PAGE_EXCHANGE_FAILED:
			return "next page exchange failed";
		case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED_FORCE_MODE:
			return "no partner detected during force mode";
		case ETHTOOL_LINK_EXT_SUBSTATE_AN_FEC_MISMATCH_DURING_OVERRIDE:
			return "FEC mismatch during override";
		case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_HCD: return "no HCD";
		}
		break;
	case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE:
		switch (sub) {
		case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_FRAME_LOCK_NOT_ACQUIRED:
			return "KR frame lock not acquired";
		case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_INHIBIT_TIMEOUT: return "KR link inhibit timeout";
		case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_PARTNER_DID_NOT_SET_RECEIVER_READY:
			return "KR link partner did not set receiver ready";
		case ETHTOOL_LINK_EXT_SUBSTATE_LT_REMOTE_FAULT: return "remote fault";
		}
		break;
	case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH:
		switch (sub) {
		case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_ACQUIRE_BLOCK_LOCK:
			return "PCS did not acquire block lock";
		case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_ACQUIRE_AM_LOCK:
			return "PCS did not acquire AM lock";
		case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_GET_ALIGN_STATUS:
			return "PCS did not get align status";
		case ETHTOOL_LINK_EXT_SUBSTATE_LLM_FC_FEC_IS_NOT_LOCKED: return "FC FEC is not locked";
		case ETHTOOL_LINK_EXT_SUBSTATE_LLM_RS_FEC_IS_NOT_LOCKED: return "RS FEC is not locked";
		}
		break;
	case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY:
		switch (sub) {
		case ETHTOOL_LINK_EXT_SUBSTATE_BSI_LARGE_NUMBER_OF_PHYSICAL_ERRORS:
			return "large number of physical errors";
		case ETHTOOL_LINK_EXT_SUBSTATE_BSI_UNSUPPORTED_RATE: return "unsupported rate";
		case ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_REFERENCE_CLOCK_LOST:
			return "serdes reference clock lost";
		case ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS: return "serdes ALOS";
		}
		break;
	case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE:
		switch (sub) {
		case ETHTOOL_LINK_EXT_SUBSTATE_CI_UNSUPPORTED_CABLE: return "unsupported cable";
		case ETHTOOL_LINK_EXT_SUBSTATE_CI_CABLE_TEST_FAILURE: return "cable test failure";
		}
		break;
	case ETHTOOL_LINK_EXT_STATE_MODULE:
		if (sub == ETHTOOL_LINK_EXT_SUBSTATE_MODULE_CMIS_NOT_READY)
			return "CMIS module is not in data ready state";
		break;
	}
	return NULL;
}
