/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devlink health as JSON: see health-json.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "health-json.h"

static void out_hex(struct out *o, const char *key, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(2 * len + 1);

	if (!s) {
		out_null(o, key, NULL);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * len] = '\0';
	out_str(o, key, NULL, s);
	free(s);
}

static const char *child_name(const struct mlx_fmsg_node *n, size_t i)
{
	return n->child[i]->name ? n->child[i]->name : "";
}

void cli_out_fmsg(struct out *o, const char *key, const struct mlx_fmsg_node *n)
{
	switch (n->kind) {
	case MLX_FMSG_OBJ:
		out_obj_begin(o, key, NULL);
		for (size_t i = 0; i < n->n; i++) {
			const char *k = child_name(n, i);
			size_t same = 0;
			bool seen = false;

			for (size_t m = 0; m < i && !seen; m++)
				seen = !strcmp(child_name(n, m), k);
			if (seen)
				continue;       /* a repeated name: taken with its first */
			for (size_t m = i; m < n->n; m++)
				same += !strcmp(child_name(n, m), k);
			if (same == 1) {
				cli_out_fmsg(o, k, n->child[i]);
				continue;
			}
			out_list_begin(o, k, NULL);
			for (size_t m = i; m < n->n; m++)
				if (!strcmp(child_name(n, m), k))
					cli_out_fmsg(o, NULL, n->child[m]);
			out_list_end(o);
		}
		out_obj_end(o);
		return;
	case MLX_FMSG_ARR:
		out_list_begin(o, key, NULL);
		for (size_t i = 0; i < n->n; i++)
			cli_out_fmsg(o, NULL, n->child[i]);
		out_list_end(o);
		return;
	default:
		break;
	}
	switch (n->vtype) {
	case MLX_FMSG_FLAG:
		out_bool(o, key, NULL, n->u != 0);
		break;
	case MLX_FMSG_U8:
	case MLX_FMSG_U32:
	case MLX_FMSG_U64:
		out_u64(o, key, NULL, n->u);
		break;
	case MLX_FMSG_STRING:
		/* the writer replaces a byte that is not UTF-8 (U+FFFD) */
		out_str(o, key, NULL, n->s ? n->s : "");
		break;
	default:
		out_hex(o, key, n->bin, n->binlen);
	}
}

void cli_out_reporter(struct out *o, const struct mlx_health_reporter *r)
{
	const char *st = mlx_health_state_str(r->state);

	out_str(o, "name", NULL, r->name);
	if (r->port_index >= 0)
		out_s64(o, "port_index", NULL, r->port_index);
	else
		out_null(o, "port_index", NULL);
	out_str(o, "state", NULL, st);
	out_u64(o, "error_count", NULL, r->err_count);
	out_u64(o, "recover_count", NULL, r->recover_count);
	if (r->has_grace)
		out_u64(o, "grace_period_ms", NULL, r->grace_period_ms);
	else
		out_null(o, "grace_period_ms", NULL);
	if (r->has_auto_recover)
		out_bool(o, "auto_recover", NULL, r->auto_recover);
	else
		out_null(o, "auto_recover", NULL);
	if (r->has_auto_dump)
		out_bool(o, "auto_dump", NULL, r->auto_dump);
	else
		out_null(o, "auto_dump", NULL);
	if (r->has_dump_ts && r->dump_ts_ms)
		out_u64(o, "last_dump_ms", NULL, r->dump_ts_ms);
	else
		out_null(o, "last_dump_ms", NULL);
	if (r->has_dump_ts_ns && r->dump_ts_ns) {
		time_t t = (time_t)(r->dump_ts_ns / 1000000000u);
		struct tm tm;
		char buf[40];

		gmtime_r(&t, &tm);
		snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (unsigned)(r->dump_ts_ns / 1000000u % 1000u));
		out_str(o, "last_dump_time", NULL, buf);
	} else {
		out_null(o, "last_dump_time", NULL);
	}
}
