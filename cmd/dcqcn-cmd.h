/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What cmd/dcqcn.c (targets, get, defaults, describe, the tables) and
 * cmd/dcqcn-write.c (set, enable, disable, restore) share.  Private to them.
 */
#ifndef MLXCLI_DCQCN_CMD_H
#define MLXCLI_DCQCN_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "dcqcn.h"
#include "settings.h"

#define MAXP 40
#define TRAILER "The command was executed successfully"

/* One port to act on, and its values. */
struct target {
	const struct mlx_function *fn;
	const struct mlx_port *port;
	struct mlx_dcqcn_port dp;
	const char *name;                 /* netdev, else the PCI address */
	/* its values, as the settings model holds them (lib/settings.h) */
	struct mlx_dcqcn_settings d;
	/* the file each was read from, per parameter and side (index 0 RP,
	 * 1 NP; only enables use 1); "" none */
	char src[MAXP][2][200];
};

/* get's and defaults' view of a port's values beside them. */
struct dcqcn_show {
	const struct target *t;
	bool linux_names;                 /* the files' names, not mlx5cmd's */
	bool is_defaults;                 /* the factory values: no sources */
};
/* The one renderer of one side's DCQCN settings: get and defaults (@x)
 * and state (@x NULL: "dcqcn.rp.NAME = value" lines). */
void dcqcn_out_side(struct out *o, const struct mlx_dcqcn_settings *d, enum mlx_dcqcn_side side,
		    const struct dcqcn_show *x);

static inline enum mlx_dcqcn_side idx_side(int i)
{
	return i ? MLX_DCQCN_NP : MLX_DCQCN_RP;
}

/* The range as the manual writes it, with the unit. */
void dcqcn_range_str(const struct mlx_dcqcn_param *p, char *buf, size_t len);
/* The name of a parameter in messages. */
const char *dcqcn_label(const struct mlx_dcqcn_param *p);
/* "did you mean" hints for an unknown parameter name. */
void dcqcn_suggest(struct cli *cli, const char *word);
/*
 * Fill t[] with the ports to act on: the one -d names, or every port of
 * every PF.  Returns an exit code; *n may be 0 (no ConnectX device).
 */
int dcqcn_targets(struct cli *cli, struct target **out, size_t *n);
/* Find the layout of t; an exit code (the message is out unless quiet). */
int dcqcn_open_target(struct cli *cli, struct target *t, bool quiet);
/* JSON: where the defaults come from (get, defaults, restore). */
void dcqcn_out_defaults_source(struct out *o, const struct mlx_function *fn);

/* cmd/dcqcn-write.c */
int cmd_dcqcn_set(struct cli *cli, int argc, char **argv);
int cmd_dcqcn_enable(struct cli *cli, int argc, char **argv);
int cmd_dcqcn_disable(struct cli *cli, int argc, char **argv);
int cmd_dcqcn_restore(struct cli *cli, int argc, char **argv);

#endif /* MLXCLI_DCQCN_CMD_H */
