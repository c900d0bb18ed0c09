/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QoS write verbs of the qosconfig group (trust, dscp2prio, pfc, ets,
 * tc-bw, buffer, dcbx) and mlxtool's `modify tc-bw`.  Issue 4.
 *
 * Every write: parse and validate everything first (exit 2, the rule in
 * the message), lock the device, read the current state, compute the new
 * one, and hand both to mlx_dcb_apply(), which sends one DCB message per
 * kind of change and puts the earlier ones back when one fails.  Then the
 * state is read back and compared (a driver that accepts and ignores a
 * value is reported, not trusted).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "dcb.h"
#include "dcqcn.h"
#include "write.h"
#include "qos-cmd.h"
#include "qos-lint.h"

struct wctx {
	struct qport q;
	struct mlx_dcb_state *old, *new;
	char notes[8][300];
	size_t nnotes;
};

static void note(struct wctx *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct wctx *w, const char *fmt, ...)
{
	va_list ap;

	if (w->nnotes >= 8)
		return;
	va_start(ap, fmt);
	vsnprintf(w->notes[w->nnotes++], sizeof(w->notes[0]), fmt, ap);
	va_end(ap);
}

/* Compute the new state from the old one; an exit code (the message is out). */
typedef int (*edit_fn)(struct cli *cli, struct wctx *w, void *arg);

/* A QoS write: the engine's DCB writer first (its operations read it as
 * theirs), then the verb's edit, which the plan runs on the state read
 * under the lock. */
struct qos_cx {
	struct mlx_dcb_writer dw;
	struct cli *cli;
	struct wctx *w;
	edit_fn edit;
	void *arg;
	int edit_rc;
};

static int qos_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl)
{
	struct qos_cx *cx = feat;
	const struct mlx_dcb_state *st;
	int e;

	e = mlx_dcb_writer_state(ctx, &cx->dw, &st);
	if (e < 0)
		return mlx_err(ctx, -e, "cannot read the QoS settings of %s: %s", cx->w->q.ifname,
			       *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
	*cx->w->old = *st;
	*cx->w->new = *st;
	cx->edit_rc = cx->edit(cx->cli, cx->w, cx->arg);
	if (cx->edit_rc)
		/* The edit said why; nothing to add. */
		return mlx_err(ctx, ECANCELED, "%s", "");
	return mlx_dcb_plan(pl, cx->w->old, cx->w->new);
}

/*
 * Lock, read, let @edit compute the new state, write the settings that
 * change one by one through the engine (read back, put back newest first
 * on a failure), report the change records and the notes.
 */
static int write_qos(struct cli *cli, edit_fn edit, void *arg)
{
	struct wctx *w = calloc(1, sizeof(*w));
	struct mlx_dcb_state *st = calloc(2, sizeof(*st));
	struct qos_cx cx = { .cli = cli, .edit = edit, .arg = arg };
	struct mlx_write_ops ops = mlx_dcb_write_ops;
	struct mlx_write_result res;
	struct mlx_plan pl = { 0 };
	struct out *o = cli->out;
	char lockname[40];
	int r;

	if (!w || !st || mlx_dcb_writer_init(&cx.dw, NULL) < 0) {
		free(w);
		free(st);
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	w->old = &st[0];
	w->new = &st[1];
	cx.w = w;
	r = qos_one_target(cli, &w->q);
	if (r)
		goto out;
	cx.dw.ifname = w->q.ifname;
	if (!cli->dry_run && !mlx_dcb_may_write(cli->ctx)) {
		cli_error(cli, "cannot change the QoS settings of '%s': permission denied (DCB "
			  "changes need CAP_NET_ADMIN); nothing was changed", w->q.ifname);
		cli_hint(cli, "run as root");
		r = EXIT_PERM;
		goto out;
	}
	snprintf(lockname, sizeof(lockname), "%s", w->q.fn ? w->q.fn->bdf : w->q.ifname);
	ops.plan = qos_plan;
	out_str(o, "netdev", NULL, w->q.ifname);
	r = cli_write(cli, &ops, &cx, lockname, w->q.ifname, &pl, &res);
	if (r) {
		if (cx.edit_rc)
			r = cx.edit_rc;
		goto out;
	}
	out_list_begin(o, "notes", NULL);
	for (size_t i = 0; i < w->nnotes; i++)
		out_str(o, NULL, NULL, w->notes[i]);
	out_list_end(o);
	if (!out_is_json(o)) {
		if (!mlx_plan_nchanged(&pl))
			fprintf(cli->out_fp, "no change: %s already has these settings\n", w->q.ifname);
		for (size_t i = 0; i < w->nnotes; i++)
			fprintf(cli->out_fp, "note: %s\n", w->notes[i]);
	}
out:
	mlx_plan_free(&pl);
	mlx_dcb_writer_free(&cx.dw);
	free(w);
	free(st);
	return r;
}

/* ---- the verbs ---- */

static int need_ets(struct cli *cli, struct wctx *w)
{
	if (!w->old->has_ets) {
		cli_error(cli, "'%s' reports no ETS configuration (the driver has no ieee_getets); "
			  "nothing was changed", w->q.ifname);
		return EXIT_NOTSUP;
	}
	return EXIT_OK;
}

static int edit_trust(struct cli *cli, struct wctx *w, void *arg)
{
	const char *mode = arg;
	struct mlx_dcb_state *n = w->new;
	int map[MLX_DCB_NDSCP], added = 0;

	if (!strcmp(mode, "pcp")) {
		size_t k = 0;

		for (size_t i = 0; i < n->napp; i++)
			if (n->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
				n->app[k++] = n->app[i];
		if (k != n->napp)
			note(w, "mlx5 trusts PCP when the APP table has no DSCP entry: the %zu DSCP "
			     "entries were removed", n->napp - k);
		n->napp = k;
		return EXIT_OK;
	}
	mlx_dcb_dscp_map(n, map);
	for (int d = 0; d < 64; d++) {
		if (map[d] >= 0)
			continue;
		if (n->napp >= MLX_DCB_MAX_APP)
			break;
		n->app[n->napp].selector = IEEE_8021QAZ_APP_SEL_DSCP;
		n->app[n->napp].protocol = (uint16_t)d;
		n->app[n->napp].priority = (uint8_t)(d >> 3);
		n->napp++;
		added++;
	}
	if (added)
		note(w, "mlx5 trusts DSCP when the APP table has a DSCP entry: installed the default "
		     "map (priority = DSCP / 8) for the %d DSCP values that had no entry, as "
		     "mlnx_qos --trust dscp does", added);
	(void)cli;
	return EXIT_OK;
}

int cmd_qos_trust(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "pcp") && strcmp(argv[0], "dscp")) {
		cli_error(cli, "invalid trust state '%s': pcp or dscp", argv[0]);
		return EXIT_USAGE;
	}
	return write_qos(cli, edit_trust, argv[0]);
}

struct d2p {
	int op;                 /* 0 set, 1 del, 2 flush */
	int n;
	int dscp[64], prio[64];
};

static int edit_dscp2prio(struct cli *cli, struct wctx *w, void *arg)
{
	struct d2p *a = arg;
	struct mlx_dcb_state *n = w->new;
	bool was = mlx_dcb_trust_dscp(w->old);

	if (a->op == 2) {
		edit_trust(cli, w, "pcp");
		return EXIT_OK;
	}
	for (int i = 0; i < a->n; i++) {
		size_t k;

		for (k = 0; k < n->napp; k++)
			if (n->app[k].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
			    n->app[k].protocol == a->dscp[i])
				break;
		if (a->op == 0) {
			if (k == n->napp) {
				if (n->napp >= MLX_DCB_MAX_APP)
					return EXIT_FAIL;
				n->napp++;
			}
			n->app[k].selector = IEEE_8021QAZ_APP_SEL_DSCP;
			n->app[k].protocol = (uint16_t)a->dscp[i];
			n->app[k].priority = (uint8_t)a->prio[i];
		} else {
			if (k == n->napp || n->app[k].priority != a->prio[i]) {
				cli_error(cli, "cannot delete DSCP %d -> priority %d on %s: the map has %s; "
					  "nothing was changed", a->dscp[i], a->prio[i], w->q.ifname,
					  k == n->napp ? "no entry for that DSCP" : "another priority for it");
				return EXIT_USAGE;
			}
			memmove(&n->app[k], &n->app[k + 1], (n->napp - k - 1) * sizeof(n->app[0]));
			n->napp--;
		}
	}
	if (!was && mlx_dcb_trust_dscp(n))
		note(w, "mlx5: the first DSCP entry switches the port to trust dscp; DSCP values "
		     "without an entry map to priority 0 ('trust dscp' installs the full default map)");
	if (was && !mlx_dcb_trust_dscp(n))
		note(w, "mlx5: deleting the last DSCP entry switches the port back to trust pcp");
	return EXIT_OK;
}

int cmd_qos_dscp2prio(struct cli *cli, int argc, char **argv)
{
	struct d2p a = { 0 };

	if (!strcmp(argv[0], "flush")) {
		if (argc != 1) {
			cli_error(cli, "'flush' takes no values");
			return EXIT_USAGE;
		}
		a.op = 2;
	} else if (!strcmp(argv[0], "set") || !strcmp(argv[0], "del")) {
		a.op = argv[0][0] == 'd';
		if (argc < 3 || (argc - 1) % 2) {
			cli_error(cli, "'%s' takes DSCP PRIO pairs", argv[0]);
			return EXIT_USAGE;
		}
		for (int i = 1; i < argc; i += 2) {
			uint64_t d;

			if (mlx_parse_u64(argv[i], &d) < 0 || d > 63) {
				cli_error(cli, "invalid DSCP '%s': DSCP values are 0-63", argv[i]);
				return EXIT_USAGE;
			}
			if (qos_parse_prio(cli, argv[i + 1], "priority", &a.prio[a.n]))
				return EXIT_USAGE;
			a.dscp[a.n++] = (int)d;
		}
	} else {
		cli_error(cli, "unknown dscp2prio action '%s': set, del or flush", argv[0]);
		return EXIT_USAGE;
	}
	return write_qos(cli, edit_dscp2prio, &a);
}

struct pfc_arg {
	uint8_t mask;
	int cable;
};

static int edit_pfc(struct cli *cli, struct wctx *w, void *arg)
{
	struct pfc_arg *a = arg;
	char why[200];

	if (!w->old->has_pfc) {
		cli_error(cli, "'%s' reports no PFC configuration; nothing was changed", w->q.ifname);
		return EXIT_NOTSUP;
	}
	w->new->pfc.pfc_en = a->mask;
	if (a->cable >= 0)
		w->new->pfc.delay = (uint16_t)a->cable;
	if (mlx_dcb_validate_pfc(&w->new->pfc, why, sizeof(why)) < 0) {
		cli_error(cli, "cannot set PFC on %s: %s", w->q.ifname, why);
		return EXIT_USAGE;
	}
	if (a->cable >= 0)
		note(w, "mlx5 uses the cable length to size the receive buffers' xoff/xon thresholds");
	return EXIT_OK;
}

static int parse_prio_list(struct cli *cli, const char *s, uint8_t *mask)
{
	char buf[64], *tok, *save = NULL;

	*mask = 0;
	if (!strcmp(s, "none"))
		return EXIT_OK;
	if (strlen(s) >= sizeof(buf) || !*s) {
		cli_error(cli, "invalid priority list '%s'", s);
		return EXIT_USAGE;
	}
	if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		/* strtok_r would skip the empty element: "3,,4" is a typo, not 3,4 */
		cli_error(cli, "invalid priority list '%s': an empty element; priorities are 0-7, "
			  "separated by single commas", s);
		return EXIT_USAGE;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p;

		if (qos_parse_prio(cli, tok, "priority", &p))
			return EXIT_USAGE;
		*mask |= (uint8_t)(1u << p);
	}
	return EXIT_OK;
}

int cmd_qos_pfc(struct cli *cli, int argc, char **argv)
{
	struct pfc_arg a = { .cable = -1 };
	const char *cl = cli_opt(cli, "cable-len");

	(void)argc;
	if (parse_prio_list(cli, argv[0], &a.mask))
		return EXIT_USAGE;
	if (cl) {
		uint64_t v;

		if (mlx_parse_u64(cl, &v) < 0 || v == 0 || v >= MLX_DCB_MAX_CABLE_LEN) {
			cli_error(cli, "invalid cable length '%s': 1-%d metres", cl,
				  MLX_DCB_MAX_CABLE_LEN - 1);
			return EXIT_USAGE;
		}
		a.cable = (int)v;
	}
	return write_qos(cli, edit_pfc, &a);
}

/* ets: prio-tc P:TC..., tsa TC:NAME..., bw TC:PCT... */
struct ets_arg {
	int prio_tc[8];         /* -1: keep */
	int tsa[8];
	int bw[8];
};

static int pair(struct cli *cli, const char *s, const char *kw, unsigned *idx, const char **val)
{
	const char *c = strchr(s, ':');
	char num[8];
	uint64_t v;

	if (!c || c == s || (size_t)(c - s) >= sizeof(num)) {
		cli_error(cli, "invalid '%s' value '%s': expected INDEX:VALUE", kw, s);
		return EXIT_USAGE;
	}
	memcpy(num, s, (size_t)(c - s));
	num[c - s] = '\0';
	if (mlx_parse_u64(num, &v) < 0 || v > 7) {
		cli_error(cli, "invalid '%s' index '%s': %s 0-7", kw, num,
			  strcmp(kw, "prio-tc") ? "traffic classes are" : "priorities are");
		return EXIT_USAGE;
	}
	*idx = (unsigned)v;
	*val = c + 1;
	return EXIT_OK;
}

static int edit_ets(struct cli *cli, struct wctx *w, void *arg)
{
	struct ets_arg *a = arg;
	struct ieee_ets *e = &w->new->ets;
	unsigned cap;
	char why[200];
	int r = need_ets(cli, w);

	if (r)
		return r;
	cap = e->ets_cap && e->ets_cap <= 8 ? e->ets_cap : 8;
	/* mlx5 reports 100 for strict/vendor TCs: start from 0 there. */
	for (int tc = 0; tc < 8; tc++)
		if (e->tc_tsa[tc] != IEEE_8021QAZ_TSA_ETS)
			e->tc_tx_bw[tc] = 0;
	for (int i = 0; i < 8; i++) {
		if (a->prio_tc[i] >= 0) {
			if ((unsigned)a->prio_tc[i] >= cap) {
				cli_error(cli, "cannot map priority %d to TC %d on %s: it has %u traffic "
					  "classes (TC 0-%u); nothing was changed", i, a->prio_tc[i],
					  w->q.ifname, cap, cap - 1);
				return EXIT_USAGE;
			}
			e->prio_tc[i] = (uint8_t)a->prio_tc[i];
		}
		if (a->tsa[i] >= 0) {
			if ((unsigned)i >= cap) {
				cli_error(cli, "TC %d does not exist on %s (TC 0-%u)", i, w->q.ifname, cap - 1);
				return EXIT_USAGE;
			}
			e->tc_tsa[i] = (uint8_t)a->tsa[i];
			if (a->tsa[i] != IEEE_8021QAZ_TSA_ETS)
				e->tc_tx_bw[i] = 0;
		}
	}
	for (int i = 0; i < 8; i++)
		if (a->bw[i] >= 0) {
			if (e->tc_tsa[i] != IEEE_8021QAZ_TSA_ETS && a->bw[i]) {
				cli_error(cli, "cannot give TC %d %d%% on %s: it is %s, and bandwidth shares "
					  "apply only to ETS traffic classes (add 'tsa %d:ets'); nothing "
					  "was changed", i, a->bw[i], w->q.ifname,
					  mlx_dcb_tsa_name(e->tc_tsa[i]), i);
				return EXIT_USAGE;
			}
			e->tc_tx_bw[i] = (uint8_t)a->bw[i];
		}
	if (mlx_dcb_validate_ets(e, why, sizeof(why)) < 0) {
		cli_error(cli, "cannot set ETS on %s: %s; nothing was changed", w->q.ifname, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_qos_ets(struct cli *cli, int argc, char **argv)
{
	struct ets_arg a;
	const char *kw = NULL;
	unsigned npairs = 0;

	memset(&a, 0xff, sizeof(a));
	for (int i = 0; i <= argc; i++) {
		unsigned idx;
		const char *val;
		uint64_t v;

		if (i == argc || !strcmp(argv[i], "prio-tc") || !strcmp(argv[i], "tsa") ||
		    !strcmp(argv[i], "bw")) {
			if (kw && npairs == 0) {
				cli_error(cli, "'%s' needs at least one %s pair", kw,
					  !strcmp(kw, "prio-tc") ? "PRIO:TC" :
					  !strcmp(kw, "tsa") ? "TC:TSA" : "TC:PCT");
				return EXIT_USAGE;
			}
			if (i == argc)
				break;
			kw = argv[i];
			npairs = 0;
			continue;
		}
		npairs++;
		if (!kw) {
			cli_error(cli, "'%s': expected prio-tc, tsa or bw first", argv[i]);
			return EXIT_USAGE;
		}
		if (pair(cli, argv[i], kw, &idx, &val))
			return EXIT_USAGE;
		if (!strcmp(kw, "prio-tc")) {
			if (mlx_parse_u64(val, &v) < 0 || v > 7) {
				cli_error(cli, "invalid TC '%s' for priority %u: traffic classes are 0-7",
					  val, idx);
				return EXIT_USAGE;
			}
			a.prio_tc[idx] = (int)v;
		} else if (!strcmp(kw, "tsa")) {
			if (!strcmp(val, "strict"))
				a.tsa[idx] = IEEE_8021QAZ_TSA_STRICT;
			else if (!strcmp(val, "ets"))
				a.tsa[idx] = IEEE_8021QAZ_TSA_ETS;
			else if (!strcmp(val, "vendor"))
				a.tsa[idx] = IEEE_8021QAZ_TSA_VENDOR;
			else {
				cli_error(cli, "invalid TSA '%s' for TC %u: strict, ets or vendor (mlx5 has "
					  "no cbs)", val, idx);
				return EXIT_USAGE;
			}
		} else {
			if (mlx_parse_u64(val, &v) < 0 || v > 100) {
				cli_error(cli, "invalid bandwidth '%s' for TC %u: a percentage 0-100; the "
					  "ETS TCs' shares must add up to 100", val, idx);
				return EXIT_USAGE;
			}
			a.bw[idx] = (int)v;
		}
	}
	return write_qos(cli, edit_ets, &a);
}

/* tc-bw: TC RATE pairs, RATE in Mb/s (or with a Mbit/Gbit suffix), 0 or
 * "unlimited" for no limit. */
struct rate_arg {
	int64_t mbps[8];        /* -1 keep */
	bool mlxtool;
};

static int parse_rate(const char *s, uint64_t *mbps)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!strcasecmp(s, "unlimited")) {
		*mbps = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (!strcasecmp(end, "g") || !strcasecmp(end, "gbit") || !strcasecmp(end, "gbps"))
		mul = 1000;
	else if (*end && strcasecmp(end, "m") && strcasecmp(end, "mbit") && strcasecmp(end, "mbps"))
		return -EINVAL;
	if (v > UINT64_MAX / 1000)
		return -ERANGE;
	*mbps = v * mul;
	return 0;
}

static int edit_rates(struct cli *cli, struct wctx *w, void *arg)
{
	struct rate_arg *a = arg;

	if (!w->old->has_maxrate) {
		cli_error(cli, "'%s' reports no per-TC max rate (the driver has no ieee_getmaxrate); "
			  "nothing was changed", w->q.ifname);
		return EXIT_NOTSUP;
	}
	for (int tc = 0; tc < 8; tc++) {
		uint64_t applied;
		int how;

		if (a->mbps[tc] < 0)
			continue;
		mlx_dcb_rate_quantize((uint64_t)a->mbps[tc], &applied, &how);
		w->new->maxrate.tc_maxrate[tc] = applied * 1000;
		if (how == MLX_RATE_RAISED)
			note(w, "TC %d: %" PRId64 " Mb/s is below the minimum: raised to 100 Mb/s", tc,
			     a->mbps[tc]);
		else if (how == MLX_RATE_ROUNDED)
			note(w, "TC %d: %" PRId64 " Mb/s rounded down to %" PRIu64 " Mb/s (the device "
			     "takes 100 Mb/s steps up to 25.5 Gb/s, 1 Gb/s steps above)", tc,
			     a->mbps[tc], applied);
	}
	return EXIT_OK;
}

static int rates(struct cli *cli, int argc, char **argv, bool mlxtool)
{
	struct rate_arg a;

	memset(&a, 0xff, sizeof(a));
	a.mlxtool = mlxtool;
	if (argc % 2) {
		cli_error(cli, "'mlxcli %s' takes TC RATE pairs: '%s' has no rate", cli->path,
			  argv[argc - 1]);
		return EXIT_USAGE;
	}
	for (int i = 0; i < argc; i += 2) {
		uint64_t tc, mbps, applied;
		int how;

		if (mlx_parse_u64(argv[i], &tc) < 0 || tc > 7) {
			cli_error(cli, "invalid traffic class '%s': traffic classes are 0-7", argv[i]);
			return EXIT_USAGE;
		}
		if (parse_rate(argv[i + 1], &mbps) < 0 ||
		    mlx_dcb_rate_quantize(mbps, &applied, &how) < 0) {
			cli_error(cli, "invalid rate '%s' for TC %" PRIu64 ": Mb/s (or with a Gbit suffix) "
				  "from 100 Mb/s to %llu Gb/s, 0 or 'unlimited' for no limit",
				  argv[i + 1], tc, MLX_DCB_RATE_MAX_MBPS / 1000);
			return EXIT_USAGE;
		}
		a.mbps[tc] = (int64_t)mbps;
	}
	return write_qos(cli, edit_rates, &a);
}

int cmd_qos_tc_bw(struct cli *cli, int argc, char **argv)
{
	return rates(cli, argc, argv, false);
}

/* mlxtool: modify tc-bw IFNAME TC MBPS [TC MBPS...] */
int cmd_modify_tc_bw(struct cli *cli, int argc, char **argv)
{
	/* The mlxtool form arrives as given, or already mapped to "-d IFNAME"
	 * by the Windows-syntax layer (cmd/compat.c). */
	if (cli->device && argc % 2 == 0)
		return rates(cli, argc, argv, true);
	if (cli->device && strcmp(cli->device, argv[0])) {
		cli_error(cli, "give the interface once: '%s' or -d %s", argv[0], cli->device);
		return EXIT_USAGE;
	}
	cli->device = argv[0];
	return rates(cli, argc - 1, argv + 1, true);
}

struct buf_arg {
	int p2b[8];
	int64_t size[8];
};

static int edit_buffer(struct cli *cli, struct wctx *w, void *arg)
{
	struct buf_arg *a = arg;
	char why[200];

	if (!w->old->has_buffer) {
		cli_error(cli, "'%s' reports no receive buffer configuration (no DCB_ATTR_DCB_BUFFER: "
			  "the driver or firmware has no buffer support); nothing was changed",
			  w->q.ifname);
		return EXIT_NOTSUP;
	}
	for (int i = 0; i < 8; i++) {
		if (a->p2b[i] >= 0)
			w->new->buffer.prio2buffer[i] = (uint8_t)a->p2b[i];
		if (a->size[i] >= 0)
			w->new->buffer.buffer_size[i] = (uint32_t)a->size[i];
	}
	if (mlx_dcb_validate_buffer(&w->new->buffer, why, sizeof(why)) < 0) {
		cli_error(cli, "cannot set the buffers of %s: %s; nothing was changed", w->q.ifname, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_qos_buffer(struct cli *cli, int argc, char **argv)
{
	struct buf_arg a;
	const char *kw = NULL;

	memset(&a, 0xff, sizeof(a));
	for (int i = 0; i < argc; i++) {
		unsigned idx;
		const char *val;
		uint64_t v;

		if (!strcmp(argv[i], "prio-buffer") || !strcmp(argv[i], "size")) {
			kw = argv[i];
			continue;
		}
		if (!kw) {
			cli_error(cli, "'%s': expected prio-buffer or size first", argv[i]);
			return EXIT_USAGE;
		}
		if (pair(cli, argv[i], kw, &idx, &val))
			return EXIT_USAGE;
		if (!strcmp(kw, "prio-buffer")) {
			if (mlx_parse_u64(val, &v) < 0 || v >= DCBX_MAX_BUFFERS) {
				cli_error(cli, "invalid buffer '%s' for priority %u: buffers are 0-%d", val,
					  idx, DCBX_MAX_BUFFERS - 1);
				return EXIT_USAGE;
			}
			a.p2b[idx] = (int)v;
		} else {
			if (mlx_parse_u64(val, &v) < 0 || v > UINT32_MAX) {
				cli_error(cli, "invalid size '%s' for buffer %u: bytes, 0-%u", val, idx,
					  UINT32_MAX);
				return EXIT_USAGE;
			}
			a.size[idx] = (int64_t)v;
		}
	}
	return write_qos(cli, edit_buffer, &a);
}

static int edit_dcbx(struct cli *cli, struct wctx *w, void *arg)
{
	const char *m = arg;

	(void)cli;
	if (!strcmp(m, "host")) {
		w->new->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	} else {
		w->new->dcbx = w->old->dcbx & (uint8_t)~DCB_CAP_DCBX_HOST;
		note(w, "the firmware now negotiates ETS, PFC and APP with the switch (LLDP/DCBX): "
		     "settings made here may be replaced by what the switch advertises");
	}
	/* An old mode the driver does not report is null in the change
	 * record: it differs from the new one, so the mode is always sent. */
	w->new->has_dcbx = true;
	return EXIT_OK;
}

int cmd_qos_dcbx(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "host") && strcmp(argv[0], "firmware")) {
		cli_error(cli, "invalid DCBX owner '%s': host (the OS) or firmware", argv[0]);
		return EXIT_USAGE;
	}
	return write_qos(cli, edit_dcbx, argv[0]);
}

