/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by cmd/compat.c (mlx5cmd's words) and cmd/compat-mlxtool.c
 * (mlxtool's positional forms); the interface is cli_compat_map (shell.h).
 */
#ifndef MLXCLI_CMD_COMPAT_H
#define MLXCLI_CMD_COMPAT_H

#include <stdbool.h>

#include "shell.h"

/* A native global option ("-j", "--sample"), kept as it is wherever it
 * stands; *takes: it consumes the next word too. */
bool compat_is_global(const char *w, bool *takes);
/* Append the words of @path ("qosconfig show"); 0 or -ENOMEM. */
int compat_add_path(struct cli_words *o, const char *path);
/* mlxtool's forms at argv[k]: a CLI_COMPAT_* result; @o already holds
 * argv[0] and the global options before argv[k] (freed unless MAPPED). */
int compat_map_mlxtool(struct cli *cli, const struct cmd_group *top, int argc, char **argv,
		       int k, struct cli_words *o);

#endif
