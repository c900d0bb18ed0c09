/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Netlink attribute walking and message building: pure code, no sockets,
 * so the decoders and builders are testable on byte arrays and fuzzable.
 * Layout per include/uapi/linux/netlink.h (struct nlattr, NLA_ALIGN).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "nl.h"

#define ALIGN4(x) (((x) + 3u) & ~(size_t)3u)

int mlx_nla_next(const uint8_t *buf, size_t len, size_t *off, struct mlx_nla *a)
{
	struct nlattr nla;

	if (*off >= len)
		return 0;
	if (len - *off < sizeof(nla))
		return -EBADMSG;
	memcpy(&nla, buf + *off, sizeof(nla));
	if (nla.nla_len < sizeof(nla) || nla.nla_len > len - *off)
		return -EBADMSG;
	a->type = nla.nla_type & NLA_TYPE_MASK;
	a->data = buf + *off + sizeof(nla);
	a->len = nla.nla_len - sizeof(nla);
	/* The last attribute may omit its padding. */
	*off += ALIGN4(nla.nla_len);
	if (*off > len)
		*off = len;
	return 1;
}

static int get(const struct mlx_nla *a, void *v, size_t n)
{
	if (a->len < n)
		return -EBADMSG;
	memcpy(v, a->data, n);
	return 0;
}

int mlx_nla_u8(const struct mlx_nla *a, uint8_t *v)
{
	return get(a, v, sizeof(*v));
}

int mlx_nla_u16(const struct mlx_nla *a, uint16_t *v)
{
	return get(a, v, sizeof(*v));
}

int mlx_nla_u32(const struct mlx_nla *a, uint32_t *v)
{
	return get(a, v, sizeof(*v));
}

int mlx_nla_u64(const struct mlx_nla *a, uint64_t *v)
{
	return get(a, v, sizeof(*v));
}

void mlx_nla_str(const struct mlx_nla *a, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	while (n < a->len && n + 1 < len && a->data[n])
		n++;
	memcpy(buf, a->data, n);
	buf[n] = '\0';
}

int mlx_nlmsg_attrs(const struct nlmsghdr *h, size_t len, size_t hdrlen,
		    const uint8_t **attrs, size_t *attrlen)
{
	size_t start = NLMSG_HDRLEN + ALIGN4(hdrlen);

	if (len < NLMSG_HDRLEN || h->nlmsg_len < start || h->nlmsg_len > len)
		return -EBADMSG;
	*attrs = (const uint8_t *)h + start;
	*attrlen = h->nlmsg_len - start;
	return 0;
}

int mlx_genlmsg_attrs(const struct nlmsghdr *h, size_t len, uint8_t *cmd,
		      const uint8_t **attrs, size_t *attrlen)
{
	struct genlmsghdr g;
	int r = mlx_nlmsg_attrs(h, len, GENL_HDRLEN, attrs, attrlen);

	if (r < 0)
		return r;
	/* nlmsg_len covers the genl header: mlx_nlmsg_attrs checked it */
	memcpy(&g, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(g));
	*cmd = g.cmd;
	return 0;
}

/* ---- building ---- */

void mlx_nlb_init(struct mlx_nlbuf *b, void *buf, size_t cap)
{
	b->buf = buf;
	b->cap = cap;
	b->len = 0;
	b->overflow = false;
	if (cap)
		memset(buf, 0, cap);
}

static uint8_t *room(struct mlx_nlbuf *b, size_t n)
{
	uint8_t *p;

	n = ALIGN4(n);
	if (b->overflow || b->cap - b->len < n) {
		b->overflow = true;
		return NULL;
	}
	p = b->buf + b->len;
	memset(p, 0, n);
	b->len += n;
	return p;
}

void mlx_nlb_msg(struct mlx_nlbuf *b, uint16_t type, uint16_t flags)
{
	struct nlmsghdr h = { .nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = type,
			      .nlmsg_flags = (uint16_t)(flags | NLM_F_REQUEST) };
	uint8_t *p;

	b->len = 0;
	b->overflow = false;
	p = room(b, NLMSG_HDRLEN);
	if (p)
		memcpy(p, &h, sizeof(h));
}

void mlx_nlb_put(struct mlx_nlbuf *b, const void *data, size_t len)
{
	uint8_t *p = room(b, len);

	if (p && len)
		memcpy(p, data, len);
}

void mlx_nlb_attr(struct mlx_nlbuf *b, uint16_t type, const void *data, size_t len)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type };
	uint8_t *p;

	if (NLA_HDRLEN + len > 0xffff) {
		b->overflow = true;
		return;
	}
	p = room(b, NLA_HDRLEN + len);
	if (!p)
		return;
	memcpy(p, &nla, sizeof(nla));
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
}

void mlx_nlb_u8(struct mlx_nlbuf *b, uint16_t type, uint8_t v)
{
	mlx_nlb_attr(b, type, &v, sizeof(v));
}

void mlx_nlb_u16(struct mlx_nlbuf *b, uint16_t type, uint16_t v)
{
	mlx_nlb_attr(b, type, &v, sizeof(v));
}

void mlx_nlb_u32(struct mlx_nlbuf *b, uint16_t type, uint32_t v)
{
	mlx_nlb_attr(b, type, &v, sizeof(v));
}

void mlx_nlb_u64(struct mlx_nlbuf *b, uint16_t type, uint64_t v)
{
	mlx_nlb_attr(b, type, &v, sizeof(v));
}

void mlx_nlb_str(struct mlx_nlbuf *b, uint16_t type, const char *s)
{
	mlx_nlb_attr(b, type, s, strlen(s) + 1);
}

size_t mlx_nlb_nest_start(struct mlx_nlbuf *b, uint16_t type)
{
	size_t at = b->len;

	mlx_nlb_attr(b, type, NULL, 0);
	return at;
}

void mlx_nlb_nest_end(struct mlx_nlbuf *b, size_t at)
{
	struct nlattr nla;

	if (b->overflow || at + sizeof(nla) > b->len)
		return;
	memcpy(&nla, b->buf + at, sizeof(nla));
	if (b->len - at > 0xffff) {
		b->overflow = true;
		return;
	}
	nla.nla_len = (uint16_t)(b->len - at);
	memcpy(b->buf + at, &nla, sizeof(nla));
}

int mlx_nlb_finish(struct mlx_nlbuf *b)
{
	struct nlmsghdr h;

	if (b->overflow || b->len < NLMSG_HDRLEN)
		return -EMSGSIZE;
	memcpy(&h, b->buf, sizeof(h));
	h.nlmsg_len = (uint32_t)b->len;
	memcpy(b->buf, &h, sizeof(h));
	return (int)b->len;
}

void mlx_ethtool_req_start(struct mlx_nlbuf *b, uint8_t cmd, uint16_t nlflags, const char *ifname,
			   uint32_t hflags)
{
	struct genlmsghdr g = { .cmd = cmd, .version = ETHTOOL_GENL_VERSION };
	size_t nest;

	mlx_nlb_msg(b, 0, nlflags);
	mlx_nlb_put(b, &g, sizeof(g));
	/* ETHTOOL_A_STRSET_HEADER, ETHTOOL_A_RINGS_HEADER, ...: all are 1 */
	nest = mlx_nlb_nest_start(b, NLA_F_NESTED | ETHTOOL_A_STRSET_HEADER);
	if (ifname)
		mlx_nlb_str(b, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (hflags)
		mlx_nlb_u32(b, ETHTOOL_A_HEADER_FLAGS, hflags);
	mlx_nlb_nest_end(b, nest);
}
