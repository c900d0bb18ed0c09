/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of `mlxcli dump-me-now` share: cmd/dmn.c (the settings,
 * one incident, retention, the commands), cmd/dmn-items.c (the items an
 * incident holds), cmd/dmn-list.c (list, show, and the one renderer of a
 * manifest: the manifest file, the command's output and `show`).
 */
#ifndef MLX_CMD_DMN_H
#define MLX_CMD_DMN_H

#include "cli.h"
#include "dmn.h"

struct dmn_settings {
	char dir[4096];
	unsigned total, preserved;
	/* the monitor's automatic incidents (mlxcli-monitor(8) AUTOMATIC
	 * INCIDENTS): on or off, the Table 19 types ("": the defaults) and
	 * WinOF's DumpEventsNum, incidents per type */
	bool monitor_dump;
	char monitor_dump_types[128];
	unsigned events_num;
	const char *conf;              /* file the settings came from, or NULL */
	/* the dump root was named for this run: --dir, or dmn_dir= in a file
	 * MLXCLI_CONFIG names (not the default nor /etc/mlxcli.conf's, which
	 * are this host's own store) */
	bool dir_named;
	bool conf_named;               /* the file is MLXCLI_CONFIG's */
};

/* One item of an incident, as its manifest lists it. */
struct dmn_item {
	char name[160];
	const char *status;            /* "ok", "unavailable", "failed" */
	char *reason;                  /* NULL: none */
	int64_t size;                  /* -1: none */
	char sha256[65];               /* "": none */
};

/* An incident's manifest.json (mlxcli-dump-me-now(8) JSON OUTPUT). */
struct dmn_manifest {
	char name[MLX_DMN_NAME_MAX + 1];
	char path[8192];
	char pci_address[64];
	char product[128];             /* "": unknown */
	char type[32], source[32];
	char *reason;                  /* NULL: none given */
	char created_at[40];
	char version[32];
	char system[4200];             /* "live" or the captured system's root */
	struct dmn_item *items;
	size_t nitems, cap;
};

struct dmn_run {
	struct cli *cli;
	struct mlx_dmn_incident inc;
	struct dmn_manifest *m;
	bool clear_health_dumps;       /* DUMP_CLEAR each health dump once kept */
	const struct dmn_why *why;
	int fatal;                     /* -errno that aborts the incident */
	char fatal_what[128];
};

/* defaults < the configuration file < options; 0 or an exit code. */
int dmn_load_settings(struct cli *cli, struct dmn_settings *s);
/* Make the dump root of @s ready for a new incident: never inside an
 * incident (evidence), never this host's own store for a captured system;
 * created 0700.  EXIT_OK, or the exit code with the error said. */
int dmn_prepare_root(struct cli *cli, const struct dmn_settings *s);

/* Why an incident is made: the folder name's type, source and reason. */
struct dmn_why {
	const char *type;              /* "GENERAL", or a Table 19 type ("TXCQ_STUCK") */
	const char *source;            /* "USER", "MONITOR" */
	const char *reason;            /* NULL: none */
	/* an automatic incident: each reporter's health dump, once in the
	 * incident, is cleared so that the next event's dump is its own */
	bool clear_health_dumps;
	/* the kernel-log records the monitor read, for when the system's log
	 * cannot be read again (a FIFO replayed): NULL none */
	const char *kernel_log;
	size_t kernel_log_len;
};
/*
 * One incident of @fn in s->dir (cmd/dmn.c): the items, the manifest, the
 * folder renamed into place; on success *out is its manifest (the caller
 * frees it with dmn_manifest_free) and the caller then runs retention.
 * @counter: distinct per incident of this process.  0 or an exit code,
 * the error said on stderr; a failure leaves nothing in s->dir.
 */
int dmn_make_incident(struct cli *cli, const struct dmn_settings *s, const struct mlx_function *fn,
		      const struct dmn_why *why, unsigned counter, struct dmn_manifest **out);
/* Make room after a new incident is in place: the names removed in
 * *removed (NULL-terminated, the caller frees each and the list). */
int dmn_apply_retention(struct cli *cli, const struct dmn_settings *s, char ***removed);

/* ---- items (cmd/dmn-items.c): each adds its entry to run->m; a failure
 * that aborts the incident (a write: ENOSPC...) sets run->fatal and
 * returns -errno; a source that fails is an item "failed" or
 * "unavailable" and returns 0. */
/* A new file of the incident, its sha256 in @sha (when not NULL). */
int dmn_write_file(struct dmn_run *run, const char *name, const void *data, size_t len, char sha[65]);
int dmn_item_crspace(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_devlink_health(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_dcqcn(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_pci(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_pci_raw(struct dmn_run *run, const struct mlx_function *fn);
/* issue 27: fw-commands.json (dbg cmd-stats), mlx5-resources.json (the
 * debugfs EQ/CQ/QP lists), sriov.json (sriov show of a PF with VFs) */
int dmn_item_fw_commands(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_mlx5_resources(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_sriov(struct dmn_run *run, const struct mlx_function *fn);
/* What an item is, by its name (the manifest's description); NULL unknown. */
const char *dmn_item_description(const char *name);
/* rdma-qp.json, rdma-cm-id.json (`rdma qp`, `rdma cm-id`), rdma-raw.json */
int dmn_item_rdma(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_kernel_log(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_snapshot(struct dmn_run *run, const struct mlx_devices *devs);

/* ---- cmd/dmn-list.c ---- */
/* Add an item (copies @reason); -ENOMEM. */
int dmn_manifest_add(struct dmn_manifest *m, const char *name, const char *status, const char *reason,
		     int64_t size, const char *sha);
void dmn_manifest_free(struct dmn_manifest *m);
/* The manifest's fields into the open object.  @labels: with the text
 * labels `show` prints; without, JSON only. */
void dmn_manifest_out(struct out *o, const struct dmn_manifest *m, bool labels);
int dmn_list(struct cli *cli);
int dmn_show(struct cli *cli, const char *arg);
/* A manifest's bytes parsed (pure), or one read from @path (a regular
 * file); NULL and @err when not one.  Freed with dmn_manifest_free. */
struct dmn_manifest *dmn_manifest_parse(const char *buf, size_t len, char *err, size_t errlen);
struct dmn_manifest *dmn_manifest_load(const char *path, char *err, size_t errlen);
/* `dump-me-now verify [PATH]` (cmd/dmn-verify.c): each item's SHA-256
 * against the manifest; every incident of the dump root without PATH. */
int dmn_verify(struct cli *cli, const char *arg);

#endif
