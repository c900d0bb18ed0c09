/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli link set -d DEV [pause [rx on|off] [tx on|off] [autoneg on|off]]
 * [speed MBPS] [duplex full|half] [autoneg on|off] [fec auto|off|rs|baser|llrs]`
 * (issue 27; WinOF-2's *FlowControl, *SpeedDuplex and FEC): the words into
 * the link section of a desired state (lib/settings.h), validated there,
 * then one step of the write engine (lib/phy/link-settings.c): the
 * device's lock, the old values, one ethtool request per setting, read
 * back, put back newest first.  "pause" opens pause's words: rx, tx and
 * autoneg after it are pause's, until speed, duplex or fec; autoneg
 * anywhere else is the link's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "settings.h"
#include "txn.h"

static const char *const link_words[] = {
	"pause", "rx", "tx", "autoneg", "speed", "duplex", "fec", NULL,
};


static int on_off(struct cli *cli, const char *what, const char *v, bool *b)
{
	if (v && !strcmp(v, "on"))
		*b = true;
	else if (v && !strcmp(v, "off"))
		*b = false;
	else {
		cli_error(cli, "%s takes on or off%s%s%s", what, v ? ", not '" : "", v ? v : "",
			  v ? "'" : "");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Set a flag once: exit 2 when the command line names it twice. */
static int once(struct cli *cli, const char *what, uint8_t *h, bool *dst, bool v)
{
	if (*h == MLX_SET) {
		cli_error(cli, "%s is given twice", what);
		return EXIT_USAGE;
	}
	*h = MLX_SET;
	*dst = v;
	return EXIT_OK;
}

static int parse(struct cli *cli, int argc, char **argv, struct mlx_link_settings *l)
{
	bool in_pause = false, b;
	int r = EXIT_OK;

	for (int i = 0; i < argc && r == EXIT_OK; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(k, "pause")) {
			in_pause = true;
			continue;
		}
		if (!strcmp(k, "rx") || !strcmp(k, "tx") || (!strcmp(k, "autoneg") && in_pause)) {
			char what[24];

			if (!in_pause) {
				cli_error(cli, "'%s' is a word of pause: 'pause %s on|off'", k, k);
				return EXIT_USAGE;
			}
			snprintf(what, sizeof(what), "pause %s", k);
			if ((r = on_off(cli, what, v, &b)))
				return r;
			i++;
			r = !strcmp(k, "rx") ? once(cli, what, &l->pause_rx_h, &l->pause_rx, b) :
			    !strcmp(k, "tx") ? once(cli, what, &l->pause_tx_h, &l->pause_tx, b) :
			    once(cli, what, &l->pause_autoneg_h, &l->pause_autoneg, b);
			continue;
		}
		in_pause = false;
		if (!strcmp(k, "autoneg")) {
			if ((r = on_off(cli, "autoneg", v, &b)) == EXIT_OK)
				r = once(cli, "autoneg", &l->autoneg_h, &l->autoneg, b);
			i++;
		} else if (!strcmp(k, "speed")) {
			uint64_t u;

			if (l->speed_h == MLX_SET) {
				cli_error(cli, "speed is given twice");
				return EXIT_USAGE;
			}
			if (!v || mlx_parse_u64(v, &u) < 0 || u > INT64_MAX ||
			    mlx_link_put_speed(cli->ctx, l, (int64_t)u) < 0) {
				cli_error(cli, "invalid speed '%s': Mb/s, 1-4294967294 (100000 for 100G)",
					  v ? v : "");
				return EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(k, "duplex")) {
			if (l->duplex_h == MLX_SET) {
				cli_error(cli, "duplex is given twice");
				return EXIT_USAGE;
			}
			if (!v || mlx_link_put_duplex(cli->ctx, l, v) < 0) {
				cli_error(cli, "invalid duplex '%s': full or half", v ? v : "");
				return EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(k, "fec")) {
			if (l->fec_h == MLX_SET) {
				cli_error(cli, "fec is given twice");
				return EXIT_USAGE;
			}
			if (!v || mlx_link_put_fec(cli->ctx, l, v) < 0) {
				cli_error(cli, "invalid fec '%s': auto, off, rs, baser or llrs", v ? v : "");
				return EXIT_USAGE;
			}
			i++;
		} else {
			const char *s = cli_suggest(k, link_words, 7);

			cli_error(cli, "unknown link setting '%s'", k);
			if (s)
				cli_hint(cli, "did you mean '%s'?", s);
			return EXIT_USAGE;
		}
	}
	if (r == EXIT_OK && !l->pause_rx_h && !l->pause_tx_h && !l->pause_autoneg_h &&
	    !l->autoneg_h && !l->speed_h && !l->duplex_h && !l->fec_h) {
		cli_error(cli, "'mlxcli link set' needs a setting: pause rx|tx|autoneg on|off, "
			  "speed MBPS, duplex full|half, autoneg on|off, fec MODE");
		return EXIT_USAGE;
	}
	if (r == EXIT_OK && l->duplex_h && !l->speed_h) {
		cli_error(cli, "duplex is set with a speed: 'speed MBPS duplex full|half'");
		return EXIT_USAGE;
	}
	return r;
}

int cmd_link_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want = mlx_port_settings_new();
	struct mlx_port_ref t;
	struct mlx_txn *txn = NULL;
	char refusal[300], question[300];
	int r, e;

	if (!want)
		return cli_fail(cli, -ENOMEM, "link set");
	/* the words first: a bad one is exit 2 before any device is read */
	r = parse(cli, argc, argv, &want->link);
	if (r == EXIT_OK)
		r = cli_port_target(cli, true, &t);
	if (r) {
		mlx_port_settings_free(want);
		return r;
	}
	want->link.have = MLX_SET;
	out_str(cli->out, "netdev", NULL, t.ifname);
	out_str(cli->out, "pci_address", NULL, t.fn ? t.fn->bdf : NULL);
	e = mlx_txn_new(cli->ctx, &txn);
	if (e == 0)
		e = mlx_txn_add(txn, MLX_SUB_LINK, &t, want, 0);
	/* the plan first, with no lock held: global pause over PFC turns PFC
	 * off on mlx5, which is confirmed (--yes, or the terminal) */
	if (e >= 0)
		e = mlx_txn_plan(txn, 0);
	if (e >= 0 && mlx_txn_destroys(txn)) {
		snprintf(refusal, sizeof(refusal), "global pause on %s turns its PFC off (mlx5 keeps "
			 "both in one register): confirm with --yes, or turn PFC off first "
			 "(mlxcli qosconfig pfc none)", mlx_port_ref_name(&t));
		snprintf(question, sizeof(question), "turn global pause on for %s and so PFC off",
			 mlx_port_ref_name(&t));
		r = cli_confirm(cli, txn, refusal, NULL, question);
	}
	r = cli_txn_finish(cli, txn, e, r, mlx_port_ref_name(&t));
	mlx_txn_free(txn);
	mlx_port_settings_free(want);
	return r;
}

static const struct cmd_arg link_set_args[] = {
	{ "[pause [rx on|off] [tx on|off] [autoneg on|off]] [speed MBPS] [duplex full|half] "
	  "[autoneg on|off] [fec auto|off|rs|baser|llrs]", link_words, SRC_NONE, ARG_KEYWORDS },
	CMD_ARG_END,
};

static const struct cmd_opt link_set_opts[] = {
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL,
	  SRC_NONE, 0 },
	{ "yes", 'y', NULL, "go ahead when pause turns PFC off (mlx5: one register)", NULL, SRC_NONE,
	  0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

static const struct cmd link_cmds[] = {
	{ "show", "", "the link of each port (as 'mlxcli link')", cmd_link, 0, 0, 0, NULL,
	  link_opts, NULL, "mlxcli-module(8)" },
	{ "set", "", "pause, speed, duplex, autonegotiation, FEC of a port", cmd_link_set, 1, -1,
	  CMD_NEEDS_DEVICE | CMD_WRITES, NULL, link_set_opts, NULL, "mlxcli-module(8)",
	  link_set_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group link_group = { "link", "the link: show, set", "mlxcli-module(8)", link_cmds };

