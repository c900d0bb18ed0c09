/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Global options, dispatch, errors.  Options may stand anywhere after
 * "mlxcli": the global ones are taken out of argv first, the words that
 * remain walk the group tables, and what is left is parsed against the
 * command's own options.  Command words match exactly (no prefixes: a new
 * verb must never change what an old script means).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "dcqcn.h"
#include "lock.h"
#include "mlx.h"
#include "shell.h"
#include "tree.h"
#include "state-cmd.h"
#include "apply-cmd.h"
#include "netview-cmd.h"

#define MAX_ARGS 256

const char *const cli_prio_choices[] = { "0", "1", "2", "3", "4", "5", "6", "7", NULL };
const char *const cli_prio_all_choices[] = { "0", "1", "2", "3", "4", "5", "6", "7", "all", NULL };

static const struct cmd top_cmds[] = {
	{ "devices", "", "list every ConnectX PCI function (PFs and VFs)",
	  cmd_devices, 0, 0, 0, NULL, NULL, NULL, "mlxcli-devices(8)" },
	{ "ports", "", "list every network port with its function and RDMA port",
	  cmd_ports, 0, 0, 0, NULL, NULL, NULL, "mlxcli-devices(8)" },
	{ "show", "", "mlxtool-style views: show devices, ports, qos, perfstats",
	  NULL, 0, 0, 0, &show_group, NULL, NULL },
	{ "qosconfig", "", "QoS and RoCE congestion control: dcqcn, default-untagged-priority",
	  NULL, 0, 0, 0, &qosconfig_group, NULL, NULL },
	{ "sriov", "", "SR-IOV: VFs and their settings, numvfs, eswitch mode",
	  NULL, 0, 0, 0, &sriov_group, NULL, NULL },
	{ "fw", "", "firmware versions (running, stored), PSID, serials, VPD",
	  cmd_fw, 0, 0, 0, &fw_group, NULL, NULL },
	{ "pci", "", "PCIe link capability vs status, AER counters, capabilities",
	  cmd_pci, 0, 0, 0, &pci_group, NULL, NULL },
	{ "params", "", "the driver's knobs: value, default, range, source, Windows registry key",
	  cmd_params_show, 0, -1, 0, &params_group, params_opts, NULL, "mlxcli-params(8)" },
	{ "modify", "", "mlxtool-style changes: modify tc-bw IFNAME TC MBPS...",
	  NULL, 0, 0, 0, &modify_group, NULL, NULL },
	{ "counters", "", "every counter with group, unit and description; deltas, rates, Prometheus",
	  cmd_counters, 0, 0, 0, &counters_group, counters_opts, NULL },
	{ "top", "", "a live view of the ports on a terminal: traffic, drops, pause, CNPs, PCIe, module",
	  cmd_top, 0, 0, CMD_NO_JSON, NULL, top_opts, NULL, "mlxcli-counters(8)" },
	{ "module", "", "transceiver identity and live diagnostics per lane, with thresholds",
	  cmd_module, 0, 0, 0, NULL, module_opts, NULL, "mlxcli-module(8)", NULL },
	{ "link", "", "link speed, lanes, modes, FEC and its statistics, pause, down reason, a verdict; "
	  "set pause, speed, FEC", cmd_link, 0, 0, 0, &link_group, link_opts, NULL, "mlxcli-module(8)",
	  NULL },
	{ "health", "", "devlink health reporters: state, errors, the self-healing policy; set, "
	  "recover, dump, clear, diagnose", cmd_health_show, 0, 0, 0, &health_group, health_opts, NULL,
	  "mlxcli-health(8)" },
	/* issue 27: the views the Windows tools have (cmd/netview.c, irq.c, ipoib.c) */
	{ "vxlan", "", "UDP tunnel offload: the NIC's VXLAN/GENEVE port tables and offload features",
	  cmd_vxlan, 0, 0, 0, NULL, netview_opts, NULL, "mlxcli-netview(8)" },
	{ "packet-filter", "", "the receive filter: promiscuity, allmulti, unicast and multicast lists",
	  cmd_packet_filter, 0, 0, 0, NULL, netview_opts, NULL, "mlxcli-netview(8)" },
	{ "irq", "", "which CPUs serve each channel: IRQs, NUMA node, XPS, RPS, RSS table and key",
	  cmd_irq, 0, 0, 0, NULL, irq_opts, NULL, "mlxcli-netview(8)" },
	{ "ipoib", "", "IPoIB: interfaces with their pkey and mode, PKey tables, endpoints; add, del",
	  cmd_ipoib_show, 0, 1, 0, &ipoib_group, NULL, NULL, "mlxcli-netview(8)", ipoib_if_arg },
	{ "vlan", "", "VLAN netdevs of each port: id, protocol, state, MTU, egress QoS map; add, del",
	  cmd_vlan_show, 0, 0, 0, &vlan_group, netview_opts, NULL, "mlxcli-netview(8)" },
	{ "dropless", "", "dropless mode: mlx5_ib's delay-drop timeout and events, dropless_rq",
	  cmd_dropless, 0, 0, 0, NULL, NULL, NULL, "mlxcli-netview(8)" },
	{ "state", "", "the configurable state of every ConnectX port as one document (apply's schema)",
	  cmd_state, 0, 0, 0, NULL, state_opts, NULL, "mlxcli-state(8)" },
	{ "apply", "FILE", "make this host match a desired state (state -j's schema): idempotent, --check, --diff",
	  cmd_apply, 1, 1, CMD_WRITES, NULL, apply_opts, NULL, "mlxcli-state(8)" },
	{ "diff", "A B", "the settings that differ between two states, snapshots or captured systems",
	  cmd_diff, 2, 2, CMD_NO_SCAN, NULL, diff_opts, NULL, "mlxcli-state(8)" },
	{ "recover", "", "finish the rollback of a write that was interrupted (killed, a crash)",
	  cmd_recover, 0, 0, CMD_WRITES | CMD_NO_SCAN, NULL, recover_opts, NULL, "mlxcli-state(8)" },
	{ "snapshot", "DIR", "capture this system for --sysroot (offline use, support)",
	  cmd_snapshot, 1, 1, 0, NULL, NULL, NULL, "mlxcli-snapshot(8)" },
	{ "rdma", "", "the RDMA half: devices and ports, RoCE mode and ToS, QPs, CM IDs, GIDs, counters",
	  cmd_rdma_show, 0, 0, 0, &rdma_group, NULL, NULL },
	{ "dump-me-now", "", "make an incident folder per device (CR space, state, snapshot)",
	  cmd_dump_me_now, 0, 0, 0, &dmn_group, dmn_opts, NULL },
	{ "monitor", "", "a stream of events: link, devlink health, ethtool settings, mlx5 kernel log",
	  cmd_monitor, 0, 0, 0, NULL, monitor_opts, NULL, "mlxcli-monitor(8)" },
	{ "dbg", "", "debugging: mstdump, dump-me-now, get-state, restart, pddrinfo",
	  NULL, 0, 0, 0, &dbg_group, NULL, NULL },
	{ "sample", "", "the bundled sample hosts: list them, reset a working copy",
	  NULL, 0, 0, 0, &sample_group, NULL, NULL },
	{ "help", "[COMMAND...]", "show help for a command or group",
	  cmd_help, 0, -1, CMD_NO_SCAN, NULL, NULL, NULL },
	{ "shell", "", "an interactive prompt with completion and history (see mlxcli-shell(8))",
	  cmd_shell, 0, 0, CMD_NO_SCAN | CMD_NO_JSON, NULL, NULL, NULL, "mlxcli-shell(8)" },
	{ "__complete", "WORDS...", "completion candidates for a partial command line",
	  cmd_complete, 0, -1, CMD_HIDDEN | CMD_NO_SCAN, NULL, NULL, NULL },
	{ "__man-table", "NAME", "a man page table printed from lib's (cmd/man-tables.c)",
	  cmd_man_table, 1, 1, CMD_HIDDEN | CMD_NO_SCAN | CMD_NO_JSON, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group cli_top = { "", "manage and diagnose NVIDIA/Mellanox ConnectX adapters",
				   "mlxcli(8)", top_cmds };

/* ---- the error voice ---- */

static void vmsg(struct cli *cli, const char *kind, const char *fmt, va_list ap)
{
	FILE *fp = cli->err_fp ? cli->err_fp : stderr;
	char *msg = NULL;

	fprintf(fp, "mlxcli: %s: ", kind);
	/* a message quotes names and values of the target: escaped as output is */
	if (vasprintf(&msg, fmt, ap) >= 0)
		out_escape(fp, msg, true);
	free(msg);
	fputc('\n', fp);
}

void cli_error(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "error", fmt, ap);
	va_end(ap);
}

void cli_warn(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "warning", fmt, ap);
	va_end(ap);
}

void cli_hint(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "hint", fmt, ap);
	va_end(ap);
}

int cli_exit_code(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return EXIT_OK;
	case ENODEV:
	case ENXIO:
		return EXIT_NODEV;
	case EOPNOTSUPP:
	case ENOSYS:
		return EXIT_NOTSUP;
	case EACCES:
	case EPERM:
		return EXIT_PERM;
	default:
		return EXIT_FAIL;
	}
}

int cli_fail(struct cli *cli, int err, const char *what)
{
	const char *detail = cli->ctx ? mlx_errmsg(cli->ctx) : "";

	if (detail && *detail)
		cli_error(cli, "%s", detail);
	else
		cli_error(cli, "%s: %s", what, strerror(err < 0 ? -err : err));
	if (cli_exit_code(err) == EXIT_PERM)
		cli_hint(cli, "this needs more privilege than this user has; try again as root");
	return cli_exit_code(err);
}

const char *cli_opt(const struct cli *cli, const char *name)
{
	if (cli->dry_run && !strcmp(name, cli_dry_run_opt.name))
		return "";
	if (!cli->cmd || !cli->cmd->opts || !cli->optval)
		return NULL;
	for (int i = 0; cli->cmd->opts[i].name; i++)
		if (!strcmp(cli->cmd->opts[i].name, name))
			return cli->optval[i];
	return NULL;
}

/* ---- global options ---- */

static const char *const global_longs[] = {
	"--json", "--pretty", "--device", "--sysroot", "--sample", "--verbose", "--version",
	"--help", "--batch", "--wait",
};

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* The value of "--name=VAL" or "--name VAL"; NULL when missing. */
static const char *long_value(const char *arg, const char *name, int *i, int argc, char **argv)
{
	size_t n = strlen(name);

	if (arg[n] == '=')
		return arg + n + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

enum { PARSE_OK = -1 };

/*
 * Take the global options out of argv.  Returns PARSE_OK or an exit code;
 * *rest receives the words and the command's own options, in order.
 */
static int parse_globals(struct cli *cli, int argc, char **argv, char **rest, int *nrest,
			 char *triple, size_t triple_len, bool *show_version)
{
	bool dashdash = false;

	*nrest = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v;

		if (*nrest >= MAX_ARGS - 1) {
			cli_error(cli, "too many arguments");
			return EXIT_USAGE;
		}
		if (dashdash || a[0] != '-' || !a[1]) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--json")) {
			cli->json = true;
		} else if (!strcmp(a, "--pretty")) {
			cli->pretty = cli->json = true;
		} else if (!strcmp(a, "--verbose")) {
			cli->verbose++;
		} else if (!strcmp(a, "--version")) {
			*show_version = true;
		} else if (!strcmp(a, "--help")) {
			cli->want_help = true;
		} else if (!strncmp(a, "--device", 8) && (!a[8] || a[8] == '=')) {
			v = long_value(a, "--device", &i, argc, argv);
			if (!v) {
				cli_error(cli, "option '--device' needs a device");
				return EXIT_USAGE;
			}
			cli->device = v;
		} else if (!strncmp(a, "--sysroot", 9) && (!a[9] || a[9] == '=')) {
			v = long_value(a, "--sysroot", &i, argc, argv);
			if (!v || !*v) {
				cli_error(cli, "option '--sysroot' needs a directory");
				return EXIT_USAGE;
			}
			cli->sysroot = v;
		} else if (!strncmp(a, "--wait", 6) && (!a[6] || a[6] == '=')) {
			/* how long a write waits for another writer's device lock */
			v = long_value(a, "--wait", &i, argc, argv);
			if (!v || !all_digits(v) || strlen(v) > 5 || atoi(v) > 86400) {
				cli_error(cli, "option '--wait' needs the seconds a write may wait for "
					  "a device's lock, 0 to 86400%s%s%s", v ? " (not '" : "", v ? v : "",
					  v ? "')" : "");
				return EXIT_USAGE;
			}
			cli->lock_wait_s = atoi(v);
		} else if (!strncmp(a, "--batch", 7) && (!a[7] || a[7] == '=')) {
			/* Batch mode (cmd/shell.c): -b FILE, --batch FILE. */
			v = long_value(a, "--batch", &i, argc, argv);
			if (!v || !*v) {
				cli_error(cli, "option '--batch' needs a file ('-' for stdin)");
				return EXIT_USAGE;
			}
			cli->batch = v;
		} else if (!strncmp(a, "--sample", 8) && (!a[8] || a[8] == '=')) {
			/* Optional argument: only in the attached form, so that
			 * "--sample devices" keeps meaning the default sample. */
			cli->sample = a[8] == '=' ? a + 9 : "";
		} else if (mlx_dcqcn_dashed_name(a)) {
			/* An mlx5cmd parameter name ("-DcqcnRpgAiRate", any case),
			 * not "-d cqcn...": it belongs to the command. */
			rest[(*nrest)++] = argv[i];
		} else if (a[1] != '-') {
			/* A cluster of short options: -jp, -vv, -d DEV, -dDEV. */
			bool local = false;

			for (const char *p = a + 1; *p && !local; p++) {
				switch (*p) {
				case 'j':
					cli->json = true;
					break;
				case 'p':
					cli->pretty = cli->json = true;
					break;
				case 'v':
					cli->verbose++;
					break;
				case 'h':
					cli->want_help = true;
					break;
				case 'b':
					/* -b FILE (batch mode), -bFILE */
					if (p[1]) {
						cli->batch = p + 1;
					} else if (i + 1 < argc) {
						cli->batch = argv[++i];
					} else {
						cli_error(cli, "option '-b' needs a file ('-' for stdin)");
						return EXIT_USAGE;
					}
					p += strlen(p) - 1;
					break;
				case 'd':
					if (p[1]) {
						cli->device = p + 1;
					} else if (i + 1 < argc) {
						cli->device = argv[++i];
						/* mlxtool's "-d 8 0 0": three decimal words. */
						if (all_digits(cli->device) && i + 2 < argc &&
						    all_digits(argv[i + 1]) && all_digits(argv[i + 2])) {
							snprintf(triple, triple_len, "%s %s %s",
								 cli->device, argv[i + 1], argv[i + 2]);
							cli->device = triple;
							i += 2;
						}
					} else {
						cli_error(cli, "option '-d' needs a device");
						return EXIT_USAGE;
					}
					p += strlen(p) - 1;
					break;
				default:
					/* Not global: the whole word belongs to the command. */
					if (p == a + 1) {
						local = true;
						rest[(*nrest)++] = argv[i];
					} else {
						cli_error(cli, "unknown option '-%c' in '%s'", *p, a);
						return EXIT_USAGE;
					}
				}
			}
		} else {
			rest[(*nrest)++] = argv[i];
		}
	}
	rest[*nrest] = NULL;
	return PARSE_OK;
}

int cli_parse_opts(struct cli *cli, const struct cmd *c, char **args, int *nargs)
{
	int out = 0, nopts = 0;
	bool dashdash = false;

	while (c->opts && c->opts[nopts].name)
		nopts++;
	free(cli->optval);
	cli->optval = calloc(nopts ? (size_t)nopts : 1, sizeof(*cli->optval));
	if (!cli->optval) {
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}

	for (int i = 0; i < *nargs; i++) {
		char *a = args[i];
		const struct cmd_opt *o = NULL;
		const char *val = NULL;
		int idx = -1;

		if (dashdash || a[0] != '-' || !a[1]) {
			args[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			continue;
		}
		for (int k = 0; c->opts && c->opts[k].name; k++) {
			const struct cmd_opt *co = &c->opts[k];
			size_t n = strlen(co->name);

			if ((a[1] == '-' && !strncmp(a + 2, co->name, n) &&
			     (a[2 + n] == '\0' || (a[2 + n] == '=' && co->arg))) ||
			    (a[1] != '-' && co->shortname && a[1] == co->shortname && !a[2])) {
				o = co;
				idx = k;
				if (a[1] == '-' && a[2 + n] == '=')
					val = a + 3 + n;
				break;
			}
		}
		/* The dispatcher's own option of every writing command. */
		if (!o && cli_takes_dry_run(c) &&
		    (!strcmp(a, "--dry-run") || !strcmp(a, "-n"))) {
			cli->dry_run = true;
			continue;
		}
		if (!o && (c->flags & CMD_RAW_ARGS)) {
			args[out++] = a;
			continue;
		}
		if (!o) {
			const char *cands[40];
			size_t nc = 0;
			const char *s;

			if (cli_takes_dry_run(c))
				cands[nc++] = "--dry-run";
			for (int k = 0; c->opts && c->opts[k].name && nc < 30; k++) {
				static __thread char buf[30][64];

				snprintf(buf[nc], sizeof(buf[nc]), "--%s", c->opts[k].name);
				cands[nc] = buf[nc];
				nc++;
			}
			for (size_t k = 0; k < sizeof(global_longs) / sizeof(*global_longs); k++)
				cands[nc++] = global_longs[k];
			cli_error(cli, "unknown option '%s' for 'mlxcli %s'", a, cli->path);
			s = cli_suggest(a, cands, nc);
			if (s)
				cli_hint(cli, "did you mean '%s'?", s);
			return EXIT_USAGE;
		}
		if (o->arg && !val) {
			if (i + 1 >= *nargs) {
				cli_error(cli, "option '--%s' needs %s", o->name, o->arg);
				return EXIT_USAGE;
			}
			val = args[++i];
		}
		if (!o->arg)
			val = "";
		if (o->choices && o->arg && !(o->flags & OPT_LIST)) {
			bool ok = false;

			for (const char *const *ch = o->choices; *ch; ch++)
				ok |= !strcmp(*ch, val);
			if (!ok) {
				cli_error(cli, "invalid value '%s' for '--%s'", val, o->name);
				return EXIT_USAGE;
			}
		}
		cli->optval[idx] = val;
	}
	*nargs = out;
	return EXIT_OK;
}

const struct cmd *cli_find_cmd(const struct cmd *cmds, const char *w)
{
	for (const struct cmd *c = cmds; c && c->name; c++)
		if (!strcmp(c->name, w))
			return c;
	return NULL;
}

/*
 * Options of @c (a command that is a group too) from rest[i] on: the index
 * of the first word after them, or -1.  "counters -g port watch": the
 * view may follow the options.
 */
static int after_opts(const struct cmd *c, char **rest, int i, int nrest)
{
	while (i < nrest && rest[i][0] == '-' && rest[i][1] && strcmp(rest[i], "--")) {
		const char *a = rest[i];
		bool takes = false;

		for (const struct cmd_opt *o = c->opts; o && o->name; o++) {
			size_t n = strlen(o->name);

			if ((a[1] == '-' && !strncmp(a + 2, o->name, n) && !a[2 + n]) ||
			    (a[1] != '-' && a[1] == o->shortname && !a[2]))
				takes = o->arg != NULL;
		}
		i += takes ? 2 : 1;
	}
	return i < nrest ? i : -1;
}

/*
 * rest[i] is an option that no command on the line has claimed yet (a
 * command's own option typed before the command words: "mlxcli
 * --any-netdev params -d veth0"): the index of the next word that is a
 * command of @cmds, passing over options and at most one value after a
 * long option without '=' or a short one; -1 when there is none.
 */
static int next_cmd_word(const struct cmd *cmds, char **rest, int i, int nrest)
{
	bool value_ok = false;

	for (; i < nrest; i++) {
		const char *a = rest[i];

		if (!strcmp(a, "--"))
			return -1;
		if (a[0] == '-' && a[1]) {
			value_ok = !strchr(a, '=');
			continue;
		}
		if (cli_find_cmd(cmds, a))
			return i;
		if (!value_ok)
			return -1;
		value_ok = false;
	}
	return -1;
}

static void log_sink(void *data, enum mlx_log_level lvl, const char *msg)
{
	struct cli *cli = data;
	static const char *const names[] = { "error", "warning", "info", "debug" };

	fprintf(cli->err_fp, "mlxcli: %s: %s\n", names[lvl], msg);
}

static int open_ctx(struct cli *cli)
{
	const char *root = "/";
	char *err = NULL;
	int r;

	if (cli->sysroot && cli->sample) {
		cli_error(cli, "--sysroot and --sample both name the system; give one");
		return EXIT_USAGE;
	}
	if (cli->sample) {
		r = cli_sample_root(cli, *cli->sample ? cli->sample : CLI_DEFAULT_SAMPLE,
				    &cli->sysroot_owned);
		if (r)
			return r;
		root = cli->sysroot_owned;
	} else if (cli->sysroot) {
		root = cli->sysroot;
	}
	r = mlx_ctx_new(root, &cli->ctx, &err);
	if (r < 0) {
		cli_error(cli, "%s", err ? err : strerror(-r));
		free(err);
		if (cli_exit_code(r) == EXIT_PERM)
			return EXIT_PERM;
		return cli->sysroot ? EXIT_USAGE : EXIT_FAIL;
	}
	mlx_ctx_set_runtime_dir(cli->ctx, getenv("XDG_RUNTIME_DIR"));   /* lock.h: captures' locks */
	if (cli->lock_wait_s >= 0)
		mlx_lock_set_wait(cli->ctx, cli->lock_wait_s * 1000);
	mlx_set_log(cli->ctx, log_sink, cli,
		    cli->verbose >= 2 ? MLX_LOG_DEBUG : cli->verbose ? MLX_LOG_INFO : MLX_LOG_WARN);
	return EXIT_OK;
}

int mlx_cli_main(int argc, char **argv, FILE *outfp, FILE *errfp)
{
	return cli_run(argc, argv, outfp, errfp, NULL);
}

/* Batch mode: "-b FILE [--force]" and global options, no command words. */
static int run_batch(struct cli *cli, char **rest, int nrest)
{
	bool force = false;

	for (int k = 0; k < nrest; k++) {
		if (!strcmp(rest[k], "--force")) {
			force = true;
			continue;
		}
		cli_error(cli, "unexpected '%s' with -b: the commands come from '%s'", rest[k],
			  cli->batch);
		return EXIT_USAGE;
	}
	return cli_batch(cli, cli->batch, force);
}

/*
 * @dflt: the global options of the shell or batch this line comes from
 * (cmd/shell.c); the line's own options win.
 */
static int dispatch(int argc, char **argv, FILE *outfp, FILE *errfp,
		    const struct cli_defaults *dflt)
{
	char *rest[MAX_ARGS];
	char triple[64];
	struct cli cli;
	const struct cmd_group *g = &cli_top;
	const struct cmd *cmds = cli_top.cmds, *c = NULL, *k;
	bool show_version = false;
	int nrest = 0, i = 0, r, nargs;

	memset(&cli, 0, sizeof(cli));
	cli.lock_wait_s = -1;
	cli.out_fp = outfp;
	cli.err_fp = errfp;

	/* The completion helper takes the user's partial line verbatim: its
	 * words are not options of this invocation. */
	if (argc >= 2 && !strcmp(argv[1], "__complete")) {
		cli.out = out_new(false, false, outfp);
		r = cli.out ? cmd_complete(&cli, argc - 2, argv + 2) : EXIT_FAIL;
		out_free(cli.out);
		return r;
	}

	cli.dflt = dflt;
	r = parse_globals(&cli, argc, argv, rest, &nrest, triple, sizeof(triple), &show_version);
	if (r != PARSE_OK)
		return r;
	/* A line of a shell or batch: its options, else the shell's. */
	if (dflt) {
		if (!cli.device)
			cli.device = dflt->device;
		if (!cli.sysroot && !cli.sample) {
			cli.sysroot = dflt->sysroot;
			cli.sample = dflt->sample;
		}
		cli.json |= dflt->json;
		cli.pretty |= dflt->pretty;
		if (!cli.verbose)
			cli.verbose = dflt->verbose;
		if (cli.lock_wait_s < 0 && dflt->lock_wait_given)
			cli.lock_wait_s = dflt->lock_wait_s;
	}
	if (cli.batch)
		return run_batch(&cli, rest, nrest);
	if (show_version) {
		if (nrest > i) {
			cli_error(&cli, "--version takes no arguments (got '%s')", rest[i]);
			return EXIT_USAGE;
		}
		/* -j: a small object, as every command's JSON (mlxcli(8)),
		 * through the output layer as every command's. */
		cli.out = out_new(cli.json, cli.pretty, outfp);
		if (!cli.out)
			return EXIT_FAIL;
		out_fmt_str(cli.out, OUT_ANY, "version", "mlxcli %s\n", PACKAGE_VERSION);
		r = out_finish(cli.out);
		out_free(cli.out);
		if (r < 0) {
			cli_error(&cli, "cannot write the output: %s", strerror(-r));
			return EXIT_FAIL;
		}
		return EXIT_OK;
	}

	/* Walk the words through the group tables. */
	for (; i < nrest; i++) {
		const char *w = rest[i];

		if (w[0] == '-' && w[1]) {
			/* A command option before the verb; the verb of a
			 * command that is a group too may still follow.  An
			 * option before any command word is the command's
			 * too (options stand anywhere, mlxcli(8)): the words
			 * move in front of it, parse_locals takes it. */
			int j = c ? after_opts(c, rest, i, nrest) : -1;
			char *verb;

			if (!c)
				j = next_cmd_word(cmds, rest, i, nrest);
			if (j < 0 || !cli_find_cmd(cmds, rest[j]))
				break;
			verb = rest[j];
			memmove(&rest[i + 1], &rest[i], (size_t)(j - i) * sizeof(*rest));
			rest[i] = verb;
			w = verb;
		}
		k = cli_find_cmd(cmds, w);
		/* Not a sub-command of a command that runs itself: its argument. */
		if (!k && c && c->max_args != 0)
			break;
		if (!k) {
			const char *cands[64], *s;
			size_t n = 0;

			for (const struct cmd *x = cmds; x->name && n < 64; x++)
				if (!(x->flags & CMD_HIDDEN))
					cands[n++] = x->name;
			if (*g->name)
				cli_error(&cli, "unknown command '%s' in 'mlxcli %s'", w, cli.path);
			else
				cli_error(&cli, "unknown command '%s'", w);
			s = cli_suggest(w, cands, n);
			if (s)
				cli_hint(&cli, "did you mean '%s'?", s);
			cli_hint(&cli, "'mlxcli help%s%s' lists the commands", *cli.path ? " " : "",
				 cli.path);
			return EXIT_USAGE;
		}
		if (strlen(cli.path) + strlen(w) + 2 < sizeof(cli.path)) {
			if (cli.path[0])
				strcat(cli.path, " ");
			strcat(cli.path, w);
		}
		c = k;
		if (!c->sub) {
			i++;
			break;
		}
		g = c->sub;
		cmds = g->cmds;
		if (!c->fn)
			c = NULL;
	}
	if (!c) {
		if (cli.want_help) {
			cli_usage(&cli, outfp, g, NULL, cli.path);
			return EXIT_OK;
		}
		if (i < nrest) {
			/* An option before any command word: no command has
			 * claimed it, so it is not a global option we know. */
			const char *s = cli_suggest(rest[i], global_longs,
						    sizeof(global_longs) / sizeof(*global_longs));

			cli_error(&cli, "unknown option '%s'", rest[i]);
			if (s)
				cli_hint(&cli, "did you mean '%s'?", s);
			return EXIT_USAGE;
		}
		if (*g->name)
			cli_error(&cli, "'mlxcli %s' needs a command", cli.path);
		else
			cli_error(&cli, "no command given");
		cli_usage(&cli, errfp, g, NULL, cli.path);
		return EXIT_USAGE;
	}
	cli.cmd = c;
	nargs = nrest - i;
	r = cli_parse_opts(&cli, c, rest + i, &nargs);
	if (r)
		goto out;
	if (cli.want_help) {
		cli_usage(&cli, outfp, g, c, cli.path);
		goto out;
	}
	if (nargs < c->min_args || (c->max_args >= 0 && nargs > c->max_args)) {
		char syn[512];

		if (nargs < c->min_args)
			cli_error(&cli, "'mlxcli %s' needs %s", cli.path,
				  cli_synopsis(c, syn, sizeof(syn)));
		else
			cli_error(&cli, "unexpected argument '%s' for 'mlxcli %s'",
				  rest[i + c->max_args], cli.path);
		cli_usage(&cli, errfp, g, c, cli.path);
		r = EXIT_USAGE;
		goto out;
	}
	if (cli.json && (c->flags & CMD_NO_JSON)) {
		cli_error(&cli, "'mlxcli %s' has no JSON output", cli.path);
		r = EXIT_USAGE;
		goto out;
	}
	if ((c->flags & CMD_NEEDS_DEVICE) && !cli.device) {
		cli_error(&cli, "'mlxcli %s' changes a device and will not guess which: give -d DEV",
			  cli.path);
		r = EXIT_USAGE;
		goto out;
	}

	if (!(c->flags & CMD_NO_SCAN) || cli.sysroot || cli.sample) {
		r = open_ctx(&cli);
		if (r)
			goto out;
	}
	/* The table's promise: a command only root may run on this system is
	 * refused before it does anything (a captured system's file
	 * permissions decide there, mlx_kernel_privileged); a dry run writes
	 * nothing and goes on. */
	if ((c->flags & CMD_NEEDS_ROOT) && cli.ctx && !cli_opt(&cli, "dry-run") &&
	    !mlx_kernel_privileged(cli.ctx)) {
		cli_error(&cli, "'mlxcli %s' needs root: only root may make this change on the "
			  "running system", cli.path);
		cli_hint(&cli, "run it as root%s", cli_takes_dry_run(c) ?
			 " (--dry-run shows what it would do without it)" : "");
		r = EXIT_PERM;
		goto out;
	}
	cli.out = out_new(cli.json, cli.pretty, outfp);
	if (!cli.out) {
		r = EXIT_FAIL;
		goto out;
	}
	/* a write finishes an interrupted one first; a read says it is there */
	if (cli.ctx && !(c->flags & CMD_WRITES))
		cli_warn_pending(&cli);
	r = c->fn(&cli, nargs, rest + i);
	/* One dry-run style for every writing command: its JSON says
	 * "dry_run": true, its text ends with this line on stderr. */
	if (r == EXIT_OK && (c->flags & CMD_WRITES) && cli_opt(&cli, "dry-run") && !cli.json)
		fprintf(errfp, "(dry run: nothing was written)\n");
	if (r == EXIT_OK) {
		int e = out_finish(cli.out);

		if (e < 0) {
			cli_error(&cli, "cannot write the output: %s", strerror(-e));
			r = EXIT_FAIL;
		}
	}
out:
	free(cli.optval);
	out_free(cli.out);
	if (cli.scanned)
		mlx_devices_free(&cli.devs);
	mlx_ctx_free(cli.ctx);
	free(cli.sysroot_owned);
	if (cli.sample_tmp)
		mlx_tree_remove(cli.sample_tmp);
	free(cli.sample_tmp);
	return r;
}

int cli_run(int argc, char **argv, FILE *outfp, FILE *errfp, const struct cli_defaults *dflt)
{
	struct cli_words win = { 0 };
	int r;

	/* The Windows syntax (mlx5cmd -Qosconfig ..., mlxtool show qos B D F)
	 * becomes native argv first (cmd/compat.c); __complete takes its
	 * words verbatim. */
	if (argc < 2 || strcmp(argv[1], "__complete")) {
		switch (cli_compat_map(&cli_top, argc, argv, &win, errfp)) {
		case CLI_COMPAT_FAILED:
			return EXIT_USAGE;
		case CLI_COMPAT_NOTSUP:
			return EXIT_NOTSUP;
		case CLI_COMPAT_MAPPED:
			argc = win.argc;
			argv = win.argv;
			break;
		}
	}
	r = dispatch(argc, argv, outfp, errfp, dflt);
	cli_words_free(&win);
	return r;
}
