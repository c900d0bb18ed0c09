/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dbg ...`: mlxtool's dbg group (reference
 * seeds-mlxtool-dmn-counters.md §1.2): mstdump, dump-me-now, get-state,
 * restart, pddrinfo; and cmd-stats, sw-reset (devlink health, reload,
 * ethtool link state and debugfs command statistics: lib/health.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "incident.h"
#include "dbg-cmd.h"
#include "dcqcn.h"
#include "fw.h"
#include "health.h"
#include "health-json.h"
#include "netview-cmd.h"
#include "progress.h"
#include "txn.h"
#include "vsec.h"

/* ---- mstdump ---- */

struct emit_ctx {
	FILE *fp;
	struct out *o;          /* JSON mode: rows */
	struct progress pr;     /* on a terminal: dwords read (issue 27) */
	uint64_t n;
};

static int emit_dword(void *arg, uint32_t addr, uint32_t val)
{
	struct emit_ctx *e = arg;

	progress_step(&e->pr, ++e->n);
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

/* -d (if given) and the device model; the dbg commands need at least one
 * ConnectX function (exit 3 without one, like dump-me-now). */
static int dbg_devices(struct cli *cli, struct mlx_function **sel, struct mlx_devices **devs)
{
	int r = cli_select(cli, sel, NULL);

	if (r)
		return r;
	r = cli_devices(cli, devs);
	if (r)
		return r;
	/* A read of every device on a host with none: an empty list (0). */
	if (!(*devs)->nfn)
		cli_say_no_devices(cli, *devs);
	return EXIT_OK;
}

/* The dump of mstdump through the open gateway @cr. */
static int mstdump(struct cli *cli, const struct mlx_function *fn, struct mlx_crdump *cr,
		   const char *ranges, const char *ofile)
{
	struct mlx_cr_range *own = NULL;
	const struct mlx_cr_range *r;
	const struct mlx_cr_ranges_db *db = NULL;
	struct mlx_vsec_stats st;
	struct emit_ctx ec = { cli->out_fp, NULL, { 0 }, 0 };
	struct timespec t0, t1;
	size_t n = 0;
	double secs;
	int rc, fd = -1;
	FILE *fp = NULL;

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
	if (ofile && (fd = mlx_incident_guard(cli->ctx, ofile)) < 0) {
		free(own);
		return cli_fail(cli, fd, "evidence");
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
	{
		uint64_t total = 0;
		char what[64];

		for (size_t i = 0; i < n; i++)
			total += r[i].dwords;
		snprintf(what, sizeof(what), "CR-space dump of %s", fn->bdf);
		/* not over the dump itself when it goes to this terminal */
		progress_begin(&ec.pr, cli, what, total);
		if (!ofile && !out_is_json(cli->out) && isatty(fileno(cli->out_fp)))
			ec.pr.on = false;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = mlx_crdump_read(cr, r, n, emit_dword, &ec, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	progress_end(&ec.pr);
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

static int cmd_dbg_mstdump(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *fn;
	struct mlx_crdump *cr = NULL;
	int rc;

	(void)argc;
	(void)argv;
	if (!cli->device) {
		cli_error(cli, "'mlxcli dbg mstdump' dumps one device: give -d DEV");
		return EXIT_USAGE;
	}
	rc = cli_select(cli, &fn, NULL);
	if (rc)
		return rc;
	if (fn->role == MLX_FN_VF) {
		cli_error(cli, "%s is a virtual function: the CR-space gateway is on the PF only%s%s",
			  fn->bdf, fn->pf ? "; give " : "", fn->pf ? fn->pf->bdf : "");
		return EXIT_NOTSUP;
	}
	/* The gateway first: a captured system, a missing capability or
	 * privilege are said before any output is made.  Root itself the
	 * dispatcher asked for (CMD_NEEDS_ROOT). */
	rc = mlx_crdump_open(cli->ctx, fn, &cr);
	if (rc < 0)
		return cli_fail(cli, rc, "cannot open the CR-space gateway");
	rc = mstdump(cli, fn, cr, cli_opt(cli, "ranges"), cli_opt(cli, "output"));
	mlx_crdump_close(cr);
	return rc;
}

/* ---- get-state: devlink health ---- */

/* The fw reporter's diagnose: "Syndrome" (u8) and, when not 0,
 * "Description" (mlx5 health.c mlx5_fw_reporter_diagnose, REF:§6.3). */
static void fw_diagnose(struct cli *cli, const struct mlx_function *fn, const struct mlx_health *h,
			int64_t *synd, char *desc, size_t desclen)
{
	struct mlx_fmsg_node *d = NULL;
	const struct mlx_fmsg_node *v;

	*synd = -1;
	desc[0] = '\0';
	for (size_t i = 0; i < h->n; i++) {
		if (strcmp(h->r[i].name, "fw") || h->r[i].port_index >= 0)
			continue;
		if (mlx_health_diagnose(cli->ctx, fn, &h->r[i], &d) < 0)
			break;
		v = mlx_fmsg_get(d, "Syndrome");
		if (v && v->kind == MLX_FMSG_VAL && v->vtype != MLX_FMSG_STRING && v->vtype != MLX_FMSG_BINARY)
			*synd = (int64_t)v->u;
		v = mlx_fmsg_get(d, "Description");
		if (v && v->kind == MLX_FMSG_VAL && v->vtype == MLX_FMSG_STRING && v->s)
			snprintf(desc, desclen, "%s", v->s);
		mlx_fmsg_free(d);
		break;
	}
	mlx_err_clear(cli->ctx);
}

static void state_health(struct cli *cli, const struct mlx_function *fn)
{
	struct out *o = cli->out;
	struct mlx_health *h;
	const struct mlx_health_reporter *fatal = NULL;
	char txt[512], desc[128], why[300];
	int64_t synd;
	size_t l = 0;
	int r;

	if (fn->role == MLX_FN_VF) {
		out_null(o, "devlink_health", NULL);
		out_str(o, "devlink_health_error", NULL, "not read for a VF: give its PF");
		out_text(o, "devlink health", "- (a VF)");
		return;
	}
	h = calloc(1, sizeof(*h));
	r = h ? mlx_health_get(cli->ctx, fn, h) : -ENOMEM;
	if (r < 0) {
		snprintf(why, sizeof(why), "%s", *mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-r));
		if (r == -ENODATA)
			snprintf(why, sizeof(why), "the capture has no devlink health reply for %s", fn->bdf);
		out_null(o, "devlink_health", NULL);
		out_str(o, "devlink_health_error", NULL, why);
		snprintf(txt, sizeof(txt), "- (%s)", why);
		out_text(o, "devlink health", txt);
		mlx_err_clear(cli->ctx);
		free(h);
		return;
	}
	fw_diagnose(cli, fn, h, &synd, desc, sizeof(desc));
	out_obj_begin(o, "devlink_health", NULL);
	out_list_begin(o, "reporters", NULL);
	txt[0] = '\0';
	for (size_t i = 0; i < h->n; i++) {
		const struct mlx_health_reporter *p = &h->r[i];
		const char *st = mlx_health_state_str(p->state);

		out_obj_begin(o, NULL, NULL);
		cli_out_reporter(o, p, false);
		out_obj_end(o);
		if (l < sizeof(txt))
			l += (size_t)snprintf(txt + l, sizeof(txt) - l, "%s%s %s (errors %llu, recovered %llu)",
					      i ? ", " : "", p->name, st ? st : "?",
					      (unsigned long long)p->err_count,
					      (unsigned long long)p->recover_count);
		if (!strcmp(p->name, "fw_fatal") && p->port_index < 0)
			fatal = p;
	}
	out_list_end(o);
	out_text(o, "devlink health", h->n ? txt : "no reporters");
	out_obj_begin(o, "fw_state", NULL);
	if (fatal) {
		out_bool(o, "is_fatal", NULL, fatal->state == 1);
		out_u64(o, "fatal_errors", NULL, fatal->err_count);
	} else {
		out_null(o, "is_fatal", NULL);
		out_null(o, "fatal_errors", NULL);
	}
	if (synd >= 0)
		out_s64(o, "syndrome", NULL, synd);
	else
		out_null(o, "syndrome", NULL);
	out_str(o, "description", NULL, desc[0] ? desc : NULL);
	out_obj_end(o);
	out_obj_end(o);
	out_null(o, "devlink_health_error", NULL);
	if (!fatal)
		snprintf(txt, sizeof(txt), "unknown (no fw_fatal reporter)");
	else
		snprintf(txt, sizeof(txt), "%s%s, %llu fatal error%s so far", fatal->state == 1 ? "FATAL" : "ok",
			 "", (unsigned long long)fatal->err_count, fatal->err_count == 1 ? "" : "s");
	if (synd > 0) {
		l = strlen(txt);
		snprintf(txt + l, sizeof(txt) - l, "; health syndrome 0x%llx%s%s", (unsigned long long)synd,
			 desc[0] ? " " : "", desc);
	}
	out_text(o, "firmware", txt);
	free(h);
}

/* ---- get-state ---- */

static void state_fn(struct cli *cli, const struct mlx_function *fn)
{
	struct out *o = cli->out;
	struct cli_pcie pv;
	struct mlx_aer_counts aer;
	struct mlx_dcqcn_port dp;
	char label[96];

	cli_pcie_view(fn, &pv);
	mlx_aer_read(cli->ctx, fn, &aer);

	snprintf(label, sizeof(label), "%s (%s, %s)", fn->bdf, fn->id ? fn->id->product : "?",
		 fn->role == MLX_FN_VF ? "vf" : "pf");
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, mlx_fn_is_pci(fn) ? fn->bdf : NULL);
	out_str(o, "role", NULL, fn->role == MLX_FN_VF ? "vf" : "pf");
	out_str(o, "driver", "driver", fn->driver[0] ? fn->driver : NULL);
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < fn->nports; i++) {
		const struct mlx_port *p = &fn->ports[i];
		char txt[128], sp[32];

		out_obj_begin(o, NULL, NULL);
		out_str(o, "netdev", NULL, p->ifname);
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
	/* the PCIe link as devices and pci give it (mlxcli-json(7)) */
	cli_out_pcie(o, &pv, false);
	out_text(o, "pcie degraded", pv.degraded ? "yes" : "no");
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
	state_health(cli, fn);
	out_obj_end(o);
}

static int cmd_dbg_get_state(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *sel;
	struct mlx_devices *devs;
	int r;

	(void)argc;
	(void)argv;
	r = dbg_devices(cli, &sel, &devs);
	if (r)
		return r;
	out_list_begin(cli->out, "devices", NULL);
	for (size_t i = 0; i < devs->nfn; i++)
		if (!sel || &devs->fn[i] == sel)
			state_fn(cli, &devs->fn[i]);
	out_list_end(cli->out);
	return EXIT_OK;
}

/* ---- cmd-stats: mlx5 firmware command statistics (debugfs) ---- */

static int cmd_dbg_cmd_stats(struct cli *cli, int argc, char **argv)
{
	struct out *o = cli->out;
	struct mlx_function *sel;
	struct mlx_devices *devs;
	bool all = cli_opt(cli, "all") != NULL, any = false;
	char first_err[600] = "";
	int r, first_code = 0;

	(void)argc;
	(void)argv;
	r = dbg_devices(cli, &sel, &devs);
	if (r)
		return r;
	if (!devs->nfn) {
		out_list_begin(cli->out, "devices", NULL);
		out_list_end(cli->out);
		return EXIT_OK;
	}
	/* The permission question first: it is the same for every device. */
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];
		struct mlx_cmd_stat *st;
		size_t n;

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		r = mlx_cmd_stats_read(cli->ctx, fn->bdf, &st, &n);
		if (r < 0) {
			if (!first_code) {
				first_code = r;
				snprintf(first_err, sizeof(first_err), "%s", mlx_errmsg(cli->ctx));
			}
			if (r == -EACCES || r == -EPERM)
				break;
			mlx_err_clear(cli->ctx);
			continue;
		}
		free(st);
		any = true;
	}
	if (first_code == -EACCES || first_code == -EPERM) {
		cli_error(cli, "%s", first_err);
		cli_hint(cli, "the firmware command statistics are in debugfs, which only root may read: run as root");
		return EXIT_PERM;
	}
	if (!any) {
		cli_error(cli, "%s", first_err[0] ? first_err : "no firmware command statistics");
		if (first_code == -ENOENT)
			cli_hint(cli, "mount debugfs (mount -t debugfs none /sys/kernel/debug) on a kernel with CONFIG_DEBUG_FS");
		return first_code == -ENOENT ? EXIT_NOTSUP : cli_exit_code(first_code);
	}
	out_list_begin(o, "devices", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];
		struct mlx_cmd_stat *st;
		uint64_t total = 0, failed = 0;
		char label[96];
		size_t n;

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		r = mlx_cmd_stats_read(cli->ctx, fn->bdf, &st, &n);
		if (r < 0) {
			cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
			mlx_err_clear(cli->ctx);
			continue;
		}
		for (size_t k = 0; k < n; k++) {
			total += st[k].n;
			failed += st[k].failed > 0 ? (uint64_t)st[k].failed : 0;
		}
		snprintf(label, sizeof(label), "%s (%s): %llu commands, %llu failed", fn->bdf,
			 fn->id ? fn->id->product : "?", (unsigned long long)total,
			 (unsigned long long)failed);
		out_obj_begin(o, NULL, label);
		out_str(o, "pci_address", NULL, fn->bdf);
		out_u64(o, "total", NULL, total);
		out_u64(o, "failed", NULL, failed);
		out_table_begin(o, "commands");
		for (size_t k = 0; k < n; k++) {
			const struct mlx_cmd_stat *c = &st[k];

			if (!all && !c->n && c->failed <= 0)
				continue;
			out_row_begin(o);
			out_str(o, "name", "COMMAND", c->name);
			out_u64(o, "count", "COUNT", c->n);
			out_u64(o, "average_nsec", "AVG(ns)", c->average);
#define OPT(k, lbl, v) do { if ((v) >= 0) out_s64(o, k, lbl, v); else out_null(o, k, lbl); } while (0)
			OPT("failed", "FAILED", c->failed);
			OPT("failed_mbox_status", "FAILED-STATUS", c->failed_mbox_status);
			OPT("last_failed_errno", "LAST-ERRNO", c->last_failed_errno);
			OPT("last_failed_mbox_status", "LAST-STATUS", c->last_failed_mbox_status);
#undef OPT
			if (c->last_failed_syndrome >= 0) {
				char hx[16];

				snprintf(hx, sizeof(hx), "0x%08llx", (unsigned long long)c->last_failed_syndrome);
				out_u64_as(o, "last_failed_syndrome", "LAST-SYNDROME",
					   (uint64_t)c->last_failed_syndrome, hx);
			} else {
				out_null(o, "last_failed_syndrome", "LAST-SYNDROME");
			}
			out_row_end(o);
		}
		out_table_end(o);
		out_obj_end(o);
		free(st);
	}
	out_list_end(o);
	return EXIT_OK;
}

/* ---- sw-reset: devlink reload driver_reinit ---- */

static int cmd_dbg_sw_reset(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *fn;
	struct mlx_port_ref ref;
	char refusal[300], question[300];
	int r, e;

	(void)argc;
	(void)argv;
	if (!cli->device) {
		cli_error(cli, "'mlxcli dbg sw-reset' reloads one device: give -d DEV");
		return EXIT_USAGE;
	}
	r = cli_select(cli, &fn, NULL);
	if (r)
		return r;
	/* its table's own --dry-run (the wording of restart's) */
	cli->dry_run = cli_opt(cli, "dry-run") != NULL;
	/* through the write engine: the device's lock, the change record,
	 * the one confirmation rule, the signals held (lib/txn.h) */
	snprintf(refusal, sizeof(refusal), "'mlxcli dbg sw-reset' re-initialises the driver of %s (its "
		 "netdevs and RDMA devices go away and come back): confirm with --yes", fn->bdf);
	snprintf(question, sizeof(question), "reload the driver of %s (devlink reload action "
		 "driver_reinit; traffic stops, netdevs are re-created)", fn->bdf);
	mlx_port_ref_init(&ref, fn, NULL, NULL);
	r = cli_write_action(cli, MLX_ACT_RELOAD, &ref, NULL, refusal, question, &e);
	if (r) {
		if (r == EXIT_PERM)
			cli_hint(cli, "devlink reload needs CAP_NET_ADMIN: run as root");
		else if (e == -EOPNOTSUPP)
			cli_hint(cli, "the reason is above (a driver refuses a reload with SR-IOV VFs, "
				 "in switchdev or in a LAG)");
		return r;
	}
	if (mlx_fn_is_pci(fn)) {
		out_str(cli->out, "pci_address", cli->dry_run ? "would reload" : "reloaded", fn->bdf);
	} else {
		/* --any-device: a netdevsim device is its devlink handle */
		char h[sizeof(fn->bus_name) + sizeof(fn->bdf) + 1];

		snprintf(h, sizeof(h), "%s/%s", mlx_fn_bus(fn), fn->bdf);
		out_str(cli->out, "devlink_handle", cli->dry_run ? "would reload" : "reloaded", h);
	}
	out_str(cli->out, "action", "action", "driver_reinit");
	return EXIT_OK;
}

static const struct cmd_opt mstdump_opts[] = {
	{ "full", 0, NULL, "the -full block list (not embedded: needs --ranges)", NULL },
	{ "output", 'o', "FILE", "write the dump to a new FILE (mode 0600) instead of stdout", NULL },
	{ "ranges", 0, "FILE", "read the blocks from an mstdump CSV (#Addr, Size, Enable addr)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt restart_opts[] = {
	{ "yes", 'y', NULL, "do not ask for confirmation", NULL },
	{ "dry-run", 'n', NULL, "say what would be done and do nothing", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

/* sw-reset: restart's, and --any-device (netdevsim in the kernel lab:
 * the reload that makes a driverinit parameter take effect) */
static const struct cmd_opt sw_reset_opts[] = {
	{ "yes", 'y', NULL, "do not ask for confirmation", NULL },
	{ "dry-run", 'n', NULL, "say what would be done and do nothing", NULL },
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt pddr_opts[] = {
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt getstate_opts[] = {
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt cmdstats_opts[] = {
	{ "all", 'a', NULL, "also the commands never run (count 0)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_arg restart_args[] = {
	{ "IFNAME", NULL, SRC_NETDEVS, 0 },
	CMD_ARG_END,
};

static const struct cmd dbg_cmds[] = {
	{ "mstdump", "", "CR-space dump of a PF in mstdump's format (root, live device)",
	  cmd_dbg_mstdump, 0, 0, CMD_NEEDS_ROOT, NULL, mstdump_opts, NULL },
	{ "dump-me-now", "[BUS DEV FUNC]", "make an incident folder (same as 'mlxcli dump-me-now')",
	  cmd_dbg_dump_me_now, 0, 3, 0, NULL, dmn_opts, NULL, "mlxcli-dump-me-now(8)" },
	{ "get-state", "", "health at a glance: link, PCIe, AER, DCQCN layout, devlink health",
	  cmd_dbg_get_state, 0, 0, 0, NULL, getstate_opts, NULL },
	{ "restart", "", "take a ConnectX interface down and up",
	  cmd_dbg_restart, 1, 1, CMD_WRITES, NULL, restart_opts, NULL, NULL, restart_args },
	{ "pddrinfo", "", "link state and the kernel's link-down reason (ethtool netlink)",
	  cmd_dbg_pddrinfo, 0, 0, 0, NULL, pddr_opts, NULL },
	{ "cmd-stats", "", "mlx5 firmware command statistics from debugfs (root)",
	  cmd_dbg_cmd_stats, 0, 0, 0, NULL, cmdstats_opts, NULL },
	{ "sw-reset", "", "devlink reload (driver_reinit) of a device",
	  cmd_dbg_sw_reset, 0, 0, CMD_WRITES, NULL, sw_reset_opts, NULL },
	{ "resources", "", "mlxtool's resource view: RDMA devices with their resource counts",
	  cmd_rdma_show, 0, 0, 0, NULL, NULL, "rdma show",
	  "mlxcli-rdma(8)" },
	/* issue 27: mlxtool's IPoIB views (cmd/ipoib.c) */
	{ "pkeys", "", "the PKey table of each InfiniBand port (alias of 'ipoib pkeys')",
	  cmd_ipoib_pkeys, 0, 1, 0, NULL, NULL, "ipoib pkeys", "mlxcli-netview(8)", ipoib_if_arg },
	{ "ipoib-ep", "", "an IPoIB interface's endpoints (alias of 'ipoib endpoints')",
	  cmd_ipoib_endpoints, 0, 1, 0, NULL, ipoib_ep_opts, "ipoib endpoints", "mlxcli-netview(8)",
	  ipoib_if_arg },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group dbg_group = { "dbg", "debugging: CR-space dump, incidents, device state",
				     "mlxcli-dbg(8)", dbg_cmds };
