/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of the DCB writes on a captured system (--sysroot, the
 * --sample working copies; DESIGN.md "The root prefix").  The recorded
 * replies netlink/route/<ifname>/{ieee-get,gdcbx}.nl ARE the port's state:
 * a request is checked byte for byte (mlx_dcb_parse_req), applied to that
 * state the way net/dcb/dcbnl.c and mlx5 en_dcbnl.c would, and the state
 * is written back in dcbnl_ieee_fill() layout, so the next read replays it
 * through the same parsers.
 *
 * mlx5 semantics modelled (en_dcbnl.c):
 *  - ETS: prio_tc >= 8 -> -EINVAL; ETS bandwidths summing to neither 0 nor
 *    100 -> -EINVAL; strict and vendor TCs read back 100 (the hardware
 *    allocation mlx5e_build_tc_tx_bw programs).
 *  - MAXRATE: 0 unlimited; <= 25.5 Gb/s in 100 Mb/s units (0 becomes 1
 *    unit), above in 1 Gb/s units, rounded down; above 255 Gb/s -EINVAL.
 *  - PFC: pfc_en as given; delay is the cable length, taken when non-zero
 *    and below 1000, silently ignored otherwise; the port's global pause
 *    then reads off (mlx5: one register, PFCC; emul.h mlx_emul_pause_clear).
 *  - BUFFER: prio2buffer >= 8 -> -EINVAL (dcbnl core); sizes above the
 *    port's total -EINVAL.
 *  - APP set: only selector DSCP (5) with protocol < 64, else -EINVAL; one
 *    entry per DSCP (a new priority replaces the old entry).  APP del:
 *    -EINVAL likewise, -ENOENT when there is no DSCP entry or the priority
 *    is not the current one.  Trust = "any DSCP entry" follows.
 *  - SDCBX: LLD_MANAGED refused; 0 hands DCBX to the firmware (HOST bit
 *    cleared); otherwise HOST must be set, and becomes the mode.
 * The ops of one IEEE_SET run in dcbnl_ieee_set() order (ETS, MAXRATE,
 * PFC, BUFFER, APP entries one by one); the first failure stops the rest,
 * and what ran before it stays applied, as in the kernel.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/rtnetlink.h>

#include "emul.h"
#include "mlx-private.h"
#include "dcb.h"
#include "snapshot.h"

#define REPLY_MAX 8192

struct emul {
	struct mlx_ctx *ctx;
	struct mlx_dcb_state st;
	char *old;              /* ieee-get.nl as loaded, for the rollback */
	size_t oldlen;
};

static int load_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	return mlx_dcb_parse(h, len, arg);
}

static int load_state(struct emul *e, const char *ifname)
{
	char path[160], *data = NULL;
	size_t len;
	int r;

	memset(&e->st, 0, sizeof(e->st));
	snprintf(path, sizeof(path), "/netlink/route/%s/ieee-get.nl", ifname);
	r = mlx_read_file(e->ctx, path, &data, &len);
	if (r == -ENOENT || r == -ENOTDIR) {
		char dev[160];

		/* No recorded DCB state: a netdev that is there has no DCB ops
		 * (what dcb_doit answers), one that is not is -ENODEV. */
		snprintf(dev, sizeof(dev), "/sys/class/net/%s", ifname);
		return mlx_exists(e->ctx, dev) ? -EOPNOTSUPP : -ENODEV;
	}
	if (r < 0)
		return r;
	r = mlx_nl_replay(e->ctx, (const uint8_t *)data, len, load_cb, &e->st);
	free(e->old);
	e->old = data;
	e->oldlen = len;
	if (r == 0 && !e->st.has_dcbx) {
		/* an older capture: the DCBX byte in its own reply */
		struct mlx_dcb_state tmp;

		memset(&tmp, 0, sizeof(tmp));
		snprintf(path, sizeof(path), "/netlink/route/%s/gdcbx.nl", ifname);
		if (mlx_read_file(e->ctx, path, &data, &len) == 0) {
			if (mlx_nl_replay(e->ctx, (const uint8_t *)data, len, load_cb, &tmp) == 0 &&
			    tmp.has_dcbx) {
				e->st.dcbx = tmp.dcbx;
				e->st.has_dcbx = true;
			}
			free(data);
		}
	}
	snprintf(e->st.ifname, sizeof(e->st.ifname), "%s", ifname);
	return r;
}



/*
 * Write the state back: ieee-get.nl, then gdcbx.nl.  Each file is replaced
 * whole; when the second fails, the first gets its old bytes (kept from
 * load_state) back, so a failure leaves the recorded state as it was.
 */
/*
 * The reply's netlink header keeps the capture's sequence number and port
 * id (the request the capture answered): a state written back unchanged
 * (a put-back) is then the recorded file to the byte, as the fault matrix
 * checks (the encoders write 0 and 0).
 */
static void keep_header(uint8_t *buf, int len, const char *old, size_t oldlen)
{
	if (len >= NLMSG_HDRLEN && old && oldlen >= NLMSG_HDRLEN)
		memcpy(buf + 8, old + 8, 8);     /* nlmsg_seq, nlmsg_pid */
}

static int save_state(struct emul *e)
{
	uint8_t *buf = malloc(REPLY_MAX);
	struct mlx_nlbuf b;
	char path[160], path2[160], *old2 = NULL;
	size_t old2len = 0;
	int len, r;

	if (!buf)
		return -ENOMEM;
	mlx_nlb_init(&b, buf, REPLY_MAX);
	len = mlx_dcb_encode_ieee(&b, &e->st);
	keep_header(buf, len, e->old, e->oldlen);
	snprintf(path, sizeof(path), "/netlink/route/%s/ieee-get.nl", e->st.ifname);
	r = len < 0 ? len : mlx_replace_file(e->ctx, path, buf, (size_t)len);
	if (r == 0 && e->st.has_dcbx) {
		snprintf(path2, sizeof(path2), "/netlink/route/%s/gdcbx.nl", e->st.ifname);
		len = mlx_dcb_encode_dcbx(&b, e->st.ifname, e->st.dcbx);
		if (mlx_read_file(e->ctx, path2, &old2, &old2len) < 0)
			old2 = NULL;
		keep_header(buf, len, old2, old2len);
		free(old2);
		r = len < 0 ? len : mlx_replace_file(e->ctx, path2, buf, (size_t)len);
		if (r < 0) {
			int u = mlx_replace_file(e->ctx, path, e->old, e->oldlen);

			if (u < 0)
				mlx_log(e->ctx, MLX_LOG_ERR, "DCB emulator: cannot restore '%s%s' "
					"after a failed update: %s", mlx_root(e->ctx), path,
					strerror(-u));
		}
	}
	free(buf);
	return r;
}

/* save_state() of a PFC write, with the pause it clears (dcb_request) */
static int pfc_write_with_pause(struct emul *e, const char *ifname)
{
	char path[512], *old = NULL;
	size_t oldlen = 0;
	int r, u;

	/* the pause reply as it is, to put back (none recorded: nothing) */
	if (mlx_netlink_capture_path(path, sizeof(path), "ethtool", ifname, "pause-get") == 0 &&
	    mlx_read_file(e->ctx, path, &old, &oldlen) < 0)
		old = NULL;
	r = mlx_emul_pause_clear(e->ctx, ifname);
	if (r == 0) {
		r = save_state(e);
		if (r < 0 && old && (u = mlx_replace_file(e->ctx, path, old, oldlen)) < 0)
			mlx_log(e->ctx, MLX_LOG_ERR, "DCB emulator: cannot restore '%s%s' after a "
				"failed update: %s", mlx_root(e->ctx), path, strerror(-u));
	}
	free(old);
	return r;
}

/* ---- the driver (mlx5 en_dcbnl.c) ---- */

static int setets(struct emul *e, const struct ieee_ets *in)
{
	unsigned sum = 0;

	for (int i = 0; i < MLX_DCB_NTC; i++)
		if (in->prio_tc[i] >= 8)
			return -EINVAL;
	for (int i = 0; i < MLX_DCB_NTC; i++)
		if (in->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS)
			sum += in->tc_tx_bw[i];
	if (sum != 0 && sum != 100)
		return -EINVAL;
	memcpy(e->st.ets.prio_tc, in->prio_tc, sizeof(in->prio_tc));
	memcpy(e->st.ets.tc_tsa, in->tc_tsa, sizeof(in->tc_tsa));
	for (int i = 0; i < MLX_DCB_NTC; i++)
		e->st.ets.tc_tx_bw[i] = in->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS ? in->tc_tx_bw[i] : 100;
	e->st.ets.willing = in->willing;
	e->st.has_ets = true;
	return 0;
}

static int setmaxrate(struct emul *e, const struct ieee_maxrate *in)
{
	const uint64_t u100m = 100000, u1g = 1000000;   /* kbit/s */
	uint64_t out[8];

	for (int i = 0; i < 8; i++) {
		uint64_t v = in->tc_maxrate[i];

		if (!v)
			out[i] = 0;
		else if (v <= 255 * u100m)
			out[i] = (v / u100m ? v / u100m : 1) * u100m;
		else if (v <= 255 * u1g)
			out[i] = v / u1g * u1g;
		else
			return -EINVAL;
	}
	memcpy(e->st.maxrate.tc_maxrate, out, sizeof(out));
	e->st.has_maxrate = true;
	return 0;
}

static int setpfc(struct emul *e, const struct ieee_pfc *in)
{
	e->st.pfc.pfc_en = in->pfc_en;
	if (in->delay && in->delay < MLX_DCB_MAX_CABLE_LEN)
		e->st.pfc.delay = in->delay;
	e->st.has_pfc = true;
	return 0;
}

static int emul_setbuffer(struct emul *e, const struct dcbnl_buffer *in)
{
	uint64_t sum = 0;

	for (int p = 0; p < 8; p++)
		if (in->prio2buffer[p] >= DCBX_MAX_BUFFERS)
			return -EINVAL;          /* dcbnl core, before the driver */
	for (int i = 0; i < DCBX_MAX_BUFFERS; i++)
		sum += in->buffer_size[i];
	if (e->st.buffer.total_size && sum > e->st.buffer.total_size)
		return -EINVAL;
	memcpy(e->st.buffer.prio2buffer, in->prio2buffer, sizeof(in->prio2buffer));
	memcpy(e->st.buffer.buffer_size, in->buffer_size, sizeof(in->buffer_size));
	e->st.has_buffer = true;
	return 0;
}

static ssize_t find_dscp(const struct mlx_dcb_state *st, uint16_t proto)
{
	for (size_t i = 0; i < st->napp; i++)
		if (st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP && st->app[i].protocol == proto)
			return (ssize_t)i;
	return -1;
}

static int setapp(struct emul *e, const struct dcb_app *a)
{
	ssize_t i;

	if (a->selector != IEEE_8021QAZ_APP_SEL_DSCP || a->protocol >= MLX_DCB_NDSCP)
		return -EINVAL;
	i = find_dscp(&e->st, a->protocol);
	if (i >= 0) {
		e->st.app[i].priority = a->priority;
		return 0;
	}
	if (e->st.napp >= MLX_DCB_MAX_APP)
		return -ENOMEM;
	/* dcb_app_add() puts new entries at the list head... */
	memmove(&e->st.app[1], &e->st.app[0], e->st.napp * sizeof(e->st.app[0]));
	e->st.app[0] = *a;
	e->st.napp++;
	return 0;
}

static int delapp(struct emul *e, const struct dcb_app *a)
{
	ssize_t i;

	if (a->selector != IEEE_8021QAZ_APP_SEL_DSCP || a->protocol >= MLX_DCB_NDSCP)
		return -EINVAL;
	i = find_dscp(&e->st, a->protocol);
	if (i < 0 || e->st.app[i].priority != a->priority)
		return -ENOENT;
	memmove(&e->st.app[i], &e->st.app[i + 1], (e->st.napp - (size_t)i - 1) * sizeof(e->st.app[0]));
	e->st.napp--;
	return 0;
}

static int setdcbx(struct emul *e, uint8_t mode)
{
	if (mode & DCB_CAP_DCBX_LLD_MANAGED)
		return -EINVAL;
	if (!mode) {
		e->st.dcbx &= (uint8_t)~DCB_CAP_DCBX_HOST;
		e->st.has_dcbx = true;
		return 0;
	}
	if (!(mode & DCB_CAP_DCBX_HOST))
		return -EINVAL;
	e->st.dcbx = mode;
	e->st.has_dcbx = true;
	return 0;
}

/* dcbnl_ieee_set / dcbnl_ieee_del: the first failure stops the rest. */
static int ieee(struct emul *e, const struct mlx_dcb_req *rq)
{
	const struct mlx_dcb_msg *m = &rq->m;
	int r = 0;

	if (rq->cmd == DCB_CMD_IEEE_DEL) {
		for (size_t i = 0; i < m->napp && !r; i++)
			r = delapp(e, &m->app[i]);
		return r;
	}
	if (m->ets && (r = setets(e, m->ets)))
		return r;
	if (m->maxrate && (r = setmaxrate(e, m->maxrate)))
		return r;
	if (m->pfc && (r = setpfc(e, m->pfc)))
		return r;
	if (m->buffer && (r = emul_setbuffer(e, m->buffer)))
		return r;
	for (size_t i = 0; i < m->napp && !r; i++)
		r = setapp(e, &m->app[i]);
	return r;
}

int mlx_dcb_emul(struct mlx_ctx *ctx, const uint8_t *req, size_t len, uint8_t **reply,
		 size_t *rlen)
{
	struct emul *e = calloc(1, sizeof(*e));
	struct mlx_dcb_req *rq = calloc(1, sizeof(*rq));
	uint8_t *out = malloc(REPLY_MAX);
	struct mlx_nlbuf b;
	char why[200] = "";
	int r, err, n;

	*reply = NULL;
	*rlen = 0;
	if (!e || !rq || !out) {
		r = -ENOMEM;
		goto out;
	}
	e->ctx = ctx;
	mlx_nlb_init(&b, out, REPLY_MAX);
	r = mlx_dcb_parse_req(req, len, rq, why, sizeof(why));
	if (r < 0) {
		mlx_log(ctx, MLX_LOG_DEBUG, "DCB emulator: malformed request: %s", why);
		err = r;
		goto error_reply;
	}
	if (rq->type != RTM_SETDCB ||
	    (rq->cmd != DCB_CMD_IEEE_SET && rq->cmd != DCB_CMD_IEEE_DEL && rq->cmd != DCB_CMD_SDCBX)) {
		err = -EOPNOTSUPP;      /* reads replay the capture; nothing else is emulated */
		goto error_reply;
	}
	if (rq->cmd == DCB_CMD_SDCBX ? !rq->has_dcbx : !rq->has_ieee) {
		err = -EINVAL;          /* dcbnl_setdcbx / dcbnl_ieee_set: attribute missing */
		goto error_reply;
	}
	err = load_state(e, rq->ifname);
	if (err < 0)
		goto error_reply;
	err = rq->cmd == DCB_CMD_SDCBX ? setdcbx(e, rq->dcbx) : ieee(e, rq);
	/* mlx5 writes PFC and global pause in one register (PFCC): a PFC
	 * write leaves pptx/pprx 0 (port.c mlx5_set_port_pfc), so ethtool -a
	 * then says pause off.  One register is one step: the pause is
	 * cleared first and put back when the DCB files cannot be written,
	 * so a failure leaves both as they were (the fault matrix's third
	 * write of `qosconfig pfc` left PFC put back and pause off). */
	if (err == 0 && rq->cmd == DCB_CMD_IEEE_SET && rq->m.pfc)
		r = pfc_write_with_pause(e, rq->ifname);
	else
		r = save_state(e);
	if (r < 0) {
		/* the working copy is not writable by this user: as the kernel
		 * refuses a write without CAP_NET_ADMIN */
		err = r == -EACCES || r == -EROFS ? -EPERM : r;
		goto error_reply;
	}
	n = mlx_dcb_encode_set_reply(&b, rq->cmd, err);
	if (n < 0) {
		r = n;
		goto out;
	}
	r = 0;
	goto done;
error_reply:
	n = mlx_dcb_encode_error(&b, err, req, len);
	if (n < 0) {
		r = n;
		goto out;
	}
	r = 0;
done:
	*reply = out;
	*rlen = (size_t)n;
	out = NULL;
out:
	free(out);
	free(rq);
	if (e)
		free(e->old);
	free(e);
	return r;
}

/* ---- the captured boundary's entry (emul.h) ------------------------------ */

static bool dcb_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct nlmsghdr h;

	(void)len;
	memcpy(&h, req, sizeof(h));
	return fam == MLX_NL_ROUTE && h.nlmsg_type == RTM_SETDCB;
}

/* The emulator answers as dcbnl would: its reply goes to the caller. */
static int dcb_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req, size_t len,
		       mlx_nl_cb cb, void *arg)
{
	uint8_t *reply = NULL;
	size_t rlen = 0;
	int r = mlx_dcb_emul(ctx, req, len, &reply, &rlen);

	(void)fam;
	if (r == 0)
		r = mlx_nl_replay(ctx, reply, rlen, cb, arg);
	free(reply);
	return r;
}

const struct mlx_emul mlx_emul_dcb = {
	.name = "dcb",
	.nl_takes = dcb_takes,
	.nl_request = dcb_request,
};

int mlx_emul_pfc_clear(struct mlx_ctx *ctx, const char *ifname)
{
	struct emul *e = calloc(1, sizeof(*e));
	int r;

	if (!e)
		return -ENOMEM;
	e->ctx = ctx;
	r = load_state(e, ifname);
	/* no recorded DCB state: no PFC to clear */
	if (r == -EOPNOTSUPP || r == -ENODEV)
		r = 0;
	else if (r == 0 && e->st.has_pfc && e->st.pfc.pfc_en) {
		e->st.pfc.pfc_en = 0;
		r = save_state(e);
	}
	free(e->old);
	free(e);
	return r;
}
