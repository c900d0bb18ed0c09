/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Netlink sockets, queries, capture and replay (contract in lib/nl.h).
 *
 * libnl provides the sockets; the messages themselves, the generic-netlink
 * family resolution among them, are built and parsed by
 * lib/backend/nl-attr.c so that exactly the same bytes flow through the
 * decoders live and offline.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <linux/genetlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "snapshot.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

struct mlx_nl {
	struct nl_sock *route, *genl, *rdma;
	int genl_id[MLX_NL_NFAMILIES];      /* 0: not resolved yet, <0: absent */
	char *capture;                      /* host directory, or NULL */
	char extack[256];
};

static const struct {
	const char *dir;        /* capture directory name */
	const char *genl;       /* generic-netlink family name, NULL for route */
	int proto;              /* the socket's protocol */
} families[MLX_NL_NFAMILIES] = {
	[MLX_NL_ROUTE] = { "route", NULL, NETLINK_ROUTE },
	[MLX_NL_DEVLINK] = { "devlink", "devlink", NETLINK_GENERIC },
	[MLX_NL_ETHTOOL] = { "ethtool", "ethtool", NETLINK_GENERIC },
	[MLX_NL_RDMA] = { "rdma", NULL, NETLINK_RDMA },
};

const char *mlx_nl_family_name(enum mlx_nl_family fam)
{
	return (unsigned)fam < MLX_NL_NFAMILIES ? families[fam].dir : "?";
}

static struct mlx_nl *state(struct mlx_ctx *ctx)
{
	if (!ctx->nl)
		ctx->nl = calloc(1, sizeof(*ctx->nl));
	return ctx->nl;
}

void mlx_nl_ctx_free(struct mlx_ctx *ctx)
{
	struct mlx_nl *nl = ctx->nl;

	if (!nl)
		return;
	if (nl->route)
		nl_socket_free(nl->route);
	if (nl->genl)
		nl_socket_free(nl->genl);
	if (nl->rdma)
		nl_socket_free(nl->rdma);
	free(nl->capture);
	free(nl);
	ctx->nl = NULL;
}

const char *mlx_nl_extack(const struct mlx_ctx *ctx)
{
	return ctx->nl ? ctx->nl->extack : "";
}

void mlx_nl_set_extack(struct mlx_ctx *ctx, const char *text)
{
	struct mlx_nl *nl = state(ctx);

	if (nl)
		snprintf(nl->extack, sizeof(nl->extack), "%s", text);
}

int mlx_nl_set_capture(struct mlx_ctx *ctx, const char *dir)
{
	struct mlx_nl *nl = state(ctx);

	if (!nl)
		return -ENOMEM;
	free(nl->capture);
	nl->capture = NULL;
	if (dir && !(nl->capture = strdup(dir)))
		return -ENOMEM;
	return 0;
}

static int record_open(struct mlx_ctx *ctx, const char *rel);
static int write_all(int fd, const uint8_t *p, size_t n);

int mlx_nl_record_file(struct mlx_ctx *ctx, const char *rel, const struct iovec *iov, size_t n)
{
	int fd, r = 0;

	if (!ctx->nl || !ctx->nl->capture)
		return 0;
	fd = record_open(ctx, rel);
	if (fd < 0)
		return fd;
	for (size_t i = 0; i < n && r == 0; i++)
		r = write_all(fd, iov[i].iov_base, iov[i].iov_len);
	close(fd);
	return r < 0 ? mlx_err(ctx, -r, "cannot record '%s': %s", rel, strerror(-r)) : 0;
}

/* libnl's error codes are its own; the few that matter, as errno. */
static int nlerr_errno(int e)
{
	switch (e < 0 ? -e : e) {
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_OPNOTSUPP:
	case NLE_PROTO_MISMATCH:
		return -EOPNOTSUPP;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	default:
		return -EIO;
	}
}

static struct nl_sock *open_sock(struct mlx_ctx *ctx, int proto, int *err)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1, r;

	if (!sk) {
		*err = -ENOMEM;
		return NULL;
	}
	r = nl_connect(sk, proto);
	if (r < 0) {
		*err = nlerr_errno(r);
		nl_socket_free(sk);
		return NULL;
	}
	/* Whole datagrams however large (a VF list of 127 VFs with stats is
	 * bigger than a page); the kernel's reason text on errors; errors
	 * without the echoed request. */
	nl_socket_enable_msg_peek(sk);
	nl_socket_set_buffer_size(sk, 1 << 20, 1 << 20);
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return sk;
}

static int resolve_family(struct mlx_ctx *ctx, struct nl_sock *sk, const char *name);

/* The socket for @fam, and for a generic family its id in *type. */
static int get_sock(struct mlx_ctx *ctx, enum mlx_nl_family fam, struct nl_sock **out,
		    int *type)
{
	struct mlx_nl *nl = state(ctx);
	int r = 0;

	if (!nl)
		return -ENOMEM;
	if (families[fam].proto == NETLINK_RDMA) {
		/* ib_core registers NETLINK_RDMA; without it (no RDMA stack
		 * loaded) the socket cannot be made */
		if (!nl->rdma && !(nl->rdma = open_sock(ctx, NETLINK_RDMA, &r)))
			return mlx_err(ctx, EPROTONOSUPPORT, "cannot open an RDMA netlink socket "
				       "(no RDMA stack: is ib_core loaded?): %s", strerror(-r));
		*out = nl->rdma;
		*type = -1;
		return 0;
	}
	if (!families[fam].genl) {
		if (!nl->route && !(nl->route = open_sock(ctx, NETLINK_ROUTE, &r)))
			return mlx_err(ctx, r, "cannot open a rtnetlink socket: %s", strerror(-r));
		*out = nl->route;
		*type = -1;
		return 0;
	}
	if (!nl->genl && !(nl->genl = open_sock(ctx, NETLINK_GENERIC, &r)))
		return mlx_err(ctx, r, "cannot open a generic netlink socket: %s", strerror(-r));
	if (nl->genl_id[fam] == 0) {
		r = resolve_family(ctx, nl->genl, families[fam].genl);
		if (r < 0 && r != -ENOENT)
			return r;
		nl->genl_id[fam] = r > 0 ? r : -1;
	}
	if (nl->genl_id[fam] < 0)
		return mlx_err(ctx, EOPNOTSUPP,
			       "the kernel has no '%s' generic netlink family (module not loaded, "
			       "or a kernel without it)", families[fam].genl);
	*out = nl->genl;
	*type = nl->genl_id[fam];
	return 0;
}

struct run {
	struct mlx_ctx *ctx;
	mlx_nl_cb cb;
	void *arg;
	uint32_t seq;           /* 0: replay, any sequence */
	bool done;
};

/* The text of NLMSGERR_ATTR_MSG in an error message, if the kernel sent one. */
static void extack_text(const struct nlmsghdr *h, char *buf, size_t len)
{
	struct nlmsgerr e;
	struct nlmsghdr req;
	size_t off, alen;
	const uint8_t *p = (const uint8_t *)h;
	struct mlx_nla a;

	buf[0] = '\0';
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || h->nlmsg_len < NLMSG_HDRLEN + sizeof(e))
		return;
	memcpy(&e, p + NLMSG_HDRLEN, sizeof(e));
	memcpy(&req, &e.msg, sizeof(req));
	off = NLMSG_HDRLEN + sizeof(e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(req.nlmsg_len) - NLMSG_HDRLEN;   /* echoed payload */
	if (off >= h->nlmsg_len)
		return;
	alen = h->nlmsg_len - off;
	p += off;
	off = 0;
	while (mlx_nla_next(p, alen, &off, &a) == 1)
		if (a.type == NLMSGERR_ATTR_MSG)
			mlx_nla_str(&a, buf, len);
}

static int process(struct run *run, const uint8_t *buf, size_t len)
{
	struct mlx_nl *nl = state(run->ctx);
	size_t off = 0;

	while (!run->done && len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		const struct nlmsghdr *hp = (const struct nlmsghdr *)(buf + off);
		int r;

		memcpy(&h, buf + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off)
			return mlx_err(run->ctx, EBADMSG, "malformed netlink reply (message length %u "
				       "at offset %zu of %zu)", h.nlmsg_len, off, len);
		if (run->seq && h.nlmsg_seq != run->seq) {
			/* Not ours (a late reply to an earlier request). */
		} else if (h.nlmsg_type == NLMSG_DONE) {
			int32_t e = 0;

			run->done = true;
			if (h.nlmsg_len >= NLMSG_HDRLEN + sizeof(e))
				memcpy(&e, buf + off + NLMSG_HDRLEN, sizeof(e));
			if (e < 0) {
				if (nl)
					extack_text(hp, nl->extack, sizeof(nl->extack));
				return e;
			}
		} else if (h.nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr e;

			run->done = true;
			if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(e))
				return mlx_err(run->ctx, EBADMSG, "short netlink error message");
			memcpy(&e, buf + off + NLMSG_HDRLEN, sizeof(e));
			if (e.error == 0)
				return 0;             /* the ack of a request */
			if (nl)
				extack_text(hp, nl->extack, sizeof(nl->extack));
			return e.error < 0 ? e.error : -e.error;
		} else if (h.nlmsg_type != NLMSG_NOOP) {
			r = run->cb ? run->cb(hp, h.nlmsg_len, run->arg) : 0;
			if (r < 0)
				return r;
			if (!(h.nlmsg_flags & NLM_F_MULTI))
				run->done = true;
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
		if (off > len)
			off = len;
	}
	return 0;
}

int mlx_nl_replay(struct mlx_ctx *ctx, const uint8_t *buf, size_t len, mlx_nl_cb cb, void *arg)
{
	struct run run = { .ctx = ctx, .cb = cb, .arg = arg };

	if (ctx->nl)
		ctx->nl->extack[0] = '\0';
	return process(&run, buf, len);
}

/* mkdir -p of a host path's parent directories. */
static int mkparents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			int e = -errno;

			*p = '/';
			return e;
		}
		*p = '/';
	}
	return 0;
}

/* A file of the capture being recorded (a host path under its directory). */
static int record_open(struct mlx_ctx *ctx, const char *rel)
{
	char full[PATH_MAX];
	int r, fd;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", ctx->nl->capture, rel) >= sizeof(full))
		return mlx_err(ctx, ENAMETOOLONG, "cannot record '%s': name too long", rel);
	r = mkparents(full);
	if (r < 0)
		return mlx_err(ctx, r, "cannot create the directory of '%s': %s", full, strerror(-r));
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return mlx_err(ctx, errno, "cannot create '%s': %s", full, strerror(errno));
	return fd;
}

static int capture_open(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
			const char *request)
{
	char rel[512];
	int r;

	r = mlx_netlink_capture_path(rel, sizeof(rel), mlx_nl_family_name(fam), object, request);
	if (r < 0)
		return mlx_err(ctx, r, "cannot record netlink reply '%s' for '%s': bad name",
			       request, object);
	return record_open(ctx, rel);
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int mlx_nl_query_recorded(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
			  const char *request, mlx_nl_cb cb, void *arg)
{
	char path[512];
	char *data = NULL;
	size_t len = 0;
	int r;

	r = mlx_netlink_capture_path(path, sizeof(path), mlx_nl_family_name(fam), object, request);
	if (r < 0)
		return mlx_err(ctx, EINVAL, "'%s' is not a usable netlink object name", object);
	r = mlx_read_file(ctx, path, &data, &len);
	if (r == -ENOENT || r == -ENOTDIR)
		return mlx_err(ctx, ENODATA, "the capture '%s' has no %s '%s' reply for '%s' (%s is "
			       "missing)", mlx_root(ctx), mlx_nl_family_name(fam), request, object,
			       path + 1);
	if (r < 0)
		return mlx_err(ctx, r, "cannot read '%s%s': %s", mlx_root(ctx), path, strerror(-r));
	r = mlx_nl_replay(ctx, (const uint8_t *)data, len, cb, arg);
	free(data);
	return r;
}

/* Every request goes through the kernel boundary (struct mlx_kops): the
 * live socket below, or the recording and the emulators of a captured
 * system (lib/core/boundary-captured.c). */
int mlx_nl_query(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		 const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	if ((unsigned)fam >= MLX_NL_NFAMILIES || len < NLMSG_HDRLEN)
		return -EINVAL;
	if (!state(ctx))
		return -ENOMEM;
	ctx->nl->extack[0] = '\0';
	return mlx_ctx_kops(ctx)->nl_request(ctx, fam, object, request, req, len, cb, arg);
}

/*
 * Send @msg (its header's sequence number, port and length set here) on
 * @sk and read until @run is done; with @fd >= 0 every datagram of the
 * reply is recorded there.  Replies to earlier requests (a dump a callback
 * stopped) are told apart by their sequence number and skipped.
 */
static int exchange(struct mlx_ctx *ctx, struct nl_sock *sk, uint8_t *msg, size_t len,
		    struct run *run, int fd, const char *what)
{
	struct nlmsghdr h;
	int r;

	memcpy(&h, msg, sizeof(h));
	h.nlmsg_seq = run->seq = nl_socket_use_seq(sk);
	if (!run->seq)
		h.nlmsg_seq = run->seq = nl_socket_use_seq(sk);
	h.nlmsg_pid = nl_socket_get_local_port(sk);
	h.nlmsg_len = (uint32_t)len;
	memcpy(msg, &h, sizeof(h));

	r = nl_sendto(sk, msg, len);
	if (r < 0) {
		r = nlerr_errno(r);
		return mlx_err(ctx, r, "cannot send the %s: %s", what, strerror(-r));
	}
	r = 0;
	while (!run->done && r == 0) {
		struct sockaddr_nl peer;
		unsigned char *buf = NULL;
		int n = nl_recv(sk, &peer, &buf, NULL);

		if (n < 0) {
			r = nlerr_errno(n);
			mlx_err(ctx, r, "cannot read the reply to the %s: %s", what, strerror(-r));
		} else if (n == 0) {
			r = mlx_err(ctx, EIO, "the kernel closed the socket of the %s", what);
		} else {
			if (fd >= 0 && write_all(fd, buf, (size_t)n) < 0)
				r = mlx_err(ctx, errno, "cannot record the netlink reply: %s",
					    strerror(errno));
			if (r == 0)
				r = process(run, buf, (size_t)n);
		}
		free(buf);
	}
	return r;
}

static int family_id_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd;
	uint16_t id;

	if (mlx_genlmsg_attrs(h, len, &cmd, &attrs, &alen) < 0 || cmd != CTRL_CMD_NEWFAMILY)
		return 0;
	while (mlx_nla_next(attrs, alen, &off, &a) == 1)
		if (a.type == CTRL_ATTR_FAMILY_ID && a.len >= sizeof(id)) {
			memcpy(&id, a.data, sizeof(id));
			*(int *)arg = id;
		}
	return 0;
}

/*
 * The id of the generic netlink family @name (CTRL_CMD_GETFAMILY, as
 * genl_ctrl_resolve asks it), -ENOENT when the kernel has none.  Asked on
 * the shared socket like any request of ours, not through libnl's
 * resolve: that one holds its reply to libnl's own expected sequence
 * number, which the requests here leave behind (they number themselves
 * with nl_socket_use_seq and read with nl_recv), so a family resolved
 * after any request failed as if the kernel lacked it (the kernel lab:
 * devlink after params' ethtool dumps, so no devlink parameter).
 */
static int resolve_family(struct mlx_ctx *ctx, struct nl_sock *sk, const char *name)
{
	struct genlmsghdr g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 };
	struct run run = { .ctx = ctx, .cb = family_id_cb };
	struct mlx_nlbuf b;
	uint8_t msg[128];
	char what[80];
	int id = -1, r;

	run.arg = &id;
	mlx_nlb_init(&b, msg, sizeof(msg));
	mlx_nlb_msg(&b, GENL_ID_CTRL, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	mlx_nlb_str(&b, CTRL_ATTR_FAMILY_NAME, name);
	r = mlx_nlb_finish(&b);
	if (r < 0)
		return mlx_err(ctx, EINVAL, "generic netlink family name '%s' is too long", name);
	snprintf(what, sizeof(what), "generic netlink family request for '%s'", name);
	r = exchange(ctx, sk, msg, (size_t)r, &run, -1, what);
	if (r == -ENOENT || (r == 0 && id <= 0))
		return -ENOENT;         /* the controller's "no such family" */
	return r < 0 ? r : id;
}

int mlx_nl_query_live(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		      const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	struct run run = { .ctx = ctx, .cb = cb, .arg = arg };
	struct nl_sock *sk = NULL;
	struct nlmsghdr h;
	uint8_t *msg = NULL;
	char what[200];
	int type = -1, r, fd = -1;

	if (!state(ctx))
		return -ENOMEM;
	r = get_sock(ctx, fam, &sk, &type);
	if (r < 0)
		return r;
	msg = malloc(len);
	if (!msg)
		return -ENOMEM;
	memcpy(msg, req, len);
	if (type >= 0) {
		memcpy(&h, msg, sizeof(h));
		h.nlmsg_type = (uint16_t)type;
		memcpy(msg, &h, sizeof(h));
	}
	if (ctx->nl->capture) {
		fd = capture_open(ctx, fam, object, request);
		if (fd < 0) {
			free(msg);
			return fd;
		}
	}
	snprintf(what, sizeof(what), "%s '%s' request for '%s'", mlx_nl_family_name(fam), request,
		 object);
	r = exchange(ctx, sk, msg, len, &run, fd, what);
	free(msg);
	if (fd >= 0)
		close(fd);
	return r;
}
