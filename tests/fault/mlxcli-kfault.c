/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mlxcli with a faulty emulated kernel, for tests/cli/qos.sh: every
 * context the CLI makes of a captured system gets the kernel boundary of
 * tests/fault/kops-fault.c, with the rule in MLXCLI_KFAULT ("app 5 10").
 * Linked with -Wl,--wrap=mlx_ctx_new, so the product is unchanged.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kops-fault.h"
#include "mlx.h"

int __real_mlx_ctx_new(const char *root, struct mlx_ctx **out, char **errmsg);
int __wrap_mlx_ctx_new(const char *root, struct mlx_ctx **out, char **errmsg);

int __wrap_mlx_ctx_new(const char *root, struct mlx_ctx **out, char **errmsg)
{
	const char *rule = getenv("MLXCLI_KFAULT");
	int r = __real_mlx_ctx_new(root, out, errmsg);

	/* A live context (the sample code asks "/" for its own needs) stays. */
	if (r == 0 && rule && *rule && strcmp(mlx_target_name(*out), "live") &&
	    kfault_install(*out, rule) < 0) {
		fprintf(stderr, "mlxcli-kfault: bad MLXCLI_KFAULT rule '%s'\n", rule);
		abort();
	}
	return r;
}

int main(int argc, char **argv)
{
	return mlx_cli_main(argc, argv, stdout, stderr);
}
