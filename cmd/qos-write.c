/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QoS write verbs of the qosconfig group (trust, dscp2prio, pfc, ets,
 * tc-bw, buffer, dcbx) and mlxtool's `modify tc-bw`.  Issue 4.
 *
 * Every verb parses and validates its words first (exit 2, the rule in the
 * message) into the QoS part of a desired state (lib/settings.h), through
 * the validators apply uses too; then one step of a write transaction
 * (lib/txn.h) does the rest: the device lock, the state read under it, the
 * QoS plan of lib (mlx5's rules: trust follows the DSCP map, ETS shares,
 * the rate steps, with a note where it did something the user should
 * know), one DCB message per kind of change, read back, put back newest
 * first on a failure.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "dcb.h"
#include "qos-cmd.h"
#include "txn.h"

/* A validator of lib said no: exit 2 with its story. */
static int refused(struct cli *cli, const char *what)
{
	cli_error(cli, "%s%s", what, mlx_errmsg(cli->ctx));
	mlx_err_clear(cli->ctx);
	return EXIT_USAGE;
}

/*
 * One port's QoS towards @want (its qos part filled by the verb): the one
 * -d names, one step of a transaction; the change records, then the plan's
 * notes.
 */
static int write_qos(struct cli *cli, struct mlx_port_settings *want)
{
	struct out *o = cli->out;
	struct mlx_txn_step st;
	struct mlx_port_ref t;
	struct mlx_txn *txn;
	struct qport q;
	int r;

	r = qos_one_target(cli, &q);
	if (r)
		return r;
	/* any netdev by name: the DCB interface is the netdev's */
	mlx_port_ref_init(&t, q.fn, q.port, q.ifname);
	t.ifname = q.ifname;
	out_str(o, "netdev", NULL, q.ifname);
	r = cli_write_step(cli, MLX_SUB_QOS, &t, want, 0, &txn);
	if (r)
		return r;
	mlx_txn_step(txn, 0, &st);
	out_list_begin(o, "notes", NULL);
	for (size_t i = 0; i < st.plan->nnotes; i++)
		out_str(o, NULL, NULL, st.plan->notes[i]);
	out_list_end(o);
	if (!out_is_json(o)) {
		if (!mlx_plan_nchanged(st.plan))
			fprintf(cli->out_fp, "no change: %s already has these settings\n", q.ifname);
		for (size_t i = 0; i < st.plan->nnotes; i++)
			fprintf(cli->out_fp, "note: %s\n", st.plan->notes[i]);
	}
	mlx_txn_free(txn);
	return EXIT_OK;
}

/* The verbs' desired state: a port's model with nothing in it. */
static struct mlx_port_settings *want_new(struct cli *cli)
{
	struct mlx_port_settings *w = mlx_port_settings_new();

	if (!w)
		cli_error(cli, "out of memory");
	return w;
}

static int run(struct cli *cli, struct mlx_port_settings *w, int r)
{
	if (r == EXIT_OK)
		r = write_qos(cli, w);
	mlx_port_settings_free(w);
	return r;
}

/* ---- the verbs ---- */

int cmd_qos_trust(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;

	(void)argc;
	if (strcmp(argv[0], "pcp") && strcmp(argv[0], "dscp")) {
		cli_error(cli, "invalid trust state '%s': pcp or dscp", argv[0]);
		return EXIT_USAGE;
	}
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	w->qos.have = w->qos.trust = MLX_SET;
	w->qos.trust_dscp = !strcmp(argv[0], "dscp");
	/* as mlnx_qos --trust dscp: the default entry for every DSCP without one */
	w->qos.trust_fill = w->qos.trust_dscp;
	return run(cli, w, EXIT_OK);
}

int cmd_qos_dscp2prio(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;
	struct mlx_qos_settings *q;
	int r = EXIT_OK;

	if (!strcmp(argv[0], "flush")) {
		if (argc != 1) {
			cli_error(cli, "'flush' takes no values");
			return EXIT_USAGE;
		}
	} else if (!strcmp(argv[0], "set") || !strcmp(argv[0], "del")) {
		if (argc < 3 || (argc - 1) % 2) {
			cli_error(cli, "'%s' takes DSCP PRIO pairs", argv[0]);
			return EXIT_USAGE;
		}
	} else {
		cli_error(cli, "unknown dscp2prio action '%s': set, del or flush", argv[0]);
		return EXIT_USAGE;
	}
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	q = &w->qos;
	q->have = MLX_SET;
	if (argv[0][0] == 'f') {
		/* no DSCP entry: mlx5 trusts PCP again */
		q->trust = MLX_SET;
		q->trust_dscp = false;
		return run(cli, w, EXIT_OK);
	}
	for (int i = 1; i < argc && r == EXIT_OK; i += 2) {
		uint64_t d;
		int p;

		if (mlx_parse_u64(argv[i], &d) < 0 || d > 63) {
			cli_error(cli, "invalid DSCP '%s': DSCP values are 0-63", argv[i]);
			r = EXIT_USAGE;
		} else if (qos_parse_prio(cli, argv[i + 1], "priority", &p)) {
			r = EXIT_USAGE;
		} else if (((q->d2p_set | q->d2p_del) >> d) & 1) {
			cli_error(cli, "DSCP %" PRIu64 " is given twice", d);
			r = EXIT_USAGE;
		} else {
			*(argv[0][0] == 's' ? &q->d2p_set : &q->d2p_del) |= UINT64_C(1) << d;
			q->d2p_prio[d] = (uint8_t)p;
		}
	}
	return run(cli, w, r);
}

/* PRIO[,PRIO...] or none, each priority through the validator apply's
 * enabled_priorities take (a priority twice is refused). */
static int parse_prio_list(struct cli *cli, const char *s, struct mlx_qos_settings *q)
{
	char buf[64], *tok, *save = NULL;

	q->have = q->pfc = q->pfc_prios = MLX_SET;
	q->st.pfc.pfc_en = 0;
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
		if (mlx_qos_put_pfc_prio(cli->ctx, q, p) < 0)
			return refused(cli, "invalid priority list: ");
	}
	return EXIT_OK;
}

int cmd_qos_pfc(struct cli *cli, int argc, char **argv)
{
	const char *cl = cli_opt(cli, "cable-len");
	struct mlx_port_settings *w;
	int r;

	(void)argc;
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	r = parse_prio_list(cli, argv[0], &w->qos);
	if (r == EXIT_OK && cl) {
		uint64_t v;

		if (mlx_parse_u64(cl, &v) < 0 || v == 0 || v >= MLX_DCB_MAX_CABLE_LEN) {
			cli_error(cli, "invalid cable length '%s': 1-%d metres", cl,
				  MLX_DCB_MAX_CABLE_LEN - 1);
			r = EXIT_USAGE;
		} else if (mlx_qos_put_cable(cli->ctx, &w->qos, (int64_t)v) < 0) {
			r = refused(cli, "invalid cable length: ");
		}
	}
	return run(cli, w, r);
}

/* INDEX:VALUE of a keyword's list. */
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

/* ets: prio-tc P:TC..., tsa TC:NAME..., bw TC:PCT... */
static int ets_pair(struct cli *cli, const char *kw, const char *word, struct mlx_qos_settings *q)
{
	unsigned idx;
	const char *val;
	uint64_t v;
	uint8_t tsa;

	if (pair(cli, word, kw, &idx, &val))
		return EXIT_USAGE;
	if (!strcmp(kw, "prio-tc")) {
		if (mlx_parse_u64(val, &v) < 0 || v > 7) {
			cli_error(cli, "invalid TC '%s' for priority %u: traffic classes are 0-7", val, idx);
			return EXIT_USAGE;
		}
		return mlx_qos_put_prio_tc(cli->ctx, q, idx, (int64_t)v) < 0 ?
		       refused(cli, "invalid prio-tc: ") : EXIT_OK;
	}
	if (!strcmp(kw, "tsa")) {
		/* mlx5 has no credit-based shaper */
		if (mlx_qos_tsa_parse(val, &tsa) < 0 || tsa == IEEE_8021QAZ_TSA_CB_SHAPER) {
			cli_error(cli, "invalid TSA '%s' for TC %u: strict, ets or vendor (mlx5 has no "
				  "cbs)", val, idx);
			return EXIT_USAGE;
		}
		return mlx_qos_put_tsa(cli->ctx, q, idx, val) < 0 ? refused(cli, "invalid tsa: ")
								   : EXIT_OK;
	}
	if (mlx_parse_u64(val, &v) < 0 || v > 100) {
		cli_error(cli, "invalid bandwidth '%s' for TC %u: a percentage 0-100; the ETS TCs' "
			  "shares must add up to 100", val, idx);
		return EXIT_USAGE;
	}
	return mlx_qos_put_bw(cli->ctx, q, idx, (int64_t)v) < 0 ? refused(cli, "invalid bw: ")
								: EXIT_OK;
}

int cmd_qos_ets(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;
	const char *kw = NULL;
	unsigned npairs = 0;
	int r = EXIT_OK;

	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	w->qos.have = w->qos.ets = MLX_SET;
	for (int i = 0; i <= argc && r == EXIT_OK; i++) {
		if (i == argc || !strcmp(argv[i], "prio-tc") || !strcmp(argv[i], "tsa") ||
		    !strcmp(argv[i], "bw")) {
			if (kw && npairs == 0) {
				cli_error(cli, "'%s' needs at least one %s pair", kw,
					  !strcmp(kw, "prio-tc") ? "PRIO:TC" :
					  !strcmp(kw, "tsa") ? "TC:TSA" : "TC:PCT");
				r = EXIT_USAGE;
				break;
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
			r = EXIT_USAGE;
			break;
		}
		r = ets_pair(cli, kw, argv[i], &w->qos);
	}
	return run(cli, w, r);
}

/* tc-bw: TC RATE pairs, RATE in Mb/s (or with a Mbit/Gbit suffix), 0 or
 * "unlimited" for no limit. */
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

static int rates(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;
	int r = EXIT_OK;

	if (argc % 2) {
		cli_error(cli, "'mlxcli %s' takes TC RATE pairs: '%s' has no rate", cli->path,
			  argv[argc - 1]);
		return EXIT_USAGE;
	}
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	for (int i = 0; i < argc && r == EXIT_OK; i += 2) {
		uint64_t tc, mbps, applied;
		int how;

		if (mlx_parse_u64(argv[i], &tc) < 0 || tc > 7) {
			cli_error(cli, "invalid traffic class '%s': traffic classes are 0-7", argv[i]);
			r = EXIT_USAGE;
		} else if (parse_rate(argv[i + 1], &mbps) < 0 ||
			   mlx_dcb_rate_quantize(mbps, &applied, &how) < 0) {
			cli_error(cli, "invalid rate '%s' for TC %" PRIu64 ": Mb/s (or with a Gbit suffix) "
				  "from 100 Mb/s to %llu Gb/s, 0 or 'unlimited' for no limit",
				  argv[i + 1], tc, MLX_DCB_RATE_MAX_MBPS / 1000);
			r = EXIT_USAGE;
		} else if (mlx_qos_put_rate(cli->ctx, &w->qos, (int64_t)tc, (int64_t)mbps) < 0) {
			r = refused(cli, "invalid rate: ");
		}
	}
	return run(cli, w, r);
}

int cmd_qos_tc_bw(struct cli *cli, int argc, char **argv)
{
	return rates(cli, argc, argv);
}

/* mlxtool: modify tc-bw IFNAME TC MBPS [TC MBPS...] */
int cmd_modify_tc_bw(struct cli *cli, int argc, char **argv)
{
	/* The mlxtool form arrives as given, or already mapped to "-d IFNAME"
	 * by the Windows-syntax layer (cmd/compat.c). */
	if (cli->device && argc % 2 == 0)
		return rates(cli, argc, argv);
	if (cli->device && strcmp(cli->device, argv[0])) {
		cli_error(cli, "give the interface once: '%s' or -d %s", argv[0], cli->device);
		return EXIT_USAGE;
	}
	cli->device = argv[0];
	return rates(cli, argc - 1, argv + 1);
}

int cmd_qos_buffer(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;
	const char *kw = NULL;
	int r = EXIT_OK;

	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	for (int i = 0; i < argc && r == EXIT_OK; i++) {
		unsigned idx;
		const char *val;
		uint64_t v;

		if (!strcmp(argv[i], "prio-buffer") || !strcmp(argv[i], "size")) {
			kw = argv[i];
			continue;
		}
		if (!kw) {
			cli_error(cli, "'%s': expected prio-buffer or size first", argv[i]);
			r = EXIT_USAGE;
		} else if (pair(cli, argv[i], kw, &idx, &val)) {
			r = EXIT_USAGE;
		} else if (!strcmp(kw, "prio-buffer")) {
			if (mlx_parse_u64(val, &v) < 0 || v >= DCBX_MAX_BUFFERS) {
				cli_error(cli, "invalid buffer '%s' for priority %u: buffers are 0-%d", val,
					  idx, DCBX_MAX_BUFFERS - 1);
				r = EXIT_USAGE;
			} else if (mlx_qos_put_p2b(cli->ctx, &w->qos, idx, (int64_t)v) < 0) {
				r = refused(cli, "invalid prio-buffer: ");
			}
		} else if (mlx_parse_u64(val, &v) < 0 || v > UINT32_MAX) {
			cli_error(cli, "invalid size '%s' for buffer %u: bytes, 0-%u", val, idx, UINT32_MAX);
			r = EXIT_USAGE;
		} else if (mlx_qos_put_size(cli->ctx, &w->qos, idx, (int64_t)v) < 0) {
			r = refused(cli, "invalid size: ");
		}
	}
	return run(cli, w, r);
}

int cmd_qos_dcbx(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;

	(void)argc;
	if (strcmp(argv[0], "host") && strcmp(argv[0], "firmware")) {
		cli_error(cli, "invalid DCBX owner '%s': host (the OS) or firmware", argv[0]);
		return EXIT_USAGE;
	}
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	w->qos.have = w->qos.dcbx = w->qos.dcbx_mode = MLX_SET;
	w->qos.st.dcbx = !strcmp(argv[0], "host") ? DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE : 0;
	return run(cli, w, EXIT_OK);
}
