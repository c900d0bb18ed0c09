/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli ipoib [show|pkeys|endpoints]` and mlxtool's `dbg pkeys [IF]`,
 * `dbg ipoib-ep [-l] [-m] [-r] [IF]` (reference seeds-mlxtool-dmn-counters.md
 * §1.2, §1.3.2; lib/netview.h IPoIB): the IPoIB interfaces with their pkey
 * and mode (part_man's view), the PKey table of each InfiniBand port, and
 * an interface's local, multicast and remote endpoints.  A host whose
 * ConnectX ports are all Ethernet has none of this: the commands say so
 * and succeed, as a read of every device on a host without one does.
 * `ipoib add -d IF PKEY [mode datagram|connected] [name NAME]` and `ipoib
 * del -d IF PKEY` are part_man's add and remove: a partition child of the
 * IPoIB interface IF over rtnetlink (kind "ipoib": lib/netview.h), the
 * same write step as `vlan add|del` (cmd/vlan.c netdevs_write).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "netview.h"
#include "netview-cmd.h"
#include "settings.h"

/* The IPoIB interfaces of the ConnectX functions (or of -d / IF). */
struct ib_list {
	struct mlx_ipoib_if *v;
	size_t n;
};

static bool on_devices(const struct mlx_devices *devs, const struct mlx_function *sel,
		       const struct mlx_ipoib_if *x)
{
	for (size_t i = 0; i < devs->nfn; i++)
		if ((!sel || sel == &devs->fn[i]) && !strcmp(devs->fn[i].bdf, x->bdf))
			return true;
	return false;
}

/* The interfaces to show: IF (argv), else -d's, else every one on a
 * ConnectX function.  An exit code; *devs for the caller. */
static int select_ifs(struct cli *cli, int argc, char **argv, struct ib_list *l,
		      struct mlx_devices **devs)
{
	struct mlx_function *sel = NULL;
	struct mlx_ipoib_if *all = NULL;
	const char *want = argc ? argv[0] : NULL;
	size_t n = 0;
	int r;

	l->v = NULL;
	l->n = 0;
	r = cli_devices(cli, devs);
	if (r)
		return r;
	if (!want && cli->device) {
		/* -d an IPoIB netdev (the device model may not hold it) or a function */
		r = mlx_ipoib_list(cli->ctx, &all, &n);
		if (r < 0)
			return cli_fail(cli, r, "ipoib");
		for (size_t i = 0; i < n && !want; i++)
			if (!strcmp(all[i].ifname, cli->device))
				want = cli->device;
		free(all);
		all = NULL;
		if (!want) {
			r = cli_select(cli, &sel, NULL);
			if (r)
				return r;
		}
	}
	r = mlx_ipoib_list(cli->ctx, &all, &n);
	if (r < 0)
		return cli_fail(cli, r, "ipoib");
	l->v = calloc(n ? n : 1, sizeof(*l->v));
	if (!l->v) {
		free(all);
		return cli_fail(cli, -ENOMEM, "ipoib");
	}
	for (size_t i = 0; i < n; i++) {
		if (want ? strcmp(all[i].ifname, want) : !on_devices(*devs, sel, &all[i]))
			continue;
		l->v[l->n++] = all[i];
	}
	free(all);
	if (want && !l->n) {
		/* the callers free the list only when this succeeds */
		free(l->v);
		l->v = NULL;
		cli_error(cli, "no IPoIB interface '%s'", want);
		cli_hint(cli, "'mlxcli ipoib' lists the IPoIB interfaces");
		return EXIT_NODEV;
	}
	return EXIT_OK;
}

/* The one wording of "no IPoIB here" (exit 0: nothing to show is no error). */
static void say_none(struct cli *cli, const struct mlx_devices *devs)
{
	size_t eth = 0;

	for (size_t i = 0; i < devs->nfn; i++)
		eth += devs->fn[i].nports;
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	else
		fprintf(cli->err_fp, "mlxcli: no IPoIB interface: this host's ConnectX ports are "
			"Ethernet (%zu netdev%s, none of type InfiniBand)\n", eth, eth == 1 ? "" : "s");
}

static void out_opt_int(struct out *o, const char *key, int64_t v)
{
	if (v >= 0)
		out_u64(o, key, NULL, (uint64_t)v);
	else
		out_null(o, key, NULL);
}

int cmd_ipoib_show(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct ib_list l;
	struct out *o = cli->out;
	int r = select_ifs(cli, argc, argv, &l, &devs);

	if (r)
		return r;
	out_table_begin(o, "interfaces");
	for (size_t i = 0; i < l.n; i++) {
		const struct mlx_ipoib_if *x = &l.v[i];
		char pk[16];

		out_row_begin(o);
		out_str(o, "netdev", "NETDEV", x->ifname);
		out_str(o, "parent", "PARENT", x->parent[0] ? x->parent : NULL);
		out_str(o, "pci_address", "PCI", x->bdf[0] ? x->bdf : NULL);
		snprintf(pk, sizeof(pk), "0x%04x", x->pkey);
		if (x->pkey >= 0)
			out_u64_as(o, "pkey", "PKEY", (uint64_t)x->pkey, pk);
		else
			out_null(o, "pkey", "PKEY");
		out_str(o, "ipoib_mode", "MODE", x->mode[0] ? x->mode : NULL);
		if (x->umcast >= 0)
			out_bool(o, "umcast", "UMCAST", x->umcast);
		else
			out_null(o, "umcast", "UMCAST");
		out_u64(o, "mtu", "MTU", x->mtu);
		out_str(o, "operstate", "STATE", x->operstate[0] ? x->operstate : "unknown");
		if (x->gid[0])
			out_u64(o, "local_qpn", NULL, x->qpn);
		else
			out_null(o, "local_qpn", NULL);
		out_str(o, "local_gid", NULL, x->gid[0] ? x->gid : NULL);
		out_row_end(o);
	}
	out_table_end(o);
	if (!l.n)
		say_none(cli, devs);
	free(l.v);
	return EXIT_OK;
}

/* ---- PKey table ---- */

static void out_pkeys(struct cli *cli, const struct mlx_pkey_table *t, const char *ifs)
{
	struct out *o = cli->out;
	char label[160];

	/* mlxtool: "ConnectX IPoIB NIC: <name>" then PKEY index | PKEY */
	snprintf(label, sizeof(label), "%s port %u%s%s%s", t->rdma_dev, t->port, ifs[0] ? " (" : "",
		 ifs, ifs[0] ? ")" : "");
	out_obj_begin(o, NULL, label);
	out_str(o, "rdma_device", NULL, t->rdma_dev);
	out_u64(o, "port", NULL, t->port);
	out_str(o, "link_layer", NULL, t->link_layer[0] ? t->link_layer : NULL);
	out_u64(o, "table_size", NULL, t->table_size);
	out_table_begin(o, "pkeys");
	for (size_t i = 0; i < t->n; i++) {
		char hex[8];

		snprintf(hex, sizeof(hex), "%04x", t->e[i].pkey);
		out_row_begin(o);
		out_u64(o, "index", "PKEY INDEX", t->e[i].index);
		out_u64_as(o, "pkey", "PKEY", t->e[i].pkey, hex);
		/* the top bit: full membership (IBTA 10.9.1; part_man's "upper bit") */
		out_bool(o, "full_member", "FULL MEMBER", t->e[i].pkey & 0x8000);
		out_row_end(o);
	}
	out_table_end(o);
	out_obj_end(o);
}

int cmd_ipoib_pkeys(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct ib_list l;
	struct mlx_pkey_table *t = malloc(sizeof(*t));
	size_t shown = 0;
	int r;

	if (!t)
		return cli_fail(cli, -ENOMEM, "ipoib pkeys");
	r = select_ifs(cli, argc, argv, &l, &devs);
	if (r) {
		free(t);
		return r;
	}
	out_list_begin(cli->out, "ports", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		for (size_t d = 0; d < fn->nrdma; d++)
			for (unsigned p = 1; p <= fn->rdma[d].nports; p++) {
				char ifs[128] = "";
				size_t w = 0;
				bool wanted = !argc && !cli->device;

				for (size_t k = 0; k < l.n; k++) {
					if (strcmp(l.v[k].bdf, fn->bdf) || (l.v[k].port && l.v[k].port != p))
						continue;
					wanted = true;
					if (w + strlen(l.v[k].ifname) + 2 < sizeof(ifs))
						w += (size_t)snprintf(ifs + w, sizeof(ifs) - w, "%s%s",
								      w ? ", " : "", l.v[k].ifname);
				}
				if (!wanted || mlx_pkeys_get(cli->ctx, fn->rdma[d].name, p, t) < 0) {
					mlx_err_clear(cli->ctx);
					continue;
				}
				if (strcmp(t->link_layer, "InfiniBand") && !t->n)
					continue;       /* a RoCE port: no partitions */
				out_pkeys(cli, t, ifs);
				shown++;
			}
	}
	out_list_end(cli->out);
	if (!shown)
		say_none(cli, devs);
	free(l.v);
	free(t);
	return EXIT_OK;
}

/* ---- endpoints ---- */

static void out_eps(struct cli *cli, const char *ifname, const char *kind, const char *key,
		    const char *label)
{
	struct out *o = cli->out;
	struct mlx_ipoib_ep *v = NULL;
	size_t n = 0;
	char ekey[48];
	int r = mlx_ipoib_endpoints(cli->ctx, ifname, kind, &v, &n);

	snprintf(ekey, sizeof(ekey), "%s_error", key);
	if (r < 0) {
		out_null(o, key, NULL);
		out_str(o, ekey, label, *mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-r));
		mlx_err_clear(cli->ctx);
		return;
	}
	out_text(o, label, n ? "" : "(none)");
	out_table_begin(o, key);
	for (size_t i = 0; i < n; i++) {
		out_row_begin(o);
		out_str(o, "gid", "GID", v[i].gid);
		out_bool(o, "complete", "COMPLETE", v[i].complete);
		if (!strcmp(kind, "mcg")) {
			if (v[i].send_only >= 0)
				out_bool(o, "send_only", "SEND ONLY", v[i].send_only);
			else
				out_null(o, "send_only", "SEND ONLY");
			out_opt_int(o, "queue_length", v[i].queuelen);
		} else {
			out_opt_int(o, "dlid", v[i].dlid);
			out_opt_int(o, "service_level", v[i].sl);
			out_str(o, "rate", "RATE", v[i].rate[0] ? v[i].rate : NULL);
		}
		out_row_end(o);
	}
	out_table_end(o);
	out_null(o, ekey, NULL);
	free(v);
}

int cmd_ipoib_endpoints(struct cli *cli, int argc, char **argv)
{
	bool lo = cli_opt(cli, "local"), mc = cli_opt(cli, "multicast"), re = cli_opt(cli, "remote");
	struct mlx_devices *devs;
	struct ib_list l;
	struct out *o = cli->out;
	int r = select_ifs(cli, argc, argv, &l, &devs);

	if (r)
		return r;
	/* mlxtool: no flag is all three tables, the order of flags means nothing */
	if (!lo && !mc && !re)
		lo = mc = re = true;
	out_list_begin(o, "interfaces", NULL);
	for (size_t i = 0; i < l.n; i++) {
		const struct mlx_ipoib_if *x = &l.v[i];

		out_obj_begin(o, NULL, x->ifname);
		out_str(o, "netdev", NULL, x->ifname);
		if (lo) {
			char line[96];

			if (x->gid[0])
				out_u64(o, "local_qpn", NULL, x->qpn);
			else
				out_null(o, "local_qpn", NULL);
			out_str(o, "local_gid", NULL, x->gid[0] ? x->gid : NULL);
			snprintf(line, sizeof(line), "QPN 0x%06x, GID %s", x->qpn, x->gid[0] ? x->gid : "-");
			out_text(o, "local", x->gid[0] ? line : "- (no 20-byte IPoIB address)");
		}
		if (mc)
			out_eps(cli, x->ifname, "mcg", "multicast_groups", "multicast");
		if (re)
			out_eps(cli, x->ifname, "path", "remote_paths", "remote");
		out_obj_end(o);
	}
	out_list_end(o);
	if (!l.n)
		say_none(cli, devs);
	free(l.v);
	return EXIT_OK;
}

/* ---- add, del (part_man) ---- */

static const char *const ipoib_add_words[] = { "mode", "name", NULL };

static int ipoib_write(struct cli *cli, int argc, char **argv, bool add)
{
	struct mlx_port_settings *want = mlx_port_settings_new();
	struct mlx_child_setting *c = NULL;
	struct mlx_port_ref t;
	char what[32];
	uint16_t id;
	int r;

	if (!want)
		return cli_fail(cli, -ENOMEM, add ? "ipoib add" : "ipoib del");
	/* the words first: a bad one is exit 2 before any device is read */
	r = netdevs_parse_id(cli, argv[0], MLX_CHILD_IPOIB, &id);
	if (r == EXIT_OK && !(c = mlx_netdevs_put(cli->ctx, &want->netdevs, MLX_CHILD_IPOIB, id, add)))
		r = cli_fail(cli, -ENOMEM, "ipoib");
	for (int i = 1; r == EXIT_OK && i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(k, "name")) {
			if (c->name[0]) {
				cli_error(cli, "name is given twice");
				r = EXIT_USAGE;
			} else if (!v || mlx_child_put_name(cli->ctx, c, v) < 0) {
				cli_error(cli, "%s", v ? mlx_errmsg(cli->ctx) :
					  "name needs a value: name NAME");
				r = EXIT_USAGE;
			}
		} else if (add && !strcmp(k, "mode")) {
			if (c->mode >= 0) {
				cli_error(cli, "mode is given twice");
				r = EXIT_USAGE;
			} else if (v && !strcmp(v, "datagram")) {
				c->mode = 0;
			} else if (v && !strcmp(v, "connected")) {
				c->mode = 1;
			} else {
				cli_error(cli, "invalid mode '%s': datagram or connected", v ? v : "");
				r = EXIT_USAGE;
			}
		} else {
			const char *sug = cli_suggest(k, ipoib_add_words, 3);

			cli_error(cli, "unknown word '%s'%s", k, add ? "" : ": ipoib del takes name NAME only");
			if (sug && add)
				cli_hint(cli, "did you mean '%s'?", sug);
			r = EXIT_USAGE;
		}
	}
	if (r == EXIT_OK)
		r = cli_port_target(cli, false, &t);
	if (r == EXIT_OK) {
		snprintf(what, sizeof(what), "partition 0x%04x", c->id);
		r = netdevs_write(cli, want, &t, !add, what);
	}
	mlx_port_settings_free(want);
	return r;
}

static int cmd_ipoib_add(struct cli *cli, int argc, char **argv)
{
	return ipoib_write(cli, argc, argv, true);
}

static int cmd_ipoib_del(struct cli *cli, int argc, char **argv)
{
	return ipoib_write(cli, argc, argv, false);
}

static const struct cmd_arg ipoib_add_args[] = {
	{ "PKEY", NULL, SRC_NONE, 0 },
	{ "[mode datagram|connected] [name NAME]", ipoib_add_words, SRC_NONE,
	  ARG_KEYWORDS | ARG_OPTIONAL },
	CMD_ARG_END,
};

static const char *const ipoib_del_words[] = { "name", NULL };
static const struct cmd_arg ipoib_del_args[] = {
	{ "PKEY", NULL, SRC_NONE, 0 },
	{ "[name NAME]", ipoib_del_words, SRC_NONE, ARG_KEYWORDS | ARG_OPTIONAL },
	CMD_ARG_END,
};

const struct cmd_arg ipoib_if_arg[] = {
	{ "IF", NULL, SRC_NETDEVS, ARG_OPTIONAL },
	CMD_ARG_END,
};

const struct cmd_opt ipoib_ep_opts[] = {
	{ "local", 'l', NULL, "the local endpoint (the interface's QPN and GID)", NULL },
	{ "multicast", 'm', NULL, "the multicast groups (ipoib debugfs, root)", NULL },
	{ "remote", 'r', NULL, "the remote endpoints: the paths the interface resolved (root)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd ipoib_cmds[] = {
	{ "show", "", "the IPoIB interfaces: parent, PCI function, pkey, mode, MTU (part_man show)",
	  cmd_ipoib_show, 0, 1, 0, NULL, NULL, NULL, NULL, ipoib_if_arg },
	{ "pkeys", "", "the PKey table of each InfiniBand port (mlxtool dbg pkeys)",
	  cmd_ipoib_pkeys, 0, 1, 0, NULL, NULL, NULL, NULL, ipoib_if_arg },
	{ "endpoints", "", "local, multicast and remote endpoints of an interface (mlxtool dbg "
	  "ipoib-ep)", cmd_ipoib_endpoints, 0, 1, 0, NULL, ipoib_ep_opts, NULL, NULL, ipoib_if_arg },
	{ "add", "", "add a partition child of an IPoIB interface (part_man add)", cmd_ipoib_add, 1, 5,
	  CMD_NEEDS_DEVICE | CMD_WRITES, NULL, netdevs_write_opts, NULL, NULL, ipoib_add_args },
	{ "del", "", "delete a partition child (part_man rem; drops its traffic: --yes)", cmd_ipoib_del,
	  1, 3, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, netdevs_write_opts, NULL, NULL, ipoib_del_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group ipoib_group = { "ipoib", "IPoIB: interfaces, PKey tables, endpoints; add, del",
				       "mlxcli-netview(8)", ipoib_cmds };
