/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devlink health as JSON: see health-json.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "health-json.h"

static json_t *u64_json(uint64_t v)
{
	char buf[24];

	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_string(buf);
}

static json_t *hex_json(const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(2 * len + 1);
	json_t *j;

	if (!s)
		return json_null();
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * len] = '\0';
	j = json_string(s);
	free(s);
	return j ? j : json_null();
}

json_t *cli_fmsg_json(const struct mlx_fmsg_node *n)
{
	json_t *j, *c;

	switch (n->kind) {
	case MLX_FMSG_OBJ:
		j = json_object();
		for (size_t i = 0; i < n->n; i++) {
			const char *k = n->child[i]->name ? n->child[i]->name : "";
			size_t same = 0;

			if (json_object_get(j, k))
				continue;       /* a repeated name: taken with its first */
			for (size_t m = i; m < n->n; m++)
				same += !strcmp(n->child[m]->name ? n->child[m]->name : "", k);
			if (same == 1) {
				json_object_set_new(j, k, cli_fmsg_json(n->child[i]));
				continue;
			}
			c = json_array();
			for (size_t m = i; m < n->n; m++)
				if (!strcmp(n->child[m]->name ? n->child[m]->name : "", k))
					json_array_append_new(c, cli_fmsg_json(n->child[m]));
			json_object_set_new(j, k, c);
		}
		return j;
	case MLX_FMSG_ARR:
		j = json_array();
		for (size_t i = 0; i < n->n; i++)
			json_array_append_new(j, cli_fmsg_json(n->child[i]));
		return j;
	default:
		break;
	}
	switch (n->vtype) {
	case MLX_FMSG_FLAG:
		return json_boolean(n->u != 0);
	case MLX_FMSG_U8:
	case MLX_FMSG_U32:
	case MLX_FMSG_U64:
		return u64_json(n->u);
	case MLX_FMSG_STRING:
		c = json_string(n->s ? n->s : "");      /* NULL when not UTF-8 */
		return c ? c : hex_json((const uint8_t *)n->s, n->s ? strlen(n->s) : 0);
	default:
		return hex_json(n->bin, n->binlen);
	}
}

json_t *cli_reporter_json(const struct mlx_health_reporter *r)
{
	json_t *j = json_object();
	const char *st = mlx_health_state_str(r->state);

	json_object_set_new(j, "name", json_string(r->name));
	json_object_set_new(j, "port_index", r->port_index >= 0 ? json_integer(r->port_index) : json_null());
	json_object_set_new(j, "state", st ? json_string(st) : json_null());
	json_object_set_new(j, "error_count", u64_json(r->err_count));
	json_object_set_new(j, "recover_count", u64_json(r->recover_count));
	json_object_set_new(j, "grace_period_ms", r->has_grace ? u64_json(r->grace_period_ms) : json_null());
	json_object_set_new(j, "auto_recover", r->has_auto_recover ? json_boolean(r->auto_recover) : json_null());
	json_object_set_new(j, "auto_dump", r->has_auto_dump ? json_boolean(r->auto_dump) : json_null());
	json_object_set_new(j, "last_dump_ms", r->has_dump_ts && r->dump_ts_ms ? u64_json(r->dump_ts_ms) : json_null());
	if (r->has_dump_ts_ns && r->dump_ts_ns) {
		time_t t = (time_t)(r->dump_ts_ns / 1000000000u);
		struct tm tm;
		char buf[40];

		gmtime_r(&t, &tm);
		snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (unsigned)(r->dump_ts_ns / 1000000u % 1000u));
		json_object_set_new(j, "last_dump_time", json_string(buf));
	} else {
		json_object_set_new(j, "last_dump_time", json_null());
	}
	return j;
}
