/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mlxcli: a thin wrapper; the CLI is callable in-process (cmd/cli.c). */
#include "config.h"

#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
	return mlx_cli_main(argc, argv, stdout, stderr);
}
