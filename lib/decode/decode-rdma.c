/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink replies, pure: bytes in, struct out (lib/rdma.h).
 *
 * Layout (include/uapi/rdma/rdma_netlink.h; drivers/infiniband/core/
 * nldev.c): a struct nlmsghdr whose type is RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
 * cmd), then attributes, no family header.  A resource dump message holds
 * DEV_INDEX, DEV_NAME and one table nest (RES_QP, RES_CM_ID, ...) of
 * entry nests (RES_QP_ENTRY, ...), one per object, each filled by the
 * kind's fill_res_*_entry(); a driver may add attributes of its own
 * (RES_SUBTYPE, a DRIVER nest) that are skipped here unless named.
 * The counter replies are decoded in decode-rdma-stat.c, the enum names
 * and address printers live in rdma-names.c.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>

#include "decode-rdma-priv.h"
#include "nl.h"
#include "rdma.h"

/* Attributes newer than the uapi header of Debian 12 (linux-libc-dev 6.1),
 * numbered after RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC in the kernel's
 * enum (torvalds/linux include/uapi/rdma/rdma_netlink.h):
 * PRIVILEGED_QKEY_MODE, DRIVER_DETAILS, RES_SUBTYPE. */
#define MLX_NLDEV_ATTR_RES_SUBTYPE (RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC + 3)

int mlx_rdma_bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

#ifndef AF_IB
#define AF_IB 27
#endif

/* A __kernel_sockaddr_storage as the kernel copies it (nla_put of the whole
 * 128 bytes): family in host order, then the family's struct. */
static int decode_addr(const struct mlx_nla *a, struct mlx_rdma_addr *out)
{
	uint16_t fam, port;

	memset(out, 0, sizeof(*out));
	if (a->len < 2)
		return -EBADMSG;
	memcpy(&fam, a->data, 2);
	if (fam == AF_INET) {
		if (a->len < 8)                       /* sockaddr_in: family, port, addr */
			return -EBADMSG;
		memcpy(&port, a->data + 2, 2);
		memcpy(out->addr, a->data + 4, 4);
	} else if (fam == AF_INET6) {
		if (a->len < 24)                      /* ..., flowinfo, addr[16] at 8 */
			return -EBADMSG;
		memcpy(&port, a->data + 2, 2);
		memcpy(out->addr, a->data + 8, 16);
	} else if (fam == AF_IB) {
		if (a->len < 24)                      /* sockaddr_ib: family, pkey, flowinfo, gid */
			return -EBADMSG;
		port = 0;
		memcpy(out->addr, a->data + 8, 16);
	} else {
		return 0;                             /* unknown family: no address */
	}
	out->family = fam;
	out->port = ntohs(port);
	return 0;
}

/* ---- messages -------------------------------------------------------------- */

int mlx_rdma_msg_cmd(const struct nlmsghdr *h, size_t len)
{
	if (len < NLMSG_HDRLEN || h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > len)
		return -EBADMSG;
	if (RDMA_NL_GET_CLIENT(h->nlmsg_type) != RDMA_NL_NLDEV)
		return -EBADMSG;
	return RDMA_NL_GET_OP(h->nlmsg_type);
}

int mlx_rdma_msg_attrs(const struct nlmsghdr *h, size_t len, const uint8_t **attrs, size_t *alen,
		       char *err, size_t errlen)
{
	int cmd = mlx_rdma_msg_cmd(h, len);

	if (cmd < 0)
		return mlx_rdma_bad(err, errlen, "not an RDMA netlink (NLDEV) message");
	if (mlx_nlmsg_attrs(h, len, 0, attrs, alen) < 0)
		return mlx_rdma_bad(err, errlen, "RDMA netlink message of %u bytes is truncated", h->nlmsg_len);
	return cmd;
}

#define U32(a, v) do { if (mlx_nla_u32((a), (v)) < 0) goto short_attr; } while (0)
#define U64(a, v) do { if (mlx_nla_u64((a), (v)) < 0) goto short_attr; } while (0)
#define U8(a, v) do { if (mlx_nla_u8((a), (v)) < 0) goto short_attr; } while (0)

int mlx_rdma_decode_dev(const struct nlmsghdr *h, size_t len, struct mlx_rdma_dev *d,
			char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	bool has_index = false;
	uint8_t u8;
	int r = mlx_rdma_msg_attrs(h, len, &attrs, &alen, err, errlen);

	if (r < 0)
		return r;
	memset(d, 0, sizeof(*d));
	d->node_type = -1;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case RDMA_NLDEV_ATTR_DEV_INDEX: U32(&a, &d->index); has_index = true; break;
		case RDMA_NLDEV_ATTR_DEV_NAME: mlx_nla_str(&a, d->name, sizeof(d->name)); break;
		case RDMA_NLDEV_ATTR_PORT_INDEX: U32(&a, &d->nports); break;
		case RDMA_NLDEV_ATTR_CAP_FLAGS: U64(&a, &d->cap_flags); break;
		case RDMA_NLDEV_ATTR_FW_VERSION: mlx_nla_str(&a, d->fw_ver, sizeof(d->fw_ver)); break;
		case RDMA_NLDEV_ATTR_NODE_GUID: U64(&a, &d->node_guid); break;
		case RDMA_NLDEV_ATTR_SYS_IMAGE_GUID: U64(&a, &d->sys_image_guid); break;
		case RDMA_NLDEV_ATTR_DEV_NODE_TYPE: U8(&a, &u8); d->node_type = u8; break;
		case RDMA_NLDEV_ATTR_DEV_PROTOCOL:
			mlx_nla_str(&a, d->protocol, sizeof(d->protocol));
			break;
		case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC + 5:    /* PARENT_NAME */
			mlx_nla_str(&a, d->parent, sizeof(d->parent));
			break;
		default:
			break;
		}
	}
	if (r < 0)
		return mlx_rdma_bad(err, errlen, "truncated attribute in an RDMA device message");
	if (!has_index || !d->name[0])
		return mlx_rdma_bad(err, errlen, "RDMA device message without an index or a name");
	return 0;
short_attr:
	return mlx_rdma_bad(err, errlen, "attribute %u of an RDMA device message is too short", a.type);
}

int mlx_rdma_decode_port(const struct nlmsghdr *h, size_t len, struct mlx_rdma_port *p,
			 char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint32_t u32;
	uint8_t u8;
	bool has_port = false;
	int r = mlx_rdma_msg_attrs(h, len, &attrs, &alen, err, errlen);

	if (r < 0)
		return r;
	memset(p, 0, sizeof(*p));
	p->state = p->phys_state = -1;
	p->netdev_index = -1;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case RDMA_NLDEV_ATTR_DEV_INDEX: U32(&a, &p->dev_index); break;
		case RDMA_NLDEV_ATTR_DEV_NAME: mlx_nla_str(&a, p->dev, sizeof(p->dev)); break;
		case RDMA_NLDEV_ATTR_PORT_INDEX: U32(&a, &p->port); has_port = true; break;
		case RDMA_NLDEV_ATTR_PORT_STATE: U8(&a, &u8); p->state = u8; break;
		case RDMA_NLDEV_ATTR_PORT_PHYS_STATE: U8(&a, &u8); p->phys_state = u8; break;
		case RDMA_NLDEV_ATTR_NDEV_INDEX: U32(&a, &u32); p->netdev_index = u32; break;
		case RDMA_NLDEV_ATTR_NDEV_NAME: mlx_nla_str(&a, p->netdev, sizeof(p->netdev)); break;
		case RDMA_NLDEV_ATTR_CAP_FLAGS: U64(&a, &p->cap_flags); p->has_ib = true; break;
		case RDMA_NLDEV_ATTR_SUBNET_PREFIX: U64(&a, &p->subnet_prefix); break;
		case RDMA_NLDEV_ATTR_LID: U32(&a, &p->lid); break;
		case RDMA_NLDEV_ATTR_SM_LID: U32(&a, &p->sm_lid); break;
		case RDMA_NLDEV_ATTR_LMC: U8(&a, &p->lmc); break;
		default: break;
		}
	}
	if (r < 0)
		return mlx_rdma_bad(err, errlen, "truncated attribute in an RDMA port message");
	if (!has_port || !p->dev[0])
		return mlx_rdma_bad(err, errlen, "RDMA port message without a device or a port index");
	return 0;
short_attr:
	return mlx_rdma_bad(err, errlen, "attribute %u of an RDMA port message is too short", a.type);
}

int mlx_rdma_decode_summary(const struct nlmsghdr *h, size_t len, struct mlx_rdma_summary *s,
			    char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r = mlx_rdma_msg_attrs(h, len, &attrs, &alen, err, errlen);

	if (r < 0)
		return r;
	memset(s, 0, sizeof(*s));
	for (int k = 0; k < MLX_RDMA_NKINDS; k++)
		s->count[k] = -1;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == RDMA_NLDEV_ATTR_DEV_INDEX) {
			U32(&a, &s->dev_index);
		} else if (a.type == RDMA_NLDEV_ATTR_DEV_NAME) {
			mlx_nla_str(&a, s->dev, sizeof(s->dev));
		} else if (a.type == RDMA_NLDEV_ATTR_RES_SUMMARY) {
			size_t eoff = 0;
			struct mlx_nla e;

			while ((r = mlx_nla_next(a.data, a.len, &eoff, &e)) == 1) {
				size_t foff = 0;
				struct mlx_nla f;
				char name[32] = "";
				uint64_t curr = 0;
				bool has_curr = false;
				int k;

				if (e.type != RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY)
					continue;
				while ((r = mlx_nla_next(e.data, e.len, &foff, &f)) == 1) {
					if (f.type == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME)
						mlx_nla_str(&f, name, sizeof(name));
					else if (f.type == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR &&
						 mlx_nla_u64(&f, &curr) == 0)
						has_curr = true;
				}
				if (r < 0)
					break;
				k = mlx_rdma_kind_parse(name);
				/* a count above INT64_MAX cannot be a real count */
				if (k >= 0 && has_curr && curr <= INT64_MAX)
					s->count[k] = (int64_t)curr;
			}
			if (r < 0)
				break;
		}
	}
	if (r < 0)
		return mlx_rdma_bad(err, errlen, "truncated attribute in an RDMA resource summary");
	if (!s->dev[0])
		return mlx_rdma_bad(err, errlen, "RDMA resource summary without a device name");
	return 0;
short_attr:
	return mlx_rdma_bad(err, errlen, "attribute %u of an RDMA resource summary is too short", a.type);
}

/* The table and entry attributes of each kind (nldev.c fill_entries[]). */
static const struct {
	uint16_t table, entry, id;
} kind_attrs[MLX_RDMA_NKINDS] = {
	[MLX_RDMA_QP] = { RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_RES_QP_ENTRY, RDMA_NLDEV_ATTR_RES_LQPN },
	[MLX_RDMA_CM_ID] = { RDMA_NLDEV_ATTR_RES_CM_ID, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY,
			     RDMA_NLDEV_ATTR_RES_CM_IDN },
	[MLX_RDMA_CQ] = { RDMA_NLDEV_ATTR_RES_CQ, RDMA_NLDEV_ATTR_RES_CQ_ENTRY, RDMA_NLDEV_ATTR_RES_CQN },
	[MLX_RDMA_MR] = { RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY, RDMA_NLDEV_ATTR_RES_MRN },
	[MLX_RDMA_PD] = { RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY, RDMA_NLDEV_ATTR_RES_PDN },
	[MLX_RDMA_CTX] = { RDMA_NLDEV_ATTR_RES_CTX, RDMA_NLDEV_ATTR_RES_CTX_ENTRY,
			   RDMA_NLDEV_ATTR_RES_CTXN },
	[MLX_RDMA_SRQ] = { RDMA_NLDEV_ATTR_RES_SRQ, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY,
			   RDMA_NLDEV_ATTR_RES_SRQN },
};

/* Room for one more element of an array that grows by doubling. */
int mlx_rdma_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	if (nc > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*v, nc * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = nc;
	return 0;
}

/* An SRQ's QPs: RES_QP_ENTRY nests of LQPN or MIN_RANGE/MAX_RANGE, written
 * "5-7,9" (cut with "..." when they do not fit). */
static int decode_srq_qps(const struct mlx_nla *table, char *buf, size_t len)
{
	size_t off = 0, w = 0;
	struct mlx_nla e;
	int r;

	buf[0] = '\0';
	while ((r = mlx_nla_next(table->data, table->len, &off, &e)) == 1) {
		size_t foff = 0;
		struct mlx_nla f;
		uint32_t lo = 0, hi = 0, q = 0;
		bool has_q = false, has_lo = false, has_hi = false;
		char one[32];
		int n;

		if (e.type != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			continue;
		while ((r = mlx_nla_next(e.data, e.len, &foff, &f)) == 1) {
			if (f.type == RDMA_NLDEV_ATTR_RES_LQPN)
				has_q = mlx_nla_u32(&f, &q) == 0;
			else if (f.type == RDMA_NLDEV_ATTR_MIN_RANGE)
				has_lo = mlx_nla_u32(&f, &lo) == 0;
			else if (f.type == RDMA_NLDEV_ATTR_MAX_RANGE)
				has_hi = mlx_nla_u32(&f, &hi) == 0;
		}
		if (r < 0)
			return r;
		if (has_q)
			n = snprintf(one, sizeof(one), "%s%u", w ? "," : "", q);
		else if (has_lo && has_hi)
			n = snprintf(one, sizeof(one), "%s%u-%u", w ? "," : "", lo, hi);
		else
			continue;
		if (w + (size_t)n + 4 > len) {
			if (w + 4 <= len)
				memcpy(buf + w, "...", 4);
			return 0;
		}
		memcpy(buf + w, one, (size_t)n + 1);
		w += (size_t)n;
	}
	return r;
}

static int decode_entry(const struct mlx_nla *ent, enum mlx_rdma_kind kind, uint32_t dev_index,
			struct mlx_rdma_res *o)
{
	size_t off = 0;
	struct mlx_nla a;
	int r;

	memset(o, 0, sizeof(*o));
	o->kind = (uint8_t)kind;
	o->dev_index = dev_index;
	while ((r = mlx_nla_next(ent->data, ent->len, &off, &a)) == 1) {
		uint32_t *u = NULL;
		unsigned bit = 0;

		if (a.type == kind_attrs[kind].id) {
			if (mlx_nla_u32(&a, &o->id) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_ID;
			continue;
		}
		switch (a.type) {
		case RDMA_NLDEV_ATTR_PORT_INDEX: u = &o->port; bit = MLX_RES_PORT; break;
		case RDMA_NLDEV_ATTR_RES_PID: u = &o->pid; bit = MLX_RES_PID; break;
		case RDMA_NLDEV_ATTR_RES_RQPN: u = &o->rqpn; bit = MLX_RES_RQPN; break;
		case RDMA_NLDEV_ATTR_RES_RQ_PSN: u = &o->rq_psn; bit = MLX_RES_RQ_PSN; break;
		case RDMA_NLDEV_ATTR_RES_SQ_PSN: u = &o->sq_psn; bit = MLX_RES_SQ_PSN; break;
		case RDMA_NLDEV_ATTR_RES_PDN: u = &o->pdn; bit = MLX_RES_PDN; break;
		case RDMA_NLDEV_ATTR_RES_CQN: u = &o->cqn; bit = MLX_RES_CQN; break;
		case RDMA_NLDEV_ATTR_RES_CTXN: u = &o->ctxn; bit = MLX_RES_CTXN; break;
		case RDMA_NLDEV_ATTR_RES_LQPN: u = &o->lqpn; bit = MLX_RES_LQPN; break;
		case RDMA_NLDEV_ATTR_RES_PS: u = &o->ps; bit = MLX_RES_PS; break;
		case RDMA_NLDEV_ATTR_RES_CQE: u = &o->cqe; bit = MLX_RES_CQE; break;
		case RDMA_NLDEV_ATTR_RES_RKEY: u = &o->rkey; bit = MLX_RES_RKEY; break;
		case RDMA_NLDEV_ATTR_RES_LKEY: u = &o->lkey; bit = MLX_RES_LKEY; break;
		case RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY: u = &o->dma_lkey; bit = MLX_RES_DMA_LKEY; break;
		case RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY:
			u = &o->global_rkey; bit = MLX_RES_GLOBAL_RKEY;
			break;
		case RDMA_NLDEV_ATTR_RES_TYPE:
			if (mlx_nla_u8(&a, &o->type) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_TYPE;
			break;
		case RDMA_NLDEV_ATTR_RES_STATE:
			if (mlx_nla_u8(&a, &o->state) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_STATE;
			break;
		case RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE:
			if (mlx_nla_u8(&a, &o->mig) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_MIG;
			break;
		case RDMA_NLDEV_ATTR_RES_POLL_CTX:
			if (mlx_nla_u8(&a, &o->poll_ctx) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_POLL;
			break;
		case RDMA_NLDEV_ATTR_DEV_DIM:
			if (mlx_nla_u8(&a, &o->dim) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_DIM;
			break;
		case RDMA_NLDEV_ATTR_RES_USECNT:
			if (mlx_nla_u64(&a, &o->usecnt) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_USECNT;
			break;
		case RDMA_NLDEV_ATTR_RES_IOVA:
			if (mlx_nla_u64(&a, &o->iova) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_IOVA;
			break;
		case RDMA_NLDEV_ATTR_RES_MRLEN:
			if (mlx_nla_u64(&a, &o->mrlen) < 0)
				return -EBADMSG;
			o->has |= MLX_RES_MRLEN;
			break;
		case RDMA_NLDEV_ATTR_RES_KERN_NAME:
			mlx_nla_str(&a, o->kern, sizeof(o->kern));
			o->has |= MLX_RES_KERN;
			break;
		case MLX_NLDEV_ATTR_RES_SUBTYPE:
			mlx_nla_str(&a, o->subtype, sizeof(o->subtype));
			o->has |= MLX_RES_SUBTYPE;
			break;
		case RDMA_NLDEV_ATTR_RES_SRC_ADDR:
			if (decode_addr(&a, &o->src) < 0)
				return -EBADMSG;
			break;
		case RDMA_NLDEV_ATTR_RES_DST_ADDR:
			if (decode_addr(&a, &o->dst) < 0)
				return -EBADMSG;
			break;
		case RDMA_NLDEV_ATTR_RES_QP:             /* an SRQ's QPs */
			if (kind == MLX_RDMA_SRQ && decode_srq_qps(&a, o->srq_qps, sizeof(o->srq_qps)) < 0)
				return -EBADMSG;
			break;
		default:
			break;
		}
		if (u) {
			if (mlx_nla_u32(&a, u) < 0)
				return -EBADMSG;
			o->has |= bit;
		}
	}
	return r < 0 ? r : 0;
}

/* The device of a message, then each entry of @table to @fn. */
int mlx_rdma_walk_table(const struct nlmsghdr *h, size_t len, uint16_t table, uint16_t entry,
			uint32_t *dev_index, int (*fn)(const struct mlx_nla *e, uint32_t dev, void *arg),
			void *arg, const char *what, char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	bool has_dev = false;
	int r = mlx_rdma_msg_attrs(h, len, &attrs, &alen, err, errlen);

	if (r < 0)
		return r;
	/* the device comes first (fill_nldev_handle) but do not rely on it */
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1)
		if (a.type == RDMA_NLDEV_ATTR_DEV_INDEX) {
			if (mlx_nla_u32(&a, dev_index) < 0)
				return mlx_rdma_bad(err, errlen, "short device index in an RDMA %s reply", what);
			has_dev = true;
		}
	if (r < 0)
		return mlx_rdma_bad(err, errlen, "truncated attribute in an RDMA %s reply", what);
	if (!has_dev)
		return mlx_rdma_bad(err, errlen, "RDMA %s reply without a device index", what);
	off = 0;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		size_t eoff = 0;
		struct mlx_nla e;

		if (a.type != table)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &eoff, &e)) == 1) {
			if (e.type != entry)
				continue;
			r = fn(&e, *dev_index, arg);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				return mlx_rdma_bad(err, errlen, "malformed entry in an RDMA %s reply", what);
		}
		if (r < 0)
			return mlx_rdma_bad(err, errlen, "truncated entry in an RDMA %s reply", what);
	}
	if (r < 0)
		return mlx_rdma_bad(err, errlen, "truncated attribute in an RDMA %s reply", what);
	return 0;
}

struct res_arg {
	enum mlx_rdma_kind kind;
	struct mlx_rdma_res_list *out;
};

static int add_res(const struct mlx_nla *e, uint32_t dev, void *arg)
{
	struct res_arg *ra = arg;
	struct mlx_rdma_res_list *l = ra->out;
	int r = mlx_rdma_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v));

	if (r < 0)
		return r;
	r = decode_entry(e, ra->kind, dev, &l->v[l->n]);
	if (r < 0)
		return r;
	l->n++;
	return 0;
}

int mlx_rdma_decode_res(const struct nlmsghdr *h, size_t len, enum mlx_rdma_kind kind,
			struct mlx_rdma_res_list *out, char *err, size_t errlen)
{
	struct res_arg ra = { kind, out };
	uint32_t dev;

	if ((unsigned)kind >= MLX_RDMA_NKINDS)
		return -EINVAL;
	return mlx_rdma_walk_table(h, len, kind_attrs[kind].table, kind_attrs[kind].entry, &dev, add_res, &ra,
			  mlx_rdma_kind_name(kind), err, errlen);
}

struct raw_arg {
	enum mlx_rdma_kind kind;
	struct mlx_rdma_raw_list *out;
};

static int add_raw(const struct mlx_nla *e, uint32_t dev, void *arg)
{
	struct raw_arg *ra = arg;
	struct mlx_rdma_raw_list *l = ra->out;
	struct mlx_rdma_raw one = { .kind = (uint8_t)ra->kind, .dev_index = dev };
	size_t off = 0;
	struct mlx_nla a;
	int r;

	while ((r = mlx_nla_next(e->data, e->len, &off, &a)) == 1) {
		if (a.type == kind_attrs[ra->kind].id) {
			if (mlx_nla_u32(&a, &one.id) < 0)
				goto bad;
			one.has_id = true;
		} else if (a.type == RDMA_NLDEV_ATTR_RES_RAW && !one.data) {
			one.data = malloc(a.len ? a.len : 1);
			if (!one.data)
				return -ENOMEM;
			memcpy(one.data, a.data, a.len);
			one.len = a.len;
		}
	}
	if (r < 0)
		goto bad;
	if (!one.data)
		return 0;                        /* an entry without a context */
	r = mlx_rdma_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v));
	if (r < 0)
		goto bad;
	l->v[l->n++] = one;
	return 0;
bad:
	free(one.data);
	return r == -ENOMEM ? r : -EBADMSG;
}

int mlx_rdma_decode_raw(const struct nlmsghdr *h, size_t len, enum mlx_rdma_kind kind,
			struct mlx_rdma_raw_list *out, char *err, size_t errlen)
{
	struct raw_arg ra = { kind, out };
	uint32_t dev;

	if ((unsigned)kind >= MLX_RDMA_NKINDS || !mlx_rdma_kind_has_raw(kind))
		return -EINVAL;
	/* the raw fill functions put their entries in the kind's table too
	 * (res_get_common_dumpit with fill_res_<kind>_raw_entry) */
	return mlx_rdma_walk_table(h, len, kind_attrs[kind].table, kind_attrs[kind].entry, &dev, add_raw, &ra,
			  "raw context", err, errlen);
}

/* ---- freeing ---------------------------------------------------------------- */

void mlx_rdma_res_list_free(struct mlx_rdma_res_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void mlx_rdma_raw_list_free(struct mlx_rdma_raw_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].data);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- requests ---------------------------------------------------------------- */

int mlx_rdma_build(void *buf, size_t cap, uint16_t cmd, bool dump, uint32_t dev_index,
		   bool has_dev, uint32_t port, uint32_t stat_res, bool stat_mode)
{
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, (uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), dump ? NLM_F_DUMP : 0);
	if (has_dev)
		mlx_nlb_u32(&b, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	if (port)
		mlx_nlb_u32(&b, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (stat_res)
		mlx_nlb_u32(&b, RDMA_NLDEV_ATTR_STAT_RES, stat_res);
	if (stat_mode)          /* stat_get_doit_qp() wants the attribute; its value is not read */
		mlx_nlb_u32(&b, RDMA_NLDEV_ATTR_STAT_MODE, 0);
	return mlx_nlb_finish(&b);
}
