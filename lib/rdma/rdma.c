/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink queries (lib/rdma.h): the requests go through the kernel
 * boundary (mlx_nl_query, MLX_NL_RDMA), the replies into the pure decoders
 * of lib/decode/decode-rdma.c.  Live, a query records itself when a
 * snapshot is being taken; on a captured system it replays the recording
 * (netlink/rdma/<object>/<request>.nl).
 *
 * Requests follow drivers/infiniband/core/nldev.c: every resource dump
 * needs RDMA_NLDEV_ATTR_DEV_INDEX (res_get_common_dumpit); STAT_GET with
 * DEV_INDEX and PORT_INDEX and no STAT_RES answers the port's default
 * counters (stat_get_doit_default_counter), with STAT_RES=RES_QP and
 * STAT_MODE the port's QP counter mode (stat_get_doit_qp), and as a dump
 * with STAT_RES=RES_QP the bound counters; STAT_GET_STATUS lists which
 * counters are optional and enabled.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <rdma/rdma_netlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "rdma.h"

struct reply {
	struct mlx_ctx *ctx;
	int (*decode)(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el);
	void *out;
	enum mlx_rdma_kind kind;
	size_t n;
	const char *what;
};

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct reply *rp = arg;
	char err[160] = "";
	int r = rp->decode(rp, h, len, err, sizeof(err));

	if (r == -ENOMEM)
		return mlx_err(rp->ctx, ENOMEM, "out of memory decoding the RDMA %s reply", rp->what);
	if (r < 0)
		return mlx_err(rp->ctx, EBADMSG, "malformed RDMA %s reply: %s", rp->what, err);
	return 0;
}

static int query(struct mlx_ctx *ctx, const char *object, const char *request, uint16_t cmd,
		 bool dump, const struct mlx_rdma_dev *d, uint32_t port, uint32_t stat_res,
		 bool stat_mode, struct reply *rp)
{
	uint8_t buf[64];
	int len = mlx_rdma_build(buf, sizeof(buf), cmd, dump, d ? d->index : 0, d != NULL, port,
				 stat_res, stat_mode);

	if (len < 0)
		return len;
	rp->ctx = ctx;
	return mlx_nl_query(ctx, MLX_NL_RDMA, object, request, buf, (size_t)len, on_msg, rp);
}

/* ---- devices -------------------------------------------------------------- */

static int dec_dev(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	struct mlx_rdma_devs *d = rp->out;
	struct mlx_rdma_dev one, *v;
	int r = mlx_rdma_decode_dev(h, len, &one, err, el);

	if (r < 0)
		return r;
	v = realloc(d->v, (d->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	d->v = v;
	d->v[d->n++] = one;
	return 0;
}

int mlx_rdma_devs_get(struct mlx_ctx *ctx, struct mlx_rdma_devs *out)
{
	struct reply rp = { .decode = dec_dev, .out = out, .what = "device" };
	int r;

	memset(out, 0, sizeof(*out));
	r = query(ctx, "all", "get", RDMA_NLDEV_CMD_GET, true, NULL, 0, 0, false, &rp);
	if (r < 0)
		mlx_rdma_devs_free(out);
	return r;
}

void mlx_rdma_devs_free(struct mlx_rdma_devs *d)
{
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

const struct mlx_rdma_dev *mlx_rdma_dev_find(const struct mlx_rdma_devs *d, const char *name)
{
	for (size_t i = 0; name && i < d->n; i++)
		if (!strcmp(d->v[i].name, name))
			return &d->v[i];
	return NULL;
}

/* The device name as a capture object: the kernel's names are safe (no
 * '/'), but a hostile capture's need not be. */
static int dev_object(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d)
{
	if (!mlx_name_is_safe(d->name))
		return mlx_err(ctx, EINVAL, "RDMA device name '%s' is not a usable name", d->name);
	return 0;
}

struct port_out {
	struct mlx_rdma_port *v;
	size_t n;
};

static int dec_port(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	struct port_out *po = rp->out;
	struct mlx_rdma_port one, *v;
	int r = mlx_rdma_decode_port(h, len, &one, err, el);

	if (r < 0)
		return r;
	v = realloc(po->v, (po->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	po->v = v;
	po->v[po->n++] = one;
	return 0;
}

int mlx_rdma_ports_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d,
		       struct mlx_rdma_port **v, size_t *n)
{
	struct port_out po = { NULL, 0 };
	struct reply rp = { .decode = dec_port, .out = &po, .what = "port" };
	int r = dev_object(ctx, d);

	*v = NULL;
	*n = 0;
	if (r == 0)
		r = query(ctx, d->name, "port-get", RDMA_NLDEV_CMD_PORT_GET, true, d, 0, 0, false, &rp);
	if (r < 0) {
		free(po.v);
		return r;
	}
	*v = po.v;
	*n = po.n;
	return 0;
}

struct sum_out {
	struct mlx_rdma_summary *v;
	size_t n;
};

static int dec_sum(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	struct sum_out *so = rp->out;
	struct mlx_rdma_summary one, *v;
	int r = mlx_rdma_decode_summary(h, len, &one, err, el);

	if (r < 0)
		return r;
	v = realloc(so->v, (so->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	so->v = v;
	so->v[so->n++] = one;
	return 0;
}

int mlx_rdma_summary_get(struct mlx_ctx *ctx, struct mlx_rdma_summary **v, size_t *n)
{
	struct sum_out so = { NULL, 0 };
	struct reply rp = { .decode = dec_sum, .out = &so, .what = "resource summary" };
	int r = query(ctx, "all", "res-get", RDMA_NLDEV_CMD_RES_GET, true, NULL, 0, 0, false, &rp);

	if (r < 0) {
		free(so.v);
		*v = NULL;
		*n = 0;
		return r;
	}
	*v = so.v;
	*n = so.n;
	return 0;
}

/* ---- resources -------------------------------------------------------------- */

static const uint16_t res_cmd[MLX_RDMA_NKINDS] = {
	[MLX_RDMA_QP] = RDMA_NLDEV_CMD_RES_QP_GET, [MLX_RDMA_CM_ID] = RDMA_NLDEV_CMD_RES_CM_ID_GET,
	[MLX_RDMA_CQ] = RDMA_NLDEV_CMD_RES_CQ_GET, [MLX_RDMA_MR] = RDMA_NLDEV_CMD_RES_MR_GET,
	[MLX_RDMA_PD] = RDMA_NLDEV_CMD_RES_PD_GET, [MLX_RDMA_CTX] = RDMA_NLDEV_CMD_RES_CTX_GET,
	[MLX_RDMA_SRQ] = RDMA_NLDEV_CMD_RES_SRQ_GET,
};
/* RES_SRQ_GET_RAW follows STAT_GET_STATUS in the kernel's enum (newer than
 * Debian 12's uapi header). */
static const uint16_t raw_cmd[MLX_RDMA_NKINDS] = {
	[MLX_RDMA_QP] = RDMA_NLDEV_CMD_RES_QP_GET_RAW, [MLX_RDMA_CQ] = RDMA_NLDEV_CMD_RES_CQ_GET_RAW,
	[MLX_RDMA_MR] = RDMA_NLDEV_CMD_RES_MR_GET_RAW,
	[MLX_RDMA_SRQ] = RDMA_NLDEV_CMD_STAT_GET_STATUS + 1,
};

static int dec_res(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	return mlx_rdma_decode_res(h, len, rp->kind, rp->out, err, el);
}

int mlx_rdma_res_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d, enum mlx_rdma_kind k,
		     struct mlx_rdma_res_list *out)
{
	struct reply rp = { .decode = dec_res, .out = out, .kind = k };
	char req[32];
	int r;

	if ((unsigned)k >= MLX_RDMA_NKINDS)
		return -EINVAL;
	rp.what = mlx_rdma_kind_name(k);
	r = dev_object(ctx, d);
	if (r < 0)
		return r;
	/* "res-cm_id-get": the kernel's kind name, as the summary spells it */
	snprintf(req, sizeof(req), "res-%s-get", mlx_rdma_kind_name(k));
	return query(ctx, d->name, req, res_cmd[k], true, d, 0, 0, false, &rp);
}

static int dec_raw(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	return mlx_rdma_decode_raw(h, len, rp->kind, rp->out, err, el);
}

int mlx_rdma_raw_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d, enum mlx_rdma_kind k,
		     struct mlx_rdma_raw_list *out)
{
	struct reply rp = { .decode = dec_raw, .out = out, .kind = k, .what = "raw context" };
	char req[32];
	int r;

	if ((unsigned)k >= MLX_RDMA_NKINDS || !mlx_rdma_kind_has_raw(k))
		return -EINVAL;
	r = dev_object(ctx, d);
	if (r < 0)
		return r;
	snprintf(req, sizeof(req), "res-%s-get-raw", mlx_rdma_kind_name(k));
	r = query(ctx, d->name, req, raw_cmd[k], true, d, 0, 0, false, &rp);
	if (r == -EPERM || r == -EACCES)
		return mlx_err(ctx, r, "the raw %s contexts of %s need CAP_NET_ADMIN (root)",
			       mlx_rdma_kind_name(k), d->name);
	return r;
}

/* ---- counters ------------------------------------------------------------------ */

static int dec_stat(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	return mlx_rdma_decode_stat(h, len, rp->out, err, el);
}

int mlx_rdma_stat_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d, uint32_t port,
		      struct mlx_rdma_stat *out)
{
	struct reply rp = { .decode = dec_stat, .out = out, .what = "counter" };
	char req[48];
	int r, ok = 0, first = 0;

	memset(out, 0, sizeof(*out));
	out->dev_index = d->index;
	out->port = port;
	out->mode = -1;
	out->auto_mask = -1;
	r = dev_object(ctx, d);
	if (r < 0)
		return r;
	snprintf(req, sizeof(req), "stat-get-port%u", port);
	r = query(ctx, d->name, req, RDMA_NLDEV_CMD_STAT_GET, false, d, port, 0, false, &rp);
	ok += r == 0;
	first = r;
	/* Which counters are optional, and on: kernels from 5.18 on. */
	snprintf(req, sizeof(req), "stat-status-port%u", port);
	r = query(ctx, d->name, req, RDMA_NLDEV_CMD_STAT_GET_STATUS, false, d, port, 0, false, &rp);
	ok += r == 0;
	snprintf(req, sizeof(req), "stat-mode-port%u", port);
	r = query(ctx, d->name, req, RDMA_NLDEV_CMD_STAT_GET, false, d, port, RDMA_NLDEV_ATTR_RES_QP,
		  true, &rp);
	ok += r == 0;
	if (ok) {
		mlx_err_clear(ctx);
		return 0;
	}
	return first;           /* none answered: the first failure's story */
}

static int dec_counters(struct reply *rp, const struct nlmsghdr *h, size_t len, char *err, size_t el)
{
	return mlx_rdma_decode_counters(h, len, rp->out, err, el);
}

int mlx_rdma_counters_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d,
			  struct mlx_rdma_counter_list *out)
{
	struct reply rp = { .decode = dec_counters, .out = out, .what = "bound counter" };
	int r = dev_object(ctx, d);

	if (r < 0)
		return r;
	return query(ctx, d->name, "stat-qp-get", RDMA_NLDEV_CMD_STAT_GET, true, d, 0,
		     RDMA_NLDEV_ATTR_RES_QP, false, &rp);
}

/* ---- a netdev's RDMA port ---------------------------------------------------------- */

int mlx_rdma_port_of_netdev(struct mlx_ctx *ctx, const char *ifname, char *dev, size_t len,
			    uint32_t *port)
{
	struct mlx_rdma_devs devs;
	int r = mlx_rdma_devs_get(ctx, &devs), found = -ENOENT;

	if (r == -EPROTONOSUPPORT || r == -ENODATA) {
		mlx_err_clear(ctx);
		return -ENOENT;
	}
	if (r < 0)
		return r;
	for (size_t i = 0; i < devs.n && found == -ENOENT; i++) {
		struct mlx_rdma_port *p = NULL;
		size_t np = 0;

		if (mlx_rdma_ports_get(ctx, &devs.v[i], &p, &np) < 0)
			continue;
		for (size_t k = 0; k < np && found == -ENOENT; k++)
			if (ifname && !strcmp(p[k].netdev, ifname) &&
			    (size_t)snprintf(dev, len, "%s", devs.v[i].name) < len) {
				*port = p[k].port;
				found = 0;
			}
		free(p);
	}
	mlx_rdma_devs_free(&devs);
	mlx_err_clear(ctx);
	return found;
}

/* ---- processes ------------------------------------------------------------------ */

void mlx_rdma_comm(struct mlx_ctx *ctx, uint32_t pid, char *buf, size_t len)
{
	char path[64];

	if (!len)
		return;
	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	if (mlx_read_str(ctx, path, buf, len) < 0)
		buf[0] = '\0';
	mlx_err_clear(ctx);
}

bool mlx_rdma_privileged(struct mlx_ctx *ctx)
{
	return mlx_kernel_net_admin(ctx);
}

int mlx_rdma_driver_version(struct mlx_ctx *ctx, const char *module, char *buf, size_t len)
{
	char path[128];
	int r;

	if (!module || !mlx_name_is_safe(module))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/module/%s/version", module);
	r = mlx_read_str(ctx, path, buf, len);
	mlx_err_clear(ctx);
	return r;
}

int mlx_rdma_hw_counter(struct mlx_ctx *ctx, const char *dev, uint32_t port, const char *name,
			uint64_t *v)
{
	char path[256];
	int r;

	if (!mlx_name_is_safe(dev) || !mlx_name_is_safe(name))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/hw_counters/%s", dev, port,
		 name);
	r = mlx_read_u64(ctx, path, v);
	mlx_err_clear(ctx);
	return r;
}

int mlx_rdma_netdev_mtu(struct mlx_ctx *ctx, const char *ifname, unsigned *mtu)
{
	char path[96];
	uint64_t v;
	int r;

	if (!ifname || !mlx_name_is_safe(ifname))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
	r = mlx_read_u64(ctx, path, &v);
	mlx_err_clear(ctx);
	if (r < 0)
		return r;
	if (v > 0xffffffffu)
		return -ERANGE;
	*mtu = (unsigned)v;
	return 0;
}

/* ---- recording -------------------------------------------------------------------- */

/* /proc/<pid>/comm of each owner into the capture, once per PID. */
static void record_comms(struct mlx_ctx *ctx, const struct mlx_rdma_res_list *l, uint32_t **seen,
			 size_t *nseen)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct mlx_rdma_res *o = &l->v[i];
		char comm[64], rel[64];
		struct iovec iov;
		bool dup = false;
		uint32_t *v;

		if (!(o->has & MLX_RES_PID))
			continue;
		for (size_t j = 0; j < *nseen && !dup; j++)
			dup = (*seen)[j] == o->pid;
		if (dup)
			continue;
		v = realloc(*seen, (*nseen + 1) * sizeof(*v));
		if (!v)
			return;
		*seen = v;
		v[(*nseen)++] = o->pid;
		mlx_rdma_comm(ctx, o->pid, comm, sizeof(comm) - 1);
		if (!comm[0])
			continue;
		strcat(comm, "\n");
		snprintf(rel, sizeof(rel), "/proc/%u/comm", o->pid);
		iov.iov_base = comm;
		iov.iov_len = strlen(comm);
		mlx_nl_record_file(ctx, rel, &iov, 1);
	}
}

void mlx_rdma_record(struct mlx_ctx *ctx, bool raw)
{
	struct mlx_rdma_devs devs;
	struct mlx_rdma_summary *sum = NULL;
	uint32_t *seen = NULL;
	size_t nsum = 0, nseen = 0;

	if (mlx_rdma_devs_get(ctx, &devs) < 0) {
		mlx_err_clear(ctx);
		return;
	}
	mlx_rdma_summary_get(ctx, &sum, &nsum);
	free(sum);
	for (size_t i = 0; i < devs.n; i++) {
		const struct mlx_rdma_dev *d = &devs.v[i];
		struct mlx_rdma_port *ports = NULL;
		struct mlx_rdma_counter_list cl = { 0 };
		size_t np = 0;

		if (!mlx_name_is_safe(d->name))
			continue;
		mlx_rdma_ports_get(ctx, d, &ports, &np);
		for (size_t p = 0; p < np; p++) {
			struct mlx_rdma_stat st;

			mlx_rdma_stat_get(ctx, d, ports[p].port, &st);
			mlx_rdma_stat_free(&st);
		}
		free(ports);
		for (int k = 0; k < MLX_RDMA_NKINDS; k++) {
			struct mlx_rdma_res_list l = { 0 };

			if (mlx_rdma_res_get(ctx, d, (enum mlx_rdma_kind)k, &l) == 0)
				record_comms(ctx, &l, &seen, &nseen);
			mlx_rdma_res_list_free(&l);
			if (raw && mlx_rdma_kind_has_raw((enum mlx_rdma_kind)k)) {
				struct mlx_rdma_raw_list rl = { 0 };

				mlx_rdma_raw_get(ctx, d, (enum mlx_rdma_kind)k, &rl);
				mlx_rdma_raw_list_free(&rl);
			}
		}
		mlx_rdma_counters_get(ctx, d, &cl);
		mlx_rdma_counter_list_free(&cl);
	}
	free(seen);
	mlx_rdma_devs_free(&devs);
	mlx_err_clear(ctx);
}
