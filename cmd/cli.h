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

/*
 * Where the values of an argument or an option come from when they are
 * not a fixed list: read when completing (cmd/complete.c), described in
 * help (cmd/help.c).
 */
enum cmd_source {
	SRC_NONE = 0,
	SRC_DEVICES,            /* PCI addresses, netdevs, RDMA devices */
	SRC_NETDEVS,            /* the netdevs of the ConnectX ports */
	SRC_SAMPLES,            /* the bundled sample hosts */
	SRC_INCIDENTS,          /* dump-me-now incidents in the dump root */
	SRC_DCQCN_NAMES,        /* DCQCN parameters, both spellings (lib's table) */
	SRC_KNOB_NAMES,         /* the knobs of `params` (lib/params.h's catalogue) */
};

enum cmd_arg_flags {
	ARG_OPTIONAL = 1u << 0, /* "[NAME]" */
	/* This and the arguments after it repeat: "NAME VALUE [NAME VALUE...]". */
	ARG_REPEAT   = 1u << 1,
	/* Its choices are keywords that may start any later word too
	 * ("ets prio-tc 0:0 1:0 tsa 0:ets"); the name is the whole grammar. */
	ARG_KEYWORDS = 1u << 2,
	/* An option whose value is a comma-separated list of choices (the
	 * command checks the elements; completion offers them). */
	OPT_LIST     = 1u << 3,
};

/*
 * A positional argument of a command: help renders the synopsis from
 * these, completion offers their values.
 */
struct cmd_arg {
	const char *name;             /* as the synopsis shows it; NULL: "a|b|c" of choices */
	const char *const *choices;   /* its values, NULL-terminated; or: */
	enum cmd_source src;          /* where they come from */
	unsigned flags;               /* enum cmd_arg_flags */
};

/* A command-local option (global ones live in cli.c). */
struct cmd_opt {
	const char *name;       /* long name without "--" */
	char shortname;         /* 0 for none */
	const char *arg;        /* argument name, NULL for a flag */
	const char *help;
	/* allowed values (completion, checks; OPT_LIST: each element) */
	const char *const *choices;
	enum cmd_source src;    /* values from a source (completion only) */
	unsigned flags;         /* OPT_LIST */
};

enum cmd_flags {
	CMD_NEEDS_DEVICE = 1u << 0,   /* refuses to guess: -d is required */
	CMD_WRITES       = 1u << 1,   /* changes the device */
	/* only root may run it on the running system (config-space writes,
	 * sriov_numvfs): the dispatcher refuses others with exit 5 before the
	 * command does anything; a dry run goes on */
	CMD_NEEDS_ROOT   = 1u << 2,
	CMD_HIDDEN       = 1u << 3,   /* not in help or completion */
	CMD_NO_SCAN      = 1u << 4,   /* does not need the device model */
	CMD_NO_JSON      = 1u << 5,   /* has no JSON form: -j fails */
	/* Words that look like options but are not the command's own pass
	 * through as arguments: mlx5cmd-style "-DcqcnRpgAiRate 5", or a
	 * negative value that the command's range check should reject. */
	CMD_RAW_ARGS     = 1u << 6,
};

#define CMD_ARG_END { NULL, NULL, SRC_NONE, 0 }
#define cmd_arg_end(a) (!(a)->name && !(a)->choices && !(a)->src)

/* Value lists that tables of several groups share (cmd/cli.c). */
extern const char *const cli_prio_choices[];      /* 0 - 7 */
extern const char *const cli_prio_all_choices[];  /* 0 - 7, all */

struct cmd_group;

struct cmd {
	const char *name;
	/* Synopsis of positional arguments without choices ("DIR"); a
	 * command with @pos has "" here and its synopsis is rendered. */
	const char *args;
	const char *summary;          /* one line, lowercase, no full stop */
	int (*fn)(struct cli *cli, int argc, char **argv);
	int min_args, max_args;       /* positional; max -1 = unlimited */
	unsigned flags;
	/* A group: words continue there.  With @fn too, the command runs
	 * itself when the next word is not one of the group's ("counters"
	 * is "counters show", "dump-me-now" makes an incident). */
	const struct cmd_group *sub;
	const struct cmd_opt *opts;   /* command-local options, NULL-name terminated */
	const char *alias_of;         /* "show devices" is an alias of "devices" */
	/* Its man page when not its group's ("mlxcli-qos(8)" for the QoS
	 * verbs of the qosconfig group); NULL: the group's. */
	const char *man;
	const struct cmd_arg *pos;    /* positional arguments, CMD_ARG_END terminated */
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
	int lock_wait_s;              /* --wait SEC; -1 not given */

	/* command-local option values, parsed against cmd->opts */
	const struct cmd *cmd;
	char path[128];               /* "qosconfig dcqcn get" */
	/* by index in cmd->opts, one per option the table has (no limit:
	 * cli_parse_opts allocates them): "" for a flag, NULL not given */
	const char **optval;
	/* --dry-run/-n, which the dispatcher gives every CMD_WRITES command */
	bool dry_run;

	FILE *out_fp, *err_fp;
	struct mlx_ctx *ctx;
	struct out *out;
	char *sysroot_owned;          /* working copy path of a sample */
	char *sample_tmp;             /* a read's temporary copy of it, removed at exit */

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
	bool lock_wait_given;         /* --wait SEC */
	int lock_wait_s;
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

/* The command word @w of @cmds; NULL when there is none. */
const struct cmd *cli_find_cmd(const struct cmd *cmds, const char *w);

/* Local option value: NULL when not given ("dry-run": cli->dry_run). */
const char *cli_opt(const struct cli *cli, const char *name);
/*
 * The dispatcher's parse of @c's own options (and --dry-run) out of
 * args[0..*nargs): the positional words stay, *nargs becomes their count;
 * the values go to cli->optval, allocated here for every option of @c
 * (the caller frees it).  EXIT_OK, or EXIT_USAGE with the message.
 */
int cli_parse_opts(struct cli *cli, const struct cmd *c, char **args, int *nargs);

/*
 * The writes (cmd/cli-write.c).  Every CMD_WRITES command takes this
 * option from the dispatcher (help and completion show it), runs its
 * changes as a transaction of the write engine (lib/txn.h), and so renders
 * its change records one way: JSON "dry_run" and "changes" [{setting, old,
 * new, unit, changed, note}], text "setting: old -> new unit" lines; a dry
 * run ends with one line on stderr, printed by the dispatcher.
 */
extern const struct cmd_opt cli_dry_run_opt;
/* Does @c take --dry-run from the dispatcher (it writes, and its table has
 * no option of that name)? */
bool cli_takes_dry_run(const struct cmd *c);
struct mlx_plan;
struct mlx_txn;
struct mlx_txn_result;
struct mlx_port_ref;
struct mlx_port_settings;
/*
 * A write verb: one step (subsystem @sub of port @target towards @want)
 * as a transaction (lib/txn.h): planned (--dry-run) or run, its change
 * records rendered; on failure the story printed.  An exit code; on
 * success *out is the transaction (its plan, notes and writer), to free.
 */
int cli_write_step(struct cli *cli, int sub, const struct mlx_port_ref *target,
		   const struct mlx_port_settings *want, size_t vf, struct mlx_txn **out);
/*
 * The end of a one-step write whose plan @t holds (planned with error @e,
 * confirmed with exit code @r): run unless --dry-run or a refusal, with
 * the destroying changes --yes or the confirmation allowed; the failure's
 * story (and a hint that changing @on needs root), or the change record
 * and the interrupted-transaction warning.  An exit code; @t is the
 * caller's to free.
 */
int cli_txn_finish(struct cli *cli, struct mlx_txn *t, int e, int r, const char *on);
/*
 * An action (lib/txn.h enum mlx_action) on @target (@obj: its object) as a
 * one-step transaction: planned, confirmed (cli_confirm with @refusal and
 * @question: an action that destroys settings), run unless --dry-run,
 * its change record rendered.  An exit code; on a failure the story is
 * out, and *err is the -errno the device refused the action with (for
 * the caller's hint; 0 when it failed before: a captured system).
 */
int cli_write_action(struct cli *cli, int act, const struct mlx_port_ref *target, const void *obj,
		     const char *refusal, const char *question, int *err);
/* A failed transaction: its story (@path, the desired state's port, names
 * a value a plan refused; @what is the command, "apply"), what was put
 * back, the exit code (cli_txn_exit). */
int cli_txn_fail(struct cli *cli, const struct mlx_txn *t, int e, const char *path,
		 const char *what);
/* The one set of exit-code rules of a failed transaction. */
int cli_txn_exit(int e, const struct mlx_txn_result *res);
/* A transaction that ran: say what an interrupted transaction's recovery
 * did first, if anything, and a signal that came after the last write
 * (every change stays); EXIT_OK, or 128 + that signal. */
int cli_txn_done(struct cli *cli, const struct mlx_txn *t);
/*
 * The one confirmation rule (DESIGN "Writes"): a change that destroys
 * other settings goes ahead with --yes (or in a dry run); else, without a
 * terminal, @refusal is the error (and @hint, if any), exit 2; with one,
 * @question is asked ("? [y/N]"), exit 1 unless the answer is y.  Asked
 * from the plan, before the transaction @t (NULL: none) runs, and after
 * its may-write check: nothing waits on a person while a lock is held,
 * and no one is asked about what cannot be done.  EXIT_OK to go ahead.
 */
int cli_confirm(struct cli *cli, struct mlx_txn *t, const char *refusal, const char *hint,
		const char *question);
/* Would cli_confirm ask at the terminal? */
bool cli_will_ask(struct cli *cli);
/* cmd/recover.c: `mlxcli recover`; the read commands' warning while an
 * interrupted write's journal is pending. */
int cmd_recover(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt recover_opts[];
void cli_warn_pending(struct cli *cli);
/* Render @pl's change records ("dry_run" and "changes"). */
void cli_out_changes(struct cli *cli, const struct mlx_plan *pl);
struct mlx_change;
/* The fields of one change record, into the object the caller opened. */
void cli_out_change(struct cli *cli, const struct mlx_change *c);
struct mlx_val;
/* A typed value in its JSON type (out_fmt_*'s contract for @to, @fmt). */
void cli_out_fmt_val(struct out *o, enum out_to to, const char *key, const char *fmt,
		     const struct mlx_val *v);

/* The device model; scans on first use.  0 or an exit code. */
int cli_devices(struct cli *cli, struct mlx_devices **devs);
/*
 * Resolve -d (when given) to a function; *fn NULL when -d was not given
 * and the command may cover every device.  Returns an exit code.
 */
int cli_select(struct cli *cli, struct mlx_function **fn, struct mlx_port **port);
/*
 * --any-netdev -d NAME where NAME is no ConnectX port (a veth): *other
 * true; exit 3 with the message when no netdev has that name either.
 * Without --any-netdev or -d, or when -d names a ConnectX function, *other
 * false (cli_select's path).  Returns an exit code.
 */
int cli_other_netdev(struct cli *cli, bool *other);
/*
 * The one port a write's -d names, into @t: a ConnectX port (a function's
 * only port when -d names the function), or with --any-netdev any netdev.
 * @pf_only: a VF is refused (cli_need_pf: its port is its PF's).  Exit 2
 * when the function has several ports or none.  Returns an exit code.
 */
struct mlx_port_ref;
int cli_port_target(struct cli *cli, bool pf_only, struct mlx_port_ref *t);

/*
 * --any-device (the commands whose table lists it: sriov, dbg get-state):
 * -d naming a device that is no ConnectX function, by a netdev of it or
 * its devlink handle BUS/NAME (netdevsim/netdevsim1, another vendor's
 * pci/0000:03:00.0), is taken for the generic paths (devlink health,
 * SR-IOV numvfs and VF settings): cli_select() adds it to the device
 * model (mlx_devices_add_other) when no ConnectX function matches.
 */
#define CLI_ANY_DEVICE_HELP "with -d: a device that is no ConnectX function (its netdev, or " \
	"its devlink handle BUS/NAME): the generic devlink and SR-IOV paths"
/*
 * The one wording of "this host has no ConnectX" for a read of every
 * device (exit 0, on stderr in text and JSON alike; the JSON list stays
 * empty), and of "a VF where a PF is needed" (returns EXIT_NOTSUP).
 */
void cli_say_no_devices(struct cli *cli, const struct mlx_devices *devs);
int cli_need_pf(struct cli *cli, const struct mlx_function *fn);

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
extern const struct cmd_group fw_group, pci_group;
/* The devlink handle of @fn ("pci/0000:08:00.0", "netdevsim/netdevsim1")
 * as the field "devlink" (cmd/health.c). */
void out_devlink(struct out *o, const struct mlx_function *fn);
/* fw-flash.c (issue 27): fw flash, fw activate */
int cmd_fw_flash(struct cli *cli, int argc, char **argv);
int cmd_fw_activate(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt fw_flash_opts[], fw_activate_opts[];
/* health.c (issue 27): devlink health reporters, the self-healing policy */
extern const struct cmd_group health_group;
extern const struct cmd_opt health_opts[];
int cmd_health_show(struct cli *cli, int argc, char **argv);
void cli_out_sriov_cap(struct out *o, const struct mlx_function *fn);
extern const struct cmd_group qosconfig_group;   /* cmd/dcqcn.c */
/* params.c (issue 17): params show/info */
extern const struct cmd_group params_group;
extern const struct cmd_opt params_opts[];
int cmd_params_show(struct cli *cli, int argc, char **argv);
/* A knob's value (as lib/params reports it, text) in its JSON type; @fmt
 * its text line or NULL; @t an enum mlx_knob_type. */
void params_out_value(struct out *o, const char *key, const char *fmt, const char *val, int t);
/* cmd/params-write.c: params set, reset */
int cmd_params_set(struct cli *cli, int argc, char **argv);
int cmd_params_reset(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt params_write_opts[];
extern const struct cmd_opt params_set_opts[];
extern const struct cmd_arg params_set_args[];
/* mlxtool's forms (cmd/params.c): show regkeys, show driverparams, modify driverparams */
extern const struct cmd_group regkeys_group;
extern const struct cmd_arg params_if_arg[], params_modify_args[];
int cmd_params_driverparams(struct cli *cli, int argc, char **argv);
int cmd_modify_driverparams(struct cli *cli, int argc, char **argv);
/* counters.c (issue 5): `counters [VIEW]` and `show perfstats` */
extern const struct cmd_opt counters_opts[];
extern const struct cmd_group counters_group;
int cmd_counters(struct cli *cli, int argc, char **argv);
/* top.c (issue 27): `top`, the live view of the ports on a terminal */
extern const struct cmd_opt top_opts[];
int cmd_top(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt monitor_opts[];     /* cmd/monitor.c (issue 16) */
int cmd_monitor(struct cli *cli, int argc, char **argv);
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
extern const struct cmd_opt qos_show_opts[], qos_pfc_opts[];
extern const struct cmd_group modify_group;

/* shell.c: the interactive shell, and -b FILE */
int cmd_shell(struct cli *cli, int argc, char **argv);
int cli_batch(struct cli *cli, const char *file, bool force);

/* dbg.c, dmn.c (issue 7): dbg group, dump-me-now */
extern const struct cmd_group dbg_group;
extern const struct cmd_opt dmn_opts[];
extern const struct cmd_group dmn_group;
int cmd_dump_me_now(struct cli *cli, int argc, char **argv);
/* The dump root the line's options and the configuration name (completion). */
int cli_dmn_root(struct cli *cli, char *buf, size_t len);
int cmd_dbg_dump_me_now(struct cli *cli, int argc, char **argv);

/* module.c, link.c (issue 18): the physical layer */
int cmd_module(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt module_opts[];
int cmd_link(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt link_opts[];
/* link-write.c (issue 27): link set */
int cmd_link_set(struct cli *cli, int argc, char **argv);
extern const struct cmd_group link_group;
extern const struct cmd_group selfhealing_group;   /* selfhealing.c: show selfhealing port */
struct mlx_counters;
/* phy-prom.c: module and FEC gauges after `counters --format prometheus` */
int prom_write_phy(struct cli *cli, FILE *fp, const struct mlx_counters *cs);

/* rdma.c, rdma-res.c (issue 24): the RDMA half of the ports */
extern const struct cmd_group rdma_group, nd_group;
int cmd_rdma_show(struct cli *cli, int argc, char **argv);
int cmd_rdma_qp(struct cli *cli, int argc, char **argv);
int cmd_rdma_cm_id(struct cli *cli, int argc, char **argv);

/* help.c */
int cmd_help(struct cli *cli, int argc, char **argv);
void cli_usage(struct cli *cli, FILE *fp, const struct cmd_group *g, const struct cmd *c,
	       const char *path);
/* The synopsis of @c's positional arguments, rendered from c->pos. */
const char *cli_synopsis(const struct cmd *c, char *buf, size_t len);
const char *cli_suggest(const char *word, const char *const *cands, size_t n);

/* complete.c; man-tables.c: the man pages' tables from lib's */
int cmd_complete(struct cli *cli, int argc, char **argv);
int cmd_man_table(struct cli *cli, int argc, char **argv);
/*
 * Completion candidates for the last word of a partial command line
 * (argv: the words after "mlxcli", the last one possibly ""): @fn gets
 * each.  `mlxcli __complete` and the shell's TAB both use it.
 */
void cli_complete(int argc, char **argv, void (*fn)(void *data, const char *cand), void *data);
/* One request's candidates: the Windows syntax (cmd/compat.c) adds its own. */
struct completion {
	void (*fn)(void *data, const char *cand);
	void *data;
	const char *partial;       /* the word being completed */
	const char *deco;          /* put in front of each value ("--names=", "port,") */
	bool dashed;               /* DCQCN names in mlx5cmd's "-Name" form */
	const char *root;          /* the system the devices come from */
	const struct cmd *cmd;     /* the command on the line, NULL before one */
	/* its options' values typed so far (for a source such as the dump
	 * root): nopt of them, room for every word of the line */
	const char **optname, **optval;
	int nopt;
};
/* Offer @cand (with cp->deco in front) when it extends the partial word. */
void cli_complete_add(struct completion *cp, const char *cand);
void cli_complete_source(struct completion *cp, enum cmd_source src);

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
/*
 * The read of one list per function ("firmware", "pci"): -d's function, or
 * every one (@vfs: VFs too, else PFs only), each by @show; an exit code.
 */
int cli_for_functions(struct cli *cli, const char *key, bool vfs,
		      void (*show)(struct cli *cli, const struct mlx_function *fn));
/* The PCIe link as the config space says, else as sysfs says (devices, pci). */
struct cli_pcie {
	const char *source;           /* "config", "sysfs" or NULL */
	struct mlx_pcie_link cap, sta;
	bool degraded;                /* a PF trained below its capability */
};
void cli_pcie_view(const struct mlx_function *fn, struct cli_pcie *v);
/* "8GT/s x16", "-" when unknown. */
const char *cli_pcie_link_str(const struct mlx_pcie_link *l, char *buf, size_t len);
/* The "pcie" object (mlxcli-json(7)); @text: with text lines too. */
void cli_out_pcie(struct out *o, const struct cli_pcie *v, bool text);

#endif
