/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dbg ...`: mlxtool's dbg group (reference
 * seeds-mlxtool-dmn-counters.md §1.2): mstdump, dump-me-now, get-state,
 * restart, pddrinfo.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dcqcn.h"
#include "fw.h"
#include "vsec.h"

/* ---- mstdump ---- */

struct emit_ctx {
	FILE *fp;
	struct out *o;          /* JSON mode: rows */
};

static int emit_dword(void *arg, uint32_t addr, uint32_t val)
{
	struct emit_ctx *e = arg;

	if (e->o) {
		out_row_begin(e->o);
		out_u64(e->o, "address", NULL, addr);
		out_u64(e->o, "value", NULL, val);
		out_row_end(e->o);
		return 0;
	}
	/* mstdump's own line: printf("0x%8.8x 0x%8.8x\n", addr, data) */
	return fprintf(e->fp, "0x%8.8x 0x%8.8x\n", addr, val) < 0 ? -EIO : 0;
}

static int cmd_dbg_mstdump(struct cli *cli, int argc, char **argv)
{
	const char *ranges = cli_opt(cli, "ranges"), *ofile = cli_opt(cli, "output");
	struct mlx_cr_range *own = NULL;
	const struct mlx_cr_range *r;
	const struct mlx_cr_ranges_db *db = NULL;
	struct mlx_function *fn;
	struct mlx_vsec_stats st;
	struct emit_ctx ec = { cli->out_fp, NULL };
	struct timespec t0, t1;
	size_t n = 0;
	double secs;
	int rc, fd = -1;
	FILE *fp = NULL;

	(void)argc;
	(void)argv;
	if (!cli->device) {
		cli_error(cli, "'mlxcli dbg mstdump' dumps one device: give -d DEV");
		return EXIT_USAGE;
	}
	rc = cli_select(cli, &fn, NULL);
	if (rc)
		return rc;
	if (!mlx_is_live(cli->ctx)) {
		cli_error(cli, "the CR space needs the live device: %s is a captured system", mlx_root(cli->ctx));
		return EXIT_NOTSUP;
	}
	if (fn->role == MLX_FN_VF) {
		cli_error(cli, "%s is a virtual function: the CR-space gateway is on the PF only%s%s",
			  fn->bdf, fn->pf ? "; give " : "", fn->pf ? fn->pf->bdf : "");
		return EXIT_NOTSUP;
	}
	if (geteuid() != 0) {
		cli_error(cli, "reading the CR space of %s needs root", fn->bdf);
		cli_hint(cli, "the gateway is driven by config-space writes, which only root may do; run as root");
		return EXIT_PERM;
	}
	if (ranges) {
		char *text = NULL, err[128];
		size_t len = 0, bad;
		FILE *f = fopen(ranges, "re");

		if (!f) {
			cli_error(cli, "cannot open '%s': %s", ranges, strerror(errno));
			return EXIT_USAGE;
		}
		text = malloc(16 << 20);
		len = text ? fread(text, 1, 16 << 20, f) : 0;
		fclose(f);
		rc = text ? mlx_cr_ranges_parse(text, len, &own, &n, &bad, err, sizeof(err)) : -ENOMEM;
		free(text);
		if (rc < 0) {
			cli_error(cli, "%s:%zu: %s", ranges, bad, rc == -EINVAL ? err : strerror(-rc));
			return EXIT_USAGE;
		}
		r = own;
	} else {
		db = mlx_cr_ranges_for(fn->device);
		if (!db) {
			cli_error(cli, "no safe CR-space block list is known for %s (device ID 0x%04x)", fn->bdf,
				  fn->device);
			cli_hint(cli, "give mstflint's list for this device with --ranges FILE");
			return EXIT_NOTSUP;
		}
		if (cli_opt(cli, "full")) {
			cli_error(cli, "no -full block list is embedded for %s: give mstflint's full list with --ranges FILE",
				  db->name);
			return EXIT_NOTSUP;
		}
		r = db->r;
		n = db->n;
	}
	if (ofile) {
		fd = open(ofile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			cli_error(cli, "cannot create '%s': %s", ofile, strerror(errno));
			free(own);
			return errno == EEXIST ? EXIT_USAGE : cli_exit_code(-errno);
		}
		fp = fdopen(fd, "w");
		ec.fp = fp;
	} else if (out_is_json(cli->out)) {
		ec.o = cli->out;
		out_str(cli->out, "pci_address", NULL, fn->bdf);
		out_str(cli->out, "block_list", NULL, db ? db->name : ranges);
		out_table_begin(cli->out, "dwords");
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = mlx_crdump(cli->ctx, fn, r, n, emit_dword, &ec, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ec.o)
		out_table_end(cli->out);
	free(own);
	if (fp && fclose(fp) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0) {
		if (ofile)
			unlink(ofile);
		return cli_fail(cli, rc, "CR-space dump failed");
	}
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (cli->verbose)
		fprintf(cli->err_fp,
			"mlxcli: info: %llu dwords in %.3f s (%.0f reads/s), %llu config accesses (%.3f per dword; "
			"protocol minimum %d + %d per hold), %llu semaphore holds\n",
			(unsigned long long)st.dwords, secs, secs > 0 ? (double)st.dwords / secs : 0.0,
			(unsigned long long)(st.reads + st.writes),
			st.dwords ? (double)(st.reads + st.writes) / (double)st.dwords : 0.0,
			MLX_VSC_MIN_PER_DWORD, MLX_VSC_MIN_PER_HOLD, (unsigned long long)st.holds);
	if (ofile && out_is_json(cli->out)) {
		out_str(cli->out, "pci_address", NULL, fn->bdf);
		out_str(cli->out, "file", NULL, ofile);
		out_u64(cli->out, "dwords_read", NULL, st.dwords);
	}
	return EXIT_OK;
}

/* ---- get-state ---- */

static void state_fn(struct cli *cli, const struct mlx_function *fn)
{
	struct out *o = cli->out;
	const struct mlx_pcie_info *e = &fn->cfg.pcie;
	struct mlx_pcie_link cap = { 0 }, sta = { 0 };
	struct mlx_aer_counts aer;
	struct mlx_dcqcn_port dp;
	bool degraded = false, have = false;
	char label[96];

	if (fn->cfg_decoded && e->present && e->cap.speed) {
		cap = e->cap;
		sta = e->sta;
		have = true;
	} else if (fn->max_link_speed[0]) {
		cap.speed = mlx_pcie_speed_from_sysfs(fn->max_link_speed);
		cap.width = (uint8_t)fn->max_link_width;
		sta.speed = mlx_pcie_speed_from_sysfs(fn->cur_link_speed);
		sta.width = (uint8_t)fn->cur_link_width;
		have = true;
	}
	if (have && fn->role == MLX_FN_PF && sta.width &&
	    ((cap.speed && sta.speed && sta.speed < cap.speed) || (cap.width && sta.width < cap.width)))
		degraded = true;
	mlx_aer_read(cli->ctx, fn, &aer);

	snprintf(label, sizeof(label), "%s (%s, %s)", fn->bdf, fn->id ? fn->id->product : "?",
		 fn->role == MLX_FN_VF ? "vf" : "pf");
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, fn->bdf);
	out_str(o, "role", NULL, fn->role == MLX_FN_VF ? "vf" : "pf");
	out_str(o, "driver", "driver", fn->driver[0] ? fn->driver : NULL);
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < fn->nports; i++) {
		const struct mlx_port *p = &fn->ports[i];
		char txt[128], sp[32];

		out_obj_begin(o, NULL, NULL);
		out_str(o, "ifname", NULL, p->ifname);
		out_str(o, "operstate", NULL, p->operstate);
		if (p->speed_mbps > 0)
			out_s64(o, "speed_mbps", NULL, p->speed_mbps);
		else
			out_null(o, "speed_mbps", NULL);
		out_obj_end(o);
		snprintf(txt, sizeof(txt), "%s %s", p->operstate[0] ? p->operstate : "unknown",
			 p->speed_mbps > 0 ? cli_speed_str(p->speed_mbps, sp, sizeof(sp)) : "");
		out_text(o, p->ifname, txt);
	}
	out_list_end(o);
	out_obj_begin(o, "pcie", NULL);
	if (have) {
		out_str(o, "speed", NULL, mlx_pcie_speed_str(sta.speed));
		out_u64(o, "width", NULL, sta.width);
	} else {
		out_null(o, "speed", NULL);
		out_null(o, "width", NULL);
	}
	out_obj_end(o);
	out_bool(o, "pcie_degraded", "pcie degraded", degraded);
	out_obj_begin(o, "aer", NULL);
	if (aer.correctable >= 0)
		out_s64(o, "correctable", NULL, aer.correctable);
	else
		out_null(o, "correctable", NULL);
	if (aer.nonfatal >= 0)
		out_s64(o, "nonfatal", NULL, aer.nonfatal);
	else
		out_null(o, "nonfatal", NULL);
	if (aer.fatal >= 0)
		out_s64(o, "fatal", NULL, aer.fatal);
	else
		out_null(o, "fatal", NULL);
	out_obj_end(o);
	{
		char a[96];

		if (aer.correctable < 0 && aer.nonfatal < 0 && aer.fatal < 0)
			snprintf(a, sizeof(a), "n/a");
		else
			snprintf(a, sizeof(a), "correctable %lld, nonfatal %lld, fatal %lld",
				 (long long)aer.correctable, (long long)aer.nonfatal, (long long)aer.fatal);
		out_text(o, "aer", a);
	}
	if (fn->role == MLX_FN_PF &&
	    mlx_dcqcn_open(cli->ctx, fn, fn->nports ? &fn->ports[0] : NULL, &dp) == 0)
		out_str(o, "dcqcn_layout", "dcqcn", mlx_dcqcn_layout_name(dp.layout));
	else
		out_str(o, "dcqcn_layout", "dcqcn", "none");
	mlx_err_clear(cli->ctx);
	out_null(o, "devlink_health", "devlink health");
	out_obj_end(o);
}

static int cmd_dbg_get_state(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *sel;
	struct mlx_devices *devs;
	int r;

	(void)argc;
	(void)argv;
	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (!devs->nfn) {
		cli_error(cli, "no ConnectX device was found");
		return EXIT_NODEV;
	}
	out_list_begin(cli->out, "devices", NULL);
	for (size_t i = 0; i < devs->nfn; i++)
		if (!sel || &devs->fn[i] == sel)
			state_fn(cli, &devs->fn[i]);
	out_list_end(cli->out);
	return EXIT_OK;
}

/* ---- restart ---- */

static int set_up(int s, const char *ifname, bool up)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return ioctl(s, SIOCSIFFLAGS, &ifr) < 0 ? -errno : 0;
}

static int cmd_dbg_restart(struct cli *cli, int argc, char **argv)
{
	const char *ifname = argv[0];
	struct mlx_devices *devs;
	bool found = false;
	int r, s;

	(void)argc;
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ) {
		cli_error(cli, "invalid interface name '%s'", ifname);
		return EXIT_USAGE;
	}
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	for (size_t i = 0; i < devs->nfn; i++)
		for (size_t j = 0; j < devs->fn[i].nports; j++)
			found |= !strcmp(devs->fn[i].ports[j].ifname, ifname);
	if (!found) {
		cli_error(cli, "'%s' is not a ConnectX network interface", ifname);
		cli_hint(cli, "'mlxcli ports' lists them");
		return EXIT_NODEV;
	}
	if (!mlx_is_live(cli->ctx)) {
		cli_error(cli, "restarting '%s' needs the live system: %s is a captured one", ifname,
			  mlx_root(cli->ctx));
		return EXIT_NOTSUP;
	}
	if (!cli_opt(cli, "yes")) {
		char line[16];

		if (!isatty(STDIN_FILENO)) {
			cli_error(cli, "'mlxcli dbg restart' takes '%s' down and up: confirm with --yes", ifname);
			return EXIT_USAGE;
		}
		fprintf(cli->err_fp, "restart %s (link down, then up; traffic stops meanwhile)? [y/N] ", ifname);
		fflush(cli->err_fp);
		if (!fgets(line, sizeof(line), stdin) || (line[0] != 'y' && line[0] != 'Y')) {
			cli_error(cli, "not confirmed; nothing was changed");
			return EXIT_FAIL;
		}
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return cli_fail(cli, -errno, "cannot open a socket");
	r = set_up(s, ifname, false);
	if (r == 0)
		r = set_up(s, ifname, true);
	close(s);
	if (r < 0) {
		cli_error(cli, "cannot restart '%s': %s", ifname, strerror(-r));
		if (cli_exit_code(r) == EXIT_PERM)
			cli_hint(cli, "changing the link needs CAP_NET_ADMIN: run as root");
		return cli_exit_code(r);
	}
	out_str(cli->out, "ifname", "restarted", ifname);
	return EXIT_OK;
}

/* ---- pddrinfo ---- */

static int cmd_dbg_pddrinfo(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error(cli, "'mlxcli dbg pddrinfo' is not supported yet: PDDR is a firmware access register "
		  "(no Linux interface without mstflint's driver), and the ethtool link extended state "
		  "(ETHTOOL_MSG_LINKSTATE_GET) is not read by this mlxcli yet");
	return EXIT_NOTSUP;
}

static const struct cmd_opt mstdump_opts[] = {
	{ "full", 0, NULL, "the -full block list (not embedded: needs --ranges)", NULL },
	{ "output", 'o', "FILE", "write the dump to a new FILE (mode 0600) instead of stdout", NULL },
	{ "ranges", 0, "FILE", "read the blocks from an mstdump CSV (#Addr, Size, Enable addr)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt restart_opts[] = {
	{ "yes", 'y', NULL, "do not ask for confirmation", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd dbg_cmds[] = {
	{ "mstdump", "", "CR-space dump of a PF in mstdump's format (root, live device)",
	  cmd_dbg_mstdump, 0, 0, CMD_NEEDS_ROOT, NULL, mstdump_opts, NULL },
	{ "dump-me-now", "[BUS DEV FUNC]", "make an incident folder (same as 'mlxcli dump-me-now')",
	  cmd_dbg_dump_me_now, 0, 3, 0, NULL, dmn_opts, NULL },
	{ "get-state", "", "health at a glance: link, PCIe, AER, DCQCN layout",
	  cmd_dbg_get_state, 0, 0, 0, NULL, NULL, NULL },
	{ "restart", "IFNAME", "take a ConnectX interface down and up",
	  cmd_dbg_restart, 1, 1, CMD_WRITES, NULL, restart_opts, NULL },
	{ "pddrinfo", "", "port diagnostic database (not supported yet)",
	  cmd_dbg_pddrinfo, 0, 0, CMD_NO_SCAN, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group dbg_group = { "dbg", "debugging: CR-space dump, incidents, device state",
				     "mlxcli-dbg(8)", dbg_cmds };
