/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCB queries and the all-or-nothing write engine (contract in lib/dcb.h).
 * One rtnetlink socket per run (lib/backend/nl.c).  Live, requests go to the
 * kernel; under --sysroot, reads replay the captured replies and writes go
 * to the emulator (lib/emul/dcb-emul.c), whose replies are fed to the very same
 * parsers.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx-private.h"
#include "dcb.h"

#define REQ_MAX 4096

struct get_arg {
	struct mlx_dcb_state *st;
	int err;
};

static int get_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct get_arg *g = arg;
	int r = mlx_dcb_parse(h, len, g->st);

	if (r < 0)
		g->err = r;
	return r;
}

/* The message of a failed DCB request, by errno: what the kernel means. */
static int dcb_fail(struct mlx_ctx *ctx, int r, const char *ifname, const char *what)
{
	const char *ext = mlx_nl_extack(ctx);
	char tail[300] = "";

	if (ext && *ext)
		snprintf(tail, sizeof(tail), " (kernel: %s)", ext);
	switch (-r) {
	case EOPNOTSUPP:
		return mlx_err(ctx, EOPNOTSUPP, "cannot %s of '%s': not supported by this driver "
			       "(the kernel answers EOPNOTSUPP: the interface has no DCB netlink "
			       "operations; mlx5 registers them on PFs only)%s", what, ifname, tail);
	case ENODEV:
		return mlx_err(ctx, ENODEV, "cannot %s of '%s': there is no such network interface%s",
			       what, ifname, tail);
	case EPERM:
	case EACCES:
		return mlx_err(ctx, -r, "cannot %s of '%s': permission denied (DCB changes need "
			       "CAP_NET_ADMIN)%s", what, ifname, tail);
	case ENODATA:
		return r;       /* lib/backend/nl.c said which capture file is missing */
	default:
		return mlx_err(ctx, -r, "cannot %s of '%s': %s%s", what, ifname, strerror(-r), tail);
	}
}

int mlx_dcb_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_dcb_state *st)
{
	uint8_t buf[256];
	struct mlx_nlbuf b;
	struct get_arg g = { .st = st };
	int len, r;

	memset(st, 0, sizeof(*st));
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= sizeof(st->ifname))
		return mlx_err(ctx, EINVAL, "'%s' is not a network interface name", ifname);
	snprintf(st->ifname, sizeof(st->ifname), "%s", ifname);
	mlx_nlb_init(&b, buf, sizeof(buf));
	len = mlx_dcb_build_get(&b, DCB_CMD_IEEE_GET, ifname);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the DCB request for '%s'", ifname);
	r = mlx_nl_query(ctx, MLX_NL_ROUTE, ifname, "ieee-get", buf, (size_t)len, get_cb, &g);
	if (r == 0 && g.err)
		r = g.err;
	if (r == -EBADMSG || r == -E2BIG)
		return mlx_err(ctx, EBADMSG, "the DCB reply for '%s' is malformed (a struct of the "
			       "wrong size, or a broken attribute)", ifname);
	if (r < 0)
		return dcb_fail(ctx, r, ifname, "read the QoS settings");

	/* GDCBX: the DCBX owner.  IEEE_GET carries it too on current kernels;
	 * a driver without getdcbx, or a capture without the reply, leaves
	 * what IEEE_GET said. */
	len = mlx_dcb_build_get(&b, DCB_CMD_GDCBX, ifname);
	if (len > 0) {
		struct mlx_dcb_state tmp;
		struct get_arg g2 = { .st = &tmp };

		memset(&tmp, 0, sizeof(tmp));
		if (mlx_nl_query(ctx, MLX_NL_ROUTE, ifname, "gdcbx", buf, (size_t)len, get_cb,
				 &g2) == 0 && !g2.err && tmp.has_dcbx) {
			st->dcbx = tmp.dcbx;
			st->has_dcbx = true;
		}
		mlx_err_clear(ctx);
	}
	return 0;
}

int mlx_dcb_sysfs_buffer(struct mlx_ctx *ctx, const char *ifname, struct dcbnl_buffer *b)
{
	char path[128], *text = NULL;
	size_t len;
	int r;

	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "/sys/class/net/%s/qos/prio2buffer", ifname);
	r = mlx_read_file(ctx, path, &text, &len);
	if (r < 0)
		return r;
	r = mlx_dcb_parse_sysfs_prio2buffer(text, b->prio2buffer);
	free(text);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/sys/class/net/%s/qos/buffer_size", ifname);
	r = mlx_read_file(ctx, path, &text, &len);
	if (r < 0)
		return r;
	r = mlx_dcb_parse_sysfs_buffer_size(text, b->buffer_size, &b->total_size);
	free(text);
	return r;
}

struct set_arg {
	int kerr;
	bool seen;
};

static int set_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct set_arg *s = arg;
	int r = mlx_dcb_parse_set_reply(h, len, &s->kerr);

	if (r == 0)
		s->seen = true;
	return r;
}

static const char *cmd_what(uint8_t cmd, const struct mlx_dcb_msg *m)
{
	if (cmd == DCB_CMD_SDCBX)
		return "dcbx";
	if (cmd == DCB_CMD_IEEE_DEL)
		return "app-del";
	if (m->ets)
		return "ets";
	if (m->maxrate)
		return "maxrate";
	if (m->pfc)
		return "pfc";
	if (m->buffer)
		return "buffer";
	return "app";
}

int mlx_dcb_send(struct mlx_ctx *ctx, const char *ifname, uint8_t cmd,
		 const struct mlx_dcb_msg *m, uint8_t dcbx_mode)
{
	uint8_t *buf = malloc(REQ_MAX);
	struct mlx_nlbuf b;
	struct set_arg s = { 0 };
	int len, r;
	char what[64];

	if (!buf)
		return -ENOMEM;
	snprintf(what, sizeof(what), "change the %s setting", cmd_what(cmd, m));
	mlx_nlb_init(&b, buf, REQ_MAX);
	len = cmd == DCB_CMD_SDCBX ? mlx_dcb_build_sdcbx(&b, ifname, dcbx_mode)
				   : mlx_dcb_build_ieee(&b, cmd, ifname, m);
	if (len < 0) {
		free(buf);
		return mlx_err(ctx, -len, "cannot build the DCB request for '%s'", ifname);
	}
	/* Live, dcbnl answers; on a captured system the boundary hands the
	 * same bytes to lib/emul/dcb-emul.c. */
	r = mlx_nl_query(ctx, MLX_NL_ROUTE, ifname, "ieee-set", buf, (size_t)len, set_cb, &s);
	free(buf);
	if (r == 0 && !s.seen)
		r = -EBADMSG;
	if (r == 0)
		r = s.kerr;
	if (r < 0)
		return dcb_fail(ctx, r, ifname, what);
	return 0;
}

/* ---- the engine ---- */

static bool ets_differs(const struct ieee_ets *a, const struct ieee_ets *b)
{
	if (memcmp(a->prio_tc, b->prio_tc, sizeof(a->prio_tc)) ||
	    memcmp(a->tc_tsa, b->tc_tsa, sizeof(a->tc_tsa)) || a->willing != b->willing)
		return true;
	for (int tc = 0; tc < MLX_DCB_NTC; tc++)
		if (a->tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS && a->tc_tx_bw[tc] != b->tc_tx_bw[tc])
			return true;
	return false;
}

static bool app_has(const struct mlx_dcb_state *st, const struct dcb_app *a)
{
	for (size_t i = 0; i < st->napp; i++)
		if (st->app[i].selector == a->selector && st->app[i].protocol == a->protocol &&
		    st->app[i].priority == a->priority)
			return true;
	return false;
}

static bool app_has_proto(const struct dcb_app *v, size_t n, const struct dcb_app *a)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].selector == a->selector && v[i].protocol == a->protocol)
			return true;
	return false;
}

static int steps_run(struct mlx_ctx *ctx, const char *ifname, const struct mlx_dcb_state *from,
		     const struct mlx_dcb_state *to, size_t *nsent, const char **what,
		     struct dcb_app *add, struct dcb_app *del, size_t *pnadd, size_t *pndel);

/* Send the steps from @from to @to; *nsent counts successes, *what the
 * failed step. */
static int steps(struct mlx_ctx *ctx, const char *ifname, const struct mlx_dcb_state *from,
		 const struct mlx_dcb_state *to, size_t *nsent, const char **what)
{
	struct dcb_app *add = calloc(2 * MLX_DCB_MAX_APP, sizeof(*add)), *del;
	size_t nadd = 0, ndel = 0;
	int r;

	if (!add)
		return -ENOMEM;
	del = add + MLX_DCB_MAX_APP;
	r = steps_run(ctx, ifname, from, to, nsent, what, add, del, &nadd, &ndel);
	free(add);
	return r;
}

static int steps_run(struct mlx_ctx *ctx, const char *ifname, const struct mlx_dcb_state *from,
		     const struct mlx_dcb_state *to, size_t *nsent, const char **what,
		     struct dcb_app *add, struct dcb_app *del, size_t *pnadd, size_t *pndel)
{
	size_t nadd = 0, ndel = 0;
	int r;

	(void)pnadd;
	(void)pndel;
	*nsent = 0;
	*what = NULL;
	if (to->has_dcbx && from->has_dcbx && to->dcbx != from->dcbx) {
		*what = "dcbx";
		/* mlx5e_dcbnl_setdcbx(): firmware ownership is mode 0 */
		r = mlx_dcb_send(ctx, ifname, DCB_CMD_SDCBX, NULL,
				 to->dcbx & DCB_CAP_DCBX_HOST ? to->dcbx : 0);
		if (r < 0)
			return r;
		(*nsent)++;
	}
	if (to->has_ets && ets_differs(&to->ets, &from->ets)) {
		struct mlx_dcb_msg m = { .ets = &to->ets };

		*what = "ets";
		if ((r = mlx_dcb_send(ctx, ifname, DCB_CMD_IEEE_SET, &m, 0)) < 0)
			return r;
		(*nsent)++;
	}
	if (to->has_maxrate && memcmp(&to->maxrate, &from->maxrate, sizeof(to->maxrate))) {
		struct mlx_dcb_msg m = { .maxrate = &to->maxrate };

		*what = "maxrate";
		if ((r = mlx_dcb_send(ctx, ifname, DCB_CMD_IEEE_SET, &m, 0)) < 0)
			return r;
		(*nsent)++;
	}
	if (to->has_pfc && (to->pfc.pfc_en != from->pfc.pfc_en || to->pfc.delay != from->pfc.delay)) {
		struct mlx_dcb_msg m = { .pfc = &to->pfc };

		*what = "pfc";
		if ((r = mlx_dcb_send(ctx, ifname, DCB_CMD_IEEE_SET, &m, 0)) < 0)
			return r;
		(*nsent)++;
	}
	if (to->has_buffer && (memcmp(to->buffer.prio2buffer, from->buffer.prio2buffer, 8) ||
			       memcmp(to->buffer.buffer_size, from->buffer.buffer_size,
				      sizeof(to->buffer.buffer_size)))) {
		struct mlx_dcb_msg m = { .buffer = &to->buffer };

		*what = "buffer";
		if ((r = mlx_dcb_send(ctx, ifname, DCB_CMD_IEEE_SET, &m, 0)) < 0)
			return r;
		(*nsent)++;
	}
	for (size_t i = 0; i < to->napp; i++)
		if (!app_has(from, &to->app[i]))
			add[nadd++] = to->app[i];
	/* mlx5 keeps one entry per DSCP: setting DSCP d replaces d's old
	 * entry, so that one is not deleted separately (ieee_delapp of an
	 * entry that no longer matches the firmware map is -ENOENT). */
	for (size_t i = 0; i < from->napp; i++)
		if (!app_has(to, &from->app[i]) &&
		    !(from->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
		      app_has_proto(add, nadd, &from->app[i])))
			del[ndel++] = from->app[i];
	if (nadd) {
		struct mlx_dcb_msg m = { .app = add, .napp = nadd };

		*what = "app";
		if ((r = mlx_dcb_send(ctx, ifname, DCB_CMD_IEEE_SET, &m, 0)) < 0)
			return r;
		(*nsent)++;
	}
	if (ndel) {
		struct mlx_dcb_msg m = { .app = del, .napp = ndel };

		*what = "app-del";
		if ((r = mlx_dcb_send(ctx, ifname, DCB_CMD_IEEE_DEL, &m, 0)) < 0)
			return r;
		(*nsent)++;
	}
	*what = NULL;
	return 0;
}

int mlx_dcb_apply(struct mlx_ctx *ctx, const char *ifname, const struct mlx_dcb_state *old,
		  const struct mlx_dcb_state *new, struct mlx_dcb_result *res)
{
	struct mlx_dcb_state *cur = malloc(sizeof(*cur));
	char msg[768];
	size_t n;
	const char *w;
	int r, rr;

	memset(res, 0, sizeof(*res));
	r = steps(ctx, ifname, old, new, &res->nsent, &res->failed_what);
	if (r == 0 || !res->failed_what) {
		free(cur);
		return r;
	}
	/* Message k failed; it may itself have been half applied (an APP
	 * table is applied entry by entry, ETS before PFC), so the inverse is
	 * computed from what the port holds now, not from what was sent. */
	snprintf(msg, sizeof(msg), "%s", mlx_errmsg(ctx));
	rr = cur ? mlx_dcb_get(ctx, ifname, cur) : -ENOMEM;
	if (rr == 0)
		rr = steps(ctx, ifname, cur, old, &n, &w);
	free(cur);
	res->restore_err = rr;
	res->restored = rr == 0;
	mlx_err(ctx, -r, "%s", msg);
	return r;
}

bool mlx_dcb_lldpad_running(struct mlx_ctx *ctx, char *pidfile, size_t len)
{
	static const char *const files[] = { "/run/lldpad.pid", "/var/run/lldpad.pid" };

	for (size_t i = 0; i < 2; i++) {
		char buf[32];

		if (mlx_read_str(ctx, files[i], buf, sizeof(buf)) < 0)
			continue;
		/* Live, a stale pid file of a stopped lldpad does not count. */
		if (!mlx_kernel_process_runs(ctx, buf))
			continue;
		snprintf(pidfile, len, "%s", files[i]);
		return true;
	}
	return false;
}

bool mlx_dcb_may_write(struct mlx_ctx *ctx)
{
	return mlx_kernel_net_admin(ctx);
}
