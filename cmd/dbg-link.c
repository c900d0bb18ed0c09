/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dbg restart` and `dbg pddrinfo`: the link commands of the dbg
 * group (the table is in cmd/dbg.c).  The interface is reached through
 * lib (lib/device/netdev.c, lib/health.h): no kernel path here.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dbg-cmd.h"
#include "health.h"
#include "txn.h"

/* ---- restart ---- */

int cmd_dbg_restart(struct cli *cli, int argc, char **argv)
{
	const char *ifname = argv[0];
	const struct mlx_function *fn = NULL;
	const struct mlx_port *port = NULL;
	struct mlx_devices *devs;
	struct mlx_port_ref ref;
	char refusal[200], question[200];
	int r, e;

	(void)argc;
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= MLX_IFNAME_LEN) {
		cli_error(cli, "invalid interface name '%s'", ifname);
		return EXIT_USAGE;
	}
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	for (size_t i = 0; i < devs->nfn && !port; i++)
		for (size_t j = 0; j < devs->fn[i].nports && !port; j++)
			if (!strcmp(devs->fn[i].ports[j].ifname, ifname)) {
				fn = &devs->fn[i];
				port = &fn->ports[j];
			}
	if (!port) {
		cli_error(cli, "'%s' is not a ConnectX network interface", ifname);
		cli_hint(cli, "'mlxcli ports' lists them");
		return EXIT_NODEV;
	}
	/* its table's own --dry-run (its own wording) */
	cli->dry_run = cli_opt(cli, "dry-run") != NULL;
	/* Through the write engine (the device's lock, the change record, the
	 * one confirmation rule).  Live, SIOCSIFFLAGS; on a captured system
	 * its emulator changes the interface's flags and operstate as the
	 * kernel would. */
	snprintf(refusal, sizeof(refusal), "'mlxcli dbg restart' takes '%s' down and up: confirm with "
		 "--yes", ifname);
	snprintf(question, sizeof(question), "restart %s (link down, then up; traffic stops meanwhile)",
		 ifname);
	mlx_port_ref_init(&ref, fn, port, NULL);
	r = cli_write_action(cli, MLX_ACT_LINK_RESTART, &ref, NULL, refusal, question, &e);
	if (r) {
		if (r == EXIT_PERM)
			cli_hint(cli, "changing the link needs CAP_NET_ADMIN: run as root");
		return r;
	}
	out_str(cli->out, "netdev", cli->dry_run ? "would restart" : "restarted", ifname);
	return EXIT_OK;
}

/* ---- pddrinfo: the link-down reason the kernel knows ---- */

struct link_target {
	char ifname[MLX_IFNAME_LEN];
	const char *bdf;              /* NULL for a netdev that is not a ConnectX port */
};

static void pddr_port(struct cli *cli, const struct link_target *t)
{
	struct out *o = cli->out;
	struct mlx_linkstate ls;
	const char *es = NULL, *ss = NULL;
	char oper[32] = "", txt[300], note[400] = "";
	int r, link, carrier;

	r = mlx_linkstate_get(cli->ctx, t->ifname, &ls);
	if (r < 0) {
		/* no ethtool netlink (kernel < 5.6, no reply recorded): sysfs */
		snprintf(note, sizeof(note), "no ethtool link state (%s): carrier and operstate from sysfs; "
			 "the kernel's down reason is unknown",
			 *mlx_errmsg(cli->ctx) && r != -ENODATA ? mlx_errmsg(cli->ctx) :
			 r == -ENODATA ? "the capture has no LINKSTATE_GET reply" : strerror(-r));
		mlx_err_clear(cli->ctx);
	}
	mlx_netdev_link(cli->ctx, t->ifname, oper, sizeof(oper), &carrier);
	if (r < 0) {
		link = carrier;
	} else {
		link = ls.link;
		es = mlx_link_ext_state_str(ls.ext_state);
		ss = mlx_link_ext_substate_str(ls.ext_state, ls.ext_substate);
	}
	out_obj_begin(o, NULL, NULL);
	out_str(o, "netdev", NULL, t->ifname);
	out_str(o, "pci_address", NULL, t->bdf);
	out_str(o, "source", NULL, r < 0 ? "sysfs" : "ethtool-netlink");
	if (link >= 0)
		out_bool(o, "link", NULL, link == 1);
	else
		out_null(o, "link", NULL);
	out_str(o, "operstate", NULL, oper[0] ? oper : NULL);
#define OPT_S64(k, v) do { if ((v) >= 0) out_s64(o, k, NULL, v); else out_null(o, k, NULL); } while (0)
	OPT_S64("sqi", r < 0 ? -1 : ls.sqi);
	OPT_S64("sqi_max", r < 0 ? -1 : ls.sqi_max);
	OPT_S64("ext_state_code", r < 0 ? -1 : ls.ext_state);
	out_str(o, "ext_state", NULL, es);
	OPT_S64("ext_substate_code", r < 0 ? -1 : ls.ext_substate);
	out_str(o, "ext_substate", NULL, ss);
#undef OPT_S64
	out_str(o, "note", NULL, note[0] ? note : NULL);
	out_obj_end(o);

	if (link == 1)
		snprintf(txt, sizeof(txt), "link up");
	else if (link < 0)
		snprintf(txt, sizeof(txt), "link unknown");
	else if (r == 0 && ls.ext_state >= 0)
		snprintf(txt, sizeof(txt), "link down: %s%s%s", es ? es : "unknown reason",
			 ls.ext_substate >= 0 ? ", " : "",
			 ls.ext_substate >= 0 ? (ss ? ss : "unknown substate") : "");
	else
		snprintf(txt, sizeof(txt), "link down%s", r == 0 ? " (the driver gives no reason)" : "");
	if (r == 0 && ls.sqi >= 0) {
		size_t l = strlen(txt);

		snprintf(txt + l, sizeof(txt) - l, ", SQI %lld/%lld", (long long)ls.sqi, (long long)ls.sqi_max);
	}
	{
		size_t l = strlen(txt);

		snprintf(txt + l, sizeof(txt) - l, " [%s%s%s]", r < 0 ? "sysfs" : "ethtool netlink",
			 oper[0] ? ", operstate " : "", oper);
	}
	out_text(o, t->ifname, txt);
	if (note[0])
		cli_warn(cli, "%s: %s", t->ifname, note);
}

int cmd_dbg_pddrinfo(struct cli *cli, int argc, char **argv)
{
	struct link_target *ts = NULL;
	struct mlx_function *fn = NULL;
	struct mlx_port *port = NULL;
	struct mlx_devices *devs;
	size_t n = 0;
	bool other;
	int r;

	(void)argc;
	(void)argv;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	r = cli_other_netdev(cli, &other);
	if (r)
		return r;
	if (other) {
		ts = calloc(1, sizeof(*ts));
		if (!ts)
			return cli_fail(cli, -ENOMEM, "pddrinfo");
		snprintf(ts[0].ifname, sizeof(ts[0].ifname), "%s", cli->device);
		n = 1;
	} else {
		r = cli_select(cli, &fn, &port);
		if (r)
			return r;
	}
	if (!ts) {
		size_t cap = 0;

		for (size_t i = 0; i < devs->nfn; i++)
			cap += devs->fn[i].nports;
		ts = calloc(cap ? cap : 1, sizeof(*ts));
		if (!ts)
			return cli_fail(cli, -ENOMEM, "pddrinfo");
		for (size_t i = 0; i < devs->nfn; i++) {
			const struct mlx_function *f = &devs->fn[i];

			if (fn && f != fn)
				continue;
			for (size_t k = 0; k < f->nports; k++) {
				if ((port && &f->ports[k] != port) || !f->ports[k].ifname[0])
					continue;
				snprintf(ts[n].ifname, sizeof(ts[n].ifname), "%s", f->ports[k].ifname);
				ts[n++].bdf = f->bdf;
			}
		}
	}
	if (!n && !devs->nfn) {
		/* No ConnectX on the host: an empty list, like every read. */
		free(ts);
		cli_say_no_devices(cli, devs);
		out_list_begin(cli->out, "ports", NULL);
		out_list_end(cli->out);
		return EXIT_OK;
	}
	if (!n) {
		free(ts);
		cli_error(cli, "no ConnectX network interface%s%s", fn ? " on " : " was found",
			  fn ? fn->bdf : "");
		cli_hint(cli, "give any netdev with --any-netdev -d IFNAME");
		return EXIT_NODEV;
	}
	out_list_begin(cli->out, "ports", NULL);
	for (size_t i = 0; i < n; i++)
		pddr_port(cli, &ts[i]);
	out_list_end(cli->out);
	free(ts);
	return EXIT_OK;
}
