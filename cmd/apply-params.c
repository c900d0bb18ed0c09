/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply`: a port's "params" section, the driver's knobs (issues 19
 * and 17), planned here and written by cmd/apply.c through the write
 * engine with lib/params' own operations (mlx_params_write_ops, the ones
 * `params set` uses): the device's maxima, a fixed feature, a knob that
 * takes effect only at a reload are refused by its plan, before anything
 * is written.
 *
 * FILE gives each value in its JSON type, as `state -j` prints it; it goes
 * to the catalogue's one parser (mlx_params_parse_value, through
 * mlx_params_plan_set) as the text `params set` would take.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "apply-cmd.h"
#include "state-cmd.h"

int apply_knob_text(struct mlx_ctx *ctx, const struct mlx_knob *k, json_t *x, char *buf,
		    size_t len)
{
	switch (k->type) {
	case MLX_KT_BOOL:
		if (!json_is_boolean(x))
			return mlx_err(ctx, EINVAL, "expected a boolean (%s is on or off)", k->name);
		snprintf(buf, len, "%s", json_is_true(x) ? "on" : "off");
		return 0;
	case MLX_KT_U32:
	case MLX_KT_U64:
		if (!json_is_integer(x))
			return mlx_err(ctx, EINVAL, "expected an integer");
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(x));
		return 0;
	case MLX_KT_STRING:
		if (!json_is_string(x))
			return mlx_err(ctx, EINVAL, "expected a string");
		if (strlen(json_string_value(x)) >= len)
			return mlx_err(ctx, EINVAL, "'%s' is too long for %s", json_string_value(x),
				       k->name);
		snprintf(buf, len, "%s", json_string_value(x));
		return 0;
	}
	return -EINVAL;
}

/* The knobs FILE names, in the catalogue's order (the order `params set`
 * documents: private flags, rings, channels, coalescing, features, MTU,
 * devlink), whatever the file's key order. */
int apply_params_requests(struct cli *cli, struct run *r)
{
	json_t *s = json_object_get(r->ap->spec, "params"), *x;
	char text[MLX_VAL_STR_MAX];

	if (!json_is_object(s))
		return EXIT_OK;
	for (size_t i = 0; i < mlx_nknobs; i++) {
		const struct mlx_knob *k = &mlx_knobs[i];
		int e;

		x = json_object_get(s, k->name);
		if (!x || json_is_null(x) || !state_knob_in(k))
			continue;
		e = apply_knob_text(cli->ctx, k, x, text, sizeof(text));
		if (!e)
			e = mlx_params_plan_set(cli->ctx, &r->pl, k->name, text);
		if (e < 0) {
			cli_error(cli, "%s.params.%s: %s; nothing was changed", r->ap->path, k->name,
				  mlx_errmsg(cli->ctx));
			return e == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
		}
	}
	/* then the private flags the catalogue lacks (the file's order): the
	 * plan asks the device whether it has them */
	{
		const char *name;

		json_object_foreach(s, name, x) {
			int e;

			if (mlx_knob_find(name) || json_is_null(x))
				continue;
			e = apply_knob_text(cli->ctx, &mlx_knob_any_privflag, x, text, sizeof(text));
			if (!e)
				e = mlx_params_plan_set(cli->ctx, &r->pl, name, text);
			if (e < 0) {
				cli_error(cli, "%s.params.%s: %s; nothing was changed", r->ap->path,
					  name, mlx_errmsg(cli->ctx));
				return e == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
			}
		}
	}
	return EXIT_OK;
}
