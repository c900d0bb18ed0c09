/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CLI core: global options, the dispatch tables, the error voice and
 * the exit codes (DESIGN.md "Errors and exit codes").
 *
 * Each command group is one static const table in its own file
 * (cmd/devices.c, cmd/snapshot.c, ...); help, completion and the man-page
 * meta-tests are generated from these tables.
 */
#ifndef MLX_CLI_H
#define MLX_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "device.h"
#include "output.h"

/* Exit codes: documented in mlxcli(8) and every group's man page. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,      /* the operation failed */
	EXIT_USAGE = 2,     /* bad usage or bad value */
	EXIT_NODEV = 3,     /* no such device */
	EXIT_NOTSUP = 4,    /* not supported by this driver/firmware */
	EXIT_PERM = 5,      /* permission denied */
};

struct cli;
struct cmd;

/* A command-local option (global ones live in cli.c). */
struct cmd_opt {
	const char *name;       /* long name without "--" */
	char shortname;         /* 0 for none */
	const char *arg;        /* argument name, NULL for a flag */
	const char *help;
	const char *const *choices;   /* allowed values (completion, checks) */
};

enum cmd_flags {
	CMD_NEEDS_DEVICE = 1u << 0,   /* refuses to guess: -d is required */
	CMD_WRITES       = 1u << 1,   /* changes the device */
	CMD_NEEDS_ROOT   = 1u << 2,
	CMD_HIDDEN       = 1u << 3,   /* not in help or completion */
	CMD_NO_SCAN      = 1u << 4,   /* does not need the device model */
	CMD_NO_JSON      = 1u << 5,   /* has no JSON form: -j fails */
	/* Words that look like options but are not the command's own pass
	 * through as arguments: mlx5cmd-style "-DcqcnRpgAiRate 5", or a
	 * negative value that the command's range check should reject. */
	CMD_RAW_ARGS     = 1u << 6,
};

struct cmd_group;

struct cmd {
	const char *name;
	const char *args;             /* synopsis of positional arguments */
	const char *summary;          /* one line, lowercase, no full stop */
	int (*fn)(struct cli *cli, int argc, char **argv);
	int min_args, max_args;       /* positional; max -1 = unlimited */
	unsigned flags;
	const struct cmd_group *sub;  /* a group: words continue there */
	const struct cmd_opt *opts;   /* command-local options, NULL-name terminated */
	const char *alias_of;         /* "show devices" is an alias of "devices" */
	/* Its man page when not its group's ("mlxcli-qos(8)" for the QoS
	 * verbs of the qosconfig group); NULL: the group's. */
	const char *man;
};

struct cmd_group {
	const char *name;             /* "" for the top level */
	const char *summary;
	const char *man;              /* man page, e.g. "mlxcli-devices(8)" */
	const struct cmd *cmds;       /* NULL-name terminated */
};

struct cli {
	/* global options */
	bool json, pretty;
	int verbose;
	const char *device;           /* -d as typed */
	const char *sysroot;
	const char *sample;           /* --sample[=NAME]; "" = default */
	bool want_help;

	/* command-local option values, parsed against cmd->opts */
	const struct cmd *cmd;
	char path[128];               /* "qosconfig dcqcn get" */
	const char *optval[16];       /* by index in cmd->opts; "" for flags */

	FILE *out_fp, *err_fp;
	struct mlx_ctx *ctx;
	struct out *out;
	char *sysroot_owned;          /* working copy path of a sample */

	/* the device model, scanned once per command on demand */
	struct mlx_devices devs;
	bool scanned;
	unsigned scan_skip;           /* MLX_SCAN_* the command does not show */

	/* shell and batch mode (cmd/shell.c) */
	const char *batch;            /* -b FILE */
	const struct cli_defaults *dflt;  /* set when run from a shell or batch */
};

/*
 * The options a shell or batch was started with, applied to each of its
 * lines that does not give its own (cmd/shell.c).
 */
struct cli_defaults {
	const char *device, *sysroot, *sample;
	bool json, pretty;
	int verbose;
};

/* In-process entry point: main() and the tests call this. */
int mlx_cli_main(int argc, char **argv, FILE *out, FILE *err);
/* The same, with defaults for the global options (NULL: none). */
int cli_run(int argc, char **argv, FILE *out, FILE *err, const struct cli_defaults *d);

/* The error voice: "mlxcli: error: ...", lowercase, no full stop. */
void cli_error(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_warn(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_hint(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report a lib failure (-errno + mlx_errmsg) and return its exit code. */
int cli_fail(struct cli *cli, int err, const char *what);
int cli_exit_code(int err);

/* Local option value: NULL when not given. */
const char *cli_opt(const struct cli *cli, const char *name);

/* The device model; scans on first use.  0 or an exit code. */
int cli_devices(struct cli *cli, struct mlx_devices **devs);
/*
 * Resolve -d (when given) to a function; *fn NULL when -d was not given
 * and the command may cover every device.  Returns an exit code.
 */
int cli_select(struct cli *cli, struct mlx_function **fn, struct mlx_port **port);

/* Handlers and tables of the groups (one file each). */
int cmd_devices(struct cli *cli, int argc, char **argv);
int cmd_ports(struct cli *cli, int argc, char **argv);
int cmd_snapshot(struct cli *cli, int argc, char **argv);
extern const struct cmd_group cli_top;
extern const struct cmd_group show_group;
extern const struct cmd_group sample_group;
/* sriov.c, fw.c, pci.c (issue 6) */
extern const struct cmd_group sriov_group;
int cmd_fw(struct cli *cli, int argc, char **argv);
int cmd_pci(struct cli *cli, int argc, char **argv);
void cli_out_sriov_cap(struct out *o, const struct mlx_function *fn);
extern const struct cmd_group qosconfig_group;   /* cmd/dcqcn.c */
/* counters.c (issue 5): `counters [VIEW]` and `show perfstats` */
extern const struct cmd_opt counters_opts[];
int cmd_counters(struct cli *cli, int argc, char **argv);
int cmd_perfstats(struct cli *cli, int argc, char **argv);
/* qos.c (issue 4): show qos, the QoS verbs of qosconfig, modify tc-bw */
int cmd_qos_show(struct cli *cli, int argc, char **argv);
int cmd_qos_trust(struct cli *cli, int argc, char **argv);
int cmd_qos_dscp2prio(struct cli *cli, int argc, char **argv);
int cmd_qos_pfc(struct cli *cli, int argc, char **argv);
int cmd_qos_ets(struct cli *cli, int argc, char **argv);
int cmd_qos_tc_bw(struct cli *cli, int argc, char **argv);
int cmd_qos_buffer(struct cli *cli, int argc, char **argv);
int cmd_qos_dcbx(struct cli *cli, int argc, char **argv);
int cmd_modify_tc_bw(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt qos_show_opts[], qos_write_opts[], qos_pfc_opts[];
extern const struct cmd_group modify_group;

/* shell.c: the interactive shell, and -b FILE */
int cmd_shell(struct cli *cli, int argc, char **argv);
int cli_batch(struct cli *cli, const char *file, bool force);

/* dbg.c, dmn.c (issue 7): dbg group, dump-me-now */
extern const struct cmd_group dbg_group;
extern const struct cmd_opt dmn_opts[];
int cmd_dump_me_now(struct cli *cli, int argc, char **argv);
int cmd_dbg_dump_me_now(struct cli *cli, int argc, char **argv);

/* help.c */
int cmd_help(struct cli *cli, int argc, char **argv);
int cmd_complete(struct cli *cli, int argc, char **argv);
void cli_usage(struct cli *cli, FILE *fp, const struct cmd_group *g, const struct cmd *c,
	       const char *path);
const char *cli_suggest(const char *word, const char *const *cands, size_t n);
/*
 * Completion candidates for the last word of a partial command line
 * (argv: the words after "mlxcli", the last one possibly ""): @fn gets
 * each.  `mlxcli __complete` and the shell's TAB both use it.
 */
void cli_complete(int argc, char **argv, void (*fn)(void *data, const char *cand), void *data);

/* sample.c: --sample: the working copy of a bundled sample host. */
int cli_sample_root(struct cli *cli, const char *name, char **root);
const char *cli_samples_dir(void);
int cli_sample_current(const char *name, char *buf, size_t len);
/* The per-user state directory (samples, shell history) and mkdir -p. */
int cli_state_dir(char *buf, size_t len);
int cli_mkdir_p(const char *path, unsigned mode);
#define CLI_DEFAULT_SAMPLE "cx5-ofed"

/* devices.c helpers shared with later groups */
const char *cli_speed_str(int64_t mbps, char *buf, size_t len);

#endif
