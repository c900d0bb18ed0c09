/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The netlink layer of libmlx, shared by every feature that talks netlink
 * (rtnetlink VF info, devlink, DCB, ethtool, RDMA).
 *
 * One socket per family per context, opened on first use and closed with
 * the context (mlx_ctx_free).  Generic-netlink family ids are resolved once
 * per context.  Requests are built by pure functions into a caller's buffer
 * (struct mlx_nlbuf below), replies are handed one message at a time to a
 * callback that calls a pure decoder.
 *
 * Online and offline are the same code path for the decoders:
 *  - live: mlx_nl_query() sends the request, reads every reply (multi-part
 *    dumps up to NLMSG_DONE, NLMSG_ERROR -> -errno with the kernel's
 *    extended-ack text in mlx_errmsg) and calls the callback on each data
 *    message.  When a capture directory is set (mlx_nl_set_capture, used by
 *    `mlxcli snapshot`), the raw reply bytes are also written to
 *    <capture>/netlink/<family>/<object>/<request>.nl.
 *  - under --sysroot: the same call reads that file from the sysroot and
 *    feeds the recorded messages, errors included, to the same callback.
 *    No file: -ENODATA ("the capture has no such reply").  A write request
 *    (RTM_SETDCB, RTM_SETLINK, devlink eswitch-set) goes to the emulator of
 *    its family instead, as the same bytes.
 * Which of the two is the context's kernel boundary (struct mlx_kops in
 * mlx-private.h), chosen once by mlx_ctx_new(); callers never ask.
 *
 * object and request name the capture file: object is what was asked about
 * (an interface name, "pci:0000:08:00.0"), request what was asked
 * ("getlink-vf", "info-get").  Both must be safe path components.
 */
#ifndef MLX_NL_H
#define MLX_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "mlx.h"

enum mlx_nl_family {
	MLX_NL_ROUTE,        /* NETLINK_ROUTE: rtnetlink, DCB */
	MLX_NL_DEVLINK,      /* NETLINK_GENERIC family "devlink" */
	MLX_NL_ETHTOOL,      /* NETLINK_GENERIC family "ethtool" */
	MLX_NL_RDMA,         /* NETLINK_RDMA (RDMA_NL_NLDEV: lib/rdma.h) */
	MLX_NL_NFAMILIES
};

/* The directory name of a family in a capture: "route", "devlink", ... */
const char *mlx_nl_family_name(enum mlx_nl_family fam);

/* Called once per reply data message (never for NLMSG_DONE or an ack).
 * Return 0 to go on, a negative errno to stop the query with it. */
typedef int (*mlx_nl_cb)(const struct nlmsghdr *h, size_t len, void *arg);

/*
 * Send the request @req (@len bytes: one complete message whose header
 * mlx_nlb_* built) and feed the replies to @cb.  For a generic-netlink
 * family the header's nlmsg_type is replaced by the family id (the
 * builders put 0 there); nlmsg_seq and nlmsg_pid are filled in here.
 * Returns 0 or -errno (mlx_errmsg says what failed, on what, and why).
 */
int mlx_nl_query(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		 const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg);

/* The kernel's extended-ack text of the last NLMSG_ERROR ("" if none). */
const char *mlx_nl_extack(const struct mlx_ctx *ctx);

/* Record replies under @dir (a host path, the snapshot's directory being
 * built); NULL stops recording. */
int mlx_nl_set_capture(struct mlx_ctx *ctx, const char *dir);

/* While recording: write the @n pieces of @iov, in order, as the capture's
 * file @rel ("/netlink/ethtool/<if>/ioctl-...bin": a reply that came by
 * another way than a netlink socket).  0 and nothing done when not
 * recording. */
struct iovec;
int mlx_nl_record_file(struct mlx_ctx *ctx, const char *rel, const struct iovec *iov, size_t n);

/* Replay a recorded reply stream (the offline half of mlx_nl_query, also
 * what the unit tests use): pure apart from the callback. */
int mlx_nl_replay(struct mlx_ctx *ctx, const uint8_t *buf, size_t len, mlx_nl_cb cb, void *arg);

/* ---- attributes: pure, bounds-checked ----------------------------------- */

struct mlx_nla {
	uint16_t type;       /* NLA_F_NESTED and NLA_F_NET_BYTEORDER masked off */
	const uint8_t *data;
	size_t len;          /* payload bytes */
};

/*
 * Walk the attributes in buf[0..len): *off starts at 0.  Returns 1 with *a
 * filled, 0 at the end, -EBADMSG when an attribute header is short or its
 * length runs past the buffer.  Never reads past buf + len.
 */
int mlx_nla_next(const uint8_t *buf, size_t len, size_t *off, struct mlx_nla *a);
/* Typed reads: -EBADMSG when the payload is shorter than the type. */
int mlx_nla_u8(const struct mlx_nla *a, uint8_t *v);
int mlx_nla_u16(const struct mlx_nla *a, uint16_t *v);
int mlx_nla_u32(const struct mlx_nla *a, uint32_t *v);
int mlx_nla_u64(const struct mlx_nla *a, uint64_t *v);
/* A string attribute into buf (NUL-terminated, cut to len - 1). */
void mlx_nla_str(const struct mlx_nla *a, char *buf, size_t len);
/* The payload of a message after its fixed header of @hdrlen bytes
 * (ifinfomsg, genlmsghdr): -EBADMSG when the message is shorter. */
int mlx_nlmsg_attrs(const struct nlmsghdr *h, size_t len, size_t hdrlen,
		    const uint8_t **attrs, size_t *attrlen);
/* A generic netlink message's command and attributes: -EBADMSG when it is
 * shorter than its headers or than its nlmsg_len says. */
int mlx_genlmsg_attrs(const struct nlmsghdr *h, size_t len, uint8_t *cmd,
		      const uint8_t **attrs, size_t *attrlen);

/* ---- request building: pure, into a caller's buffer -------------------- */

struct mlx_nlbuf {
	uint8_t *buf;
	size_t cap, len;
	bool overflow;
};

void mlx_nlb_init(struct mlx_nlbuf *b, void *buf, size_t cap);
/* Start the message: header with @type and @flags (NLM_F_REQUEST added). */
void mlx_nlb_msg(struct mlx_nlbuf *b, uint16_t type, uint16_t flags);
/* Fixed header bytes (struct ifinfomsg, struct genlmsghdr), 4-aligned. */
void mlx_nlb_put(struct mlx_nlbuf *b, const void *data, size_t len);
void mlx_nlb_attr(struct mlx_nlbuf *b, uint16_t type, const void *data, size_t len);
void mlx_nlb_u8(struct mlx_nlbuf *b, uint16_t type, uint8_t v);
void mlx_nlb_u16(struct mlx_nlbuf *b, uint16_t type, uint16_t v);
void mlx_nlb_u32(struct mlx_nlbuf *b, uint16_t type, uint32_t v);
void mlx_nlb_u64(struct mlx_nlbuf *b, uint16_t type, uint64_t v);
void mlx_nlb_str(struct mlx_nlbuf *b, uint16_t type, const char *s);
/* Nests: start returns the offset to hand to end.  The type is used as
 * given: families that validate strictly (ethtool, newer devlink
 * attributes) refuse a nest without NLA_F_NESTED, so pass it there; the
 * byte-exact tests of rtnetlink and DCB requests expect it absent, as
 * iproute2 sends them. */
size_t mlx_nlb_nest_start(struct mlx_nlbuf *b, uint16_t type);
void mlx_nlb_nest_end(struct mlx_nlbuf *b, size_t at);
/* Set nlmsg_len; returns the message length or -EMSGSIZE on overflow. */
int mlx_nlb_finish(struct mlx_nlbuf *b);

/*
 * Start an ethtool netlink request: the message header (@nlflags:
 * NLM_F_DUMP, NLM_F_ACK or 0), the generic-netlink header of @cmd and the
 * request header nest (ETHTOOL_A_<MSG>_HEADER, attribute 1 of every ethtool
 * message) naming the device @ifname, or none when NULL (a dump), with the
 * ETHTOOL_A_HEADER_FLAGS @hflags when not 0.  The nest is always there:
 * kernels before 6.2 refuse any request without it, a dump included ("request
 * header missing", EINVAL: net/ethtool/netlink.c ethnl_parse_header_dev_get
 * in 6.1, Debian 12's kernel); later ones take it empty.  Every ethtool
 * request of libmlx starts here.
 */
void mlx_ethtool_req_start(struct mlx_nlbuf *b, uint8_t cmd, uint16_t nlflags, const char *ifname,
			   uint32_t hflags);

#endif /* MLX_NL_H */
