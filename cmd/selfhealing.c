/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli show selfhealing port [-d DEV]`: mlxtool's "sensors state and
 * resets count" per port: the ASIC's temperature sensors (the mlx5 hwmon
 * device) with their critical threshold and highest reading, the module's
 * temperature with its level, and the devlink health reporters' error and
 * recovery counts (the driver's resets).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "health.h"
#include "phy.h"

struct heal_scratch {
	struct mlx_sensors sensors;
	struct mlx_module module;
	struct mlx_health health;
};

static void out_mc(struct out *o, const char *key, int64_t v)
{
	if (v == INT64_MIN)
		out_null(o, key, NULL);
	else
		out_s64(o, key, NULL, v);
}

static void out_sensor(struct out *o, const char *name, int64_t mc, int64_t crit, int64_t highest,
		       const char *level)
{
	char line[128], c[32] = "", h[32] = "";

	out_obj_begin(o, NULL, NULL);
	out_str(o, "sensor", NULL, name);
	out_str(o, "unit", NULL, "millidegrees C");
	out_mc(o, "value", mc);
	out_mc(o, "critical_threshold", crit);
	out_mc(o, "highest", highest);
	out_str(o, "level", NULL, level);
	out_obj_end(o);
	if (crit != INT64_MIN)
		snprintf(c, sizeof(c), ", crit %.1f C", crit / 1000.0);
	if (highest != INT64_MIN)
		snprintf(h, sizeof(h), ", highest %.1f C", highest / 1000.0);
	snprintf(line, sizeof(line), "%.1f C%s%s%s%s", mc / 1000.0, c, h, level ? "  " : "", level ? level : "");
	out_text(o, name, line);
}

static void out_heal(struct cli *cli, const struct mlx_function *fn, const struct mlx_port *p,
		     struct heal_scratch *s)
{
	struct out *o = cli->out;
	char label[96];

	snprintf(label, sizeof(label), "%s (%s)", p->ifname, fn->bdf);
	out_obj_begin(o, NULL, label);
	out_str(o, "netdev", NULL, p->ifname);
	out_str(o, "pci_address", NULL, fn->bdf);
	out_list_begin(o, "sensors", NULL);
	if (mlx_sensors_read(cli->ctx, fn->bdf, &s->sensors) == 0) {
		for (size_t i = 0; i < s->sensors.n; i++) {
			const struct mlx_sensor *x = &s->sensors.s[i];
			const char *lv = x->crit_mc == INT64_MIN ? NULL : x->temp_mc >= x->crit_mc ? "alarm" : "ok";

			out_sensor(o, x->label[0] ? x->label : "temp", x->temp_mc, x->crit_mc, x->highest_mc, lv);
		}
	}
	if (mlx_module_read(cli->ctx, p->ifname, &s->module) == 0 && s->module.info.temperature_c.valid) {
		const struct mlx_mod_info *mi = &s->module.info;

		out_sensor(o, "module", (int64_t)llround(mi->temperature_c.v * 1000),
			   mi->temperature_th.valid ? (int64_t)llround(mi->temperature_th.high_alarm * 1000) : INT64_MIN,
			   INT64_MIN, mlx_mod_level_name(mlx_mod_value_level(&mi->temperature_c, &mi->temperature_th)));
	}
	out_list_end(o);
	out_list_begin(o, "reporters", NULL);
	if (mlx_health_get(cli->ctx, fn, &s->health) == 0) {
		for (size_t i = 0; i < s->health.n; i++) {
			const struct mlx_health_reporter *r = &s->health.r[i];
			char line[96];

			out_obj_begin(o, NULL, NULL);
			out_str(o, "name", NULL, r->name);
			out_str(o, "state", NULL, r->state == 0 ? "healthy" : r->state == 1 ? "error" : NULL);
			out_u64(o, "error_count", NULL, r->err_count);
			out_u64(o, "recover_count", NULL, r->recover_count);
			out_obj_end(o);
			snprintf(line, sizeof(line), "%s, errors %llu, recoveries %llu",
				 r->state == 0 ? "healthy" : r->state == 1 ? "error" : "-",
				 (unsigned long long)r->err_count, (unsigned long long)r->recover_count);
			snprintf(label, sizeof(label), "reporter %s", r->name);
			out_text(o, label, line);
		}
	}
	out_list_end(o);
	mlx_err_clear(cli->ctx);
	out_obj_end(o);
}

static int cmd_selfhealing_port(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_port *selp;
	struct heal_scratch *s;
	int r;

	(void)argc;
	(void)argv;
	r = cli_select(cli, &sel, &selp);
	if (!r)
		r = cli_devices(cli, &devs);
	if (r)
		return r;
	s = malloc(sizeof(*s));
	if (!s)
		return cli_fail(cli, -ENOMEM, "show selfhealing port");
	out_list_begin(cli->out, "ports", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		for (size_t j = 0; j < fn->nports; j++)
			if (!selp || selp == &fn->ports[j])
				out_heal(cli, fn, &fn->ports[j], s);
	}
	out_list_end(cli->out);
	free(s);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

static const struct cmd selfhealing_cmds[] = {
	{ "port", "", "sensors (ASIC and module temperatures) and reset counts per port",
	  cmd_selfhealing_port, 0, 0, 0, NULL, NULL, NULL, "mlxcli-module(8)", NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group selfhealing_group = { "selfhealing", "mlxtool's self-healing views",
					     "mlxcli-module(8)", selfhealing_cmds };
