/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink counter replies, pure (lib/rdma.h): STAT_GET (a port's
 * default counters, or its QP counter mode), STAT_GET_STATUS (which
 * counters are optional and on) and the STAT_GET dump of the bound
 * counters (nldev.c stat_get_doit_default_counter, stat_get_doit_qp,
 * nldev_stat_get_counter_status_doit, fill_res_counter_entry).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_netlink.h>

#include "decode-rdma-priv.h"
#include "nl.h"
#include "rdma.h"

#define U32(a, v) do { if (mlx_nla_u32((a), (v)) < 0) goto short_attr; } while (0)

/* ---- counters -------------------------------------------------------------- */

static struct mlx_rdma_hwc *hwc_find_add(struct mlx_rdma_hwc **v, size_t *n, size_t *cap,
					 const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	if (mlx_rdma_grow((void **)v, cap, *n, sizeof(**v)) < 0)
		return NULL;
	memset(&(*v)[*n], 0, sizeof(**v));
	snprintf((*v)[*n].name, sizeof((*v)[*n].name), "%s", name);
	(*v)[*n].index = -1;
	(*v)[*n].enabled = -1;
	return &(*v)[(*n)++];
}

/* A STAT_HWCOUNTERS nest: each entry's name with its value, index,
 * enabled state, merged into @v by name. */
static int decode_hwcounters(const struct mlx_nla *t, struct mlx_rdma_hwc **v, size_t *n,
			     size_t *cap)
{
	size_t off = 0;
	struct mlx_nla e;
	int r;

	while ((r = mlx_nla_next(t->data, t->len, &off, &e)) == 1) {
		size_t foff = 0;
		struct mlx_nla f;
		char name[64] = "";
		uint64_t val = 0;
		uint32_t idx = 0;
		uint8_t dyn = 0;
		bool hv = false, hi = false, hd = false;
		struct mlx_rdma_hwc *c;

		if (e.type != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		while ((r = mlx_nla_next(e.data, e.len, &foff, &f)) == 1) {
			if (f.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME)
				mlx_nla_str(&f, name, sizeof(name));
			else if (f.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE)
				hv = mlx_nla_u64(&f, &val) == 0;
			else if (f.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX)
				hi = mlx_nla_u32(&f, &idx) == 0;
			else if (f.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC)
				hd = mlx_nla_u8(&f, &dyn) == 0;
		}
		if (r < 0)
			return r;
		if (!name[0])
			return -EBADMSG;
		c = hwc_find_add(v, n, cap, name);
		if (!c)
			return -ENOMEM;
		if (hv) {
			c->value = val;
			c->has_value = true;
		}
		if (hi && idx <= INT32_MAX)
			c->index = (int)idx;
		if (hd)
			c->enabled = dyn ? 1 : 0;
	}
	return r;
}

int mlx_rdma_decode_stat(const struct nlmsghdr *h, size_t len, struct mlx_rdma_stat *s,
			 char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint32_t u;
	int r = mlx_rdma_msg_attrs(h, len, &attrs, &alen, err, errlen);

	if (r < 0)
		return r;
	if (r != RDMA_NLDEV_CMD_STAT_GET && r != RDMA_NLDEV_CMD_STAT_GET_STATUS)
		return mlx_rdma_bad(err, errlen, "RDMA netlink command %d is no counter reply", r);
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case RDMA_NLDEV_ATTR_DEV_INDEX: U32(&a, &s->dev_index); break;
		case RDMA_NLDEV_ATTR_PORT_INDEX: U32(&a, &s->port); break;
		case RDMA_NLDEV_ATTR_STAT_MODE:
			U32(&a, &u);
			s->mode = u < 16 ? (int)u : -1;
			break;
		case RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK: U32(&a, &u); s->auto_mask = u; break;
		case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
			r = decode_hwcounters(&a, &s->c, &s->n, &s->cap);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				return mlx_rdma_bad(err, errlen, "malformed counter in an RDMA counter reply");
			break;
		default: break;
		}
	}
	if (r < 0)
		return mlx_rdma_bad(err, errlen, "truncated attribute in an RDMA counter reply");
	return 0;
short_attr:
	return mlx_rdma_bad(err, errlen, "attribute %u of an RDMA counter reply is too short", a.type);
}

static int add_counter(const struct mlx_nla *e, uint32_t dev, void *arg)
{
	struct mlx_rdma_counter_list *l = arg;
	struct mlx_rdma_counter c = { .dev_index = dev, .mode = -1, .qp_type = -1, .pid = -1 };
	size_t off = 0, qcap = 0;
	struct mlx_nla a;
	uint32_t u;
	uint8_t u8;
	int r;

	while ((r = mlx_nla_next(e->data, e->len, &off, &a)) == 1) {
		switch (a.type) {
		case RDMA_NLDEV_ATTR_PORT_INDEX:
			if (mlx_nla_u32(&a, &c.port) < 0)
				goto bad;
			break;
		case RDMA_NLDEV_ATTR_STAT_COUNTER_ID:
			if (mlx_nla_u32(&a, &c.id) < 0)
				goto bad;
			break;
		case RDMA_NLDEV_ATTR_STAT_MODE:
			if (mlx_nla_u32(&a, &u) < 0)
				goto bad;
			c.mode = u < 16 ? (int)u : -1;
			break;
		case RDMA_NLDEV_ATTR_RES_TYPE:
			if (mlx_nla_u8(&a, &u8) < 0)
				goto bad;
			c.qp_type = u8;
			break;
		case RDMA_NLDEV_ATTR_RES_PID:
			if (mlx_nla_u32(&a, &u) < 0)
				goto bad;
			c.pid = u;
			break;
		case RDMA_NLDEV_ATTR_RES_QP: {
			size_t qoff = 0;
			struct mlx_nla q;

			while ((r = mlx_nla_next(a.data, a.len, &qoff, &q)) == 1) {
				size_t foff = 0;
				struct mlx_nla f;

				if (q.type != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
					continue;
				while ((r = mlx_nla_next(q.data, q.len, &foff, &f)) == 1) {
					if (f.type != RDMA_NLDEV_ATTR_RES_LQPN || mlx_nla_u32(&f, &u) < 0)
						continue;
					if (mlx_rdma_grow((void **)&c.qpn, &qcap, c.nqpn, sizeof(*c.qpn)) < 0) {
						r = -ENOMEM;
						goto bad;
					}
					c.qpn[c.nqpn++] = u;
				}
				if (r < 0)
					goto bad;
			}
			if (r < 0)
				goto bad;
			break;
		}
		case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
			r = decode_hwcounters(&a, &c.c, &c.n, &c.cap);
			if (r < 0)
				goto bad;
			break;
		default:
			break;
		}
	}
	if (r < 0)
		goto bad;
	r = mlx_rdma_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v));
	if (r < 0)
		goto bad;
	l->v[l->n++] = c;
	return 0;
bad:
	free(c.qpn);
	free(c.c);
	return r == -ENOMEM ? r : -EBADMSG;
}

int mlx_rdma_decode_counters(const struct nlmsghdr *h, size_t len,
			     struct mlx_rdma_counter_list *out, char *err, size_t errlen)
{
	uint32_t dev;

	return mlx_rdma_walk_table(h, len, RDMA_NLDEV_ATTR_STAT_COUNTER, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,
			  &dev, add_counter, out, "counter", err, errlen);
}

void mlx_rdma_stat_free(struct mlx_rdma_stat *s)
{
	free(s->c);
	s->c = NULL;
	s->n = s->cap = 0;
}

void mlx_rdma_counter_list_free(struct mlx_rdma_counter_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].qpn);
		free(l->v[i].c);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
