/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of `mlxcli dump-me-now` share: cmd/dmn.c (the settings,
 * one incident, retention, the commands), cmd/dmn-items.c (the items an
 * incident holds), cmd/dmn-list.c (list and show).
 */
#ifndef MLX_CMD_DMN_H
#define MLX_CMD_DMN_H

#include <jansson.h>

#include "cli.h"
#include "dmn.h"

struct dmn_settings {
	char dir[4096];
	unsigned total, preserved;
	const char *conf;              /* file the settings came from, or NULL */
};

struct dmn_run {
	struct cli *cli;
	struct mlx_dmn_incident inc;
	json_t *items;
	int fatal;                     /* -errno that aborts the incident */
	char fatal_what[128];
};

/* defaults < the configuration file < options; 0 or an exit code. */
int dmn_load_settings(struct cli *cli, struct dmn_settings *s);

/* ---- items (cmd/dmn-items.c): each adds its entry to run->items; a
 * failure that aborts the incident (a write: ENOSPC...) sets run->fatal
 * and returns -errno; a source that fails is an item "failed" or
 * "unavailable" and returns 0. */
/* A new file of the incident, its sha256 in @sha (when not NULL). */
int dmn_write_file(struct dmn_run *run, const char *name, const void *data, size_t len, char sha[65]);
/* An mlxcli read command run in-process on the same system; its stdout is the item. */
int dmn_item_cli(struct dmn_run *run, const char *name, const char *const *words);
int dmn_item_crspace(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_devlink_health(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_pci_raw(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_kernel_log(struct dmn_run *run, const struct mlx_function *fn);
int dmn_item_snapshot(struct dmn_run *run, const struct mlx_devices *devs);

/* ---- cmd/dmn-list.c ---- */
/* A JSON value through the output layer, so -j stays one document. */
void dmn_out_json(struct out *o, const char *key, json_t *v);
int dmn_list(struct cli *cli);
int dmn_show(struct cli *cli, const char *arg);

#endif
