/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devlink health as JSON: see health-json.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "health-json.h"
#include "settings-cmd.h"

static void out_hex(struct out *o, const char *key, const char *label, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(2 * len + 1);

	if (!s) {
		out_null(o, key, label);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * len] = '\0';
	out_str(o, key, label, s);
	free(s);
}

static const char *child_name(const struct mlx_fmsg_node *n, size_t i)
{
	return n->child[i]->name ? n->child[i]->name : "";
}

static void fmsg(struct out *o, const char *key, const char *label, const struct mlx_fmsg_node *n,
		 bool labelled);

void cli_out_fmsg(struct out *o, const char *key, const struct mlx_fmsg_node *n)
{
	fmsg(o, key, NULL, n, false);
}

void cli_out_fmsg_text(struct out *o, const char *key, const char *label,
		       const struct mlx_fmsg_node *n)
{
	fmsg(o, key, label, n, true);
}

/* @label: the text's name of the node (labelled: each member's name, each
 * element's index) */
static void fmsg(struct out *o, const char *key, const char *label, const struct mlx_fmsg_node *n,
		 bool labelled)
{
	char idx[24];

	switch (n->kind) {
	case MLX_FMSG_OBJ:
		out_obj_begin(o, key, label);
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
				fmsg(o, k, labelled ? k : NULL, n->child[i], labelled);
				continue;
			}
			out_list_begin(o, k, labelled ? k : NULL);
			for (size_t m = i, e = 0; m < n->n; m++)
				if (!strcmp(child_name(n, m), k)) {
					snprintf(idx, sizeof(idx), "[%zu]", e++);
					fmsg(o, NULL, labelled ? idx : NULL, n->child[m], labelled);
				}
			out_list_end(o);
		}
		out_obj_end(o);
		return;
	case MLX_FMSG_ARR:
		out_list_begin(o, key, label);
		for (size_t i = 0; i < n->n; i++) {
			snprintf(idx, sizeof(idx), "[%zu]", i);
			fmsg(o, NULL, labelled ? idx : NULL, n->child[i], labelled);
		}
		out_list_end(o);
		return;
	default:
		break;
	}
	switch (n->vtype) {
	case MLX_FMSG_FLAG:
		out_bool(o, key, label, n->u != 0);
		break;
	case MLX_FMSG_U8:
	case MLX_FMSG_U32:
	case MLX_FMSG_U64:
		out_u64(o, key, label, n->u);
		break;
	case MLX_FMSG_STRING:
		/* the writer replaces a byte that is not UTF-8 (U+FFFD) */
		out_str(o, key, label, n->s ? n->s : "");
		break;
	default:
		out_hex(o, key, label, n->bin, n->binlen);
	}
}

void health_out_policy(struct out *o, const struct mlx_health_policy *p, const struct spath *sp,
		       bool labelled)
{
	if (sp) {
		sp_int(sp, "grace_period_ms", p->grace_h == MLX_SET ? (int64_t)p->grace_period_ms : -1);
		sp_tri(sp, "auto_recover", p->recover_h == MLX_SET ? p->auto_recover : -1);
		sp_tri(sp, "auto_dump", p->dump_h == MLX_SET ? p->auto_dump : -1);
		return;
	}
	if (p->grace_h == MLX_SET)
		out_u64(o, "grace_period_ms", labelled ? "GRACE_MS" : NULL, p->grace_period_ms);
	else
		out_null(o, "grace_period_ms", labelled ? "GRACE_MS" : NULL);
	if (p->recover_h != MLX_SET)
		out_null(o, "auto_recover", labelled ? "AUTO_RECOVER" : NULL);
	else if (out_is_json(o) || !labelled)
		out_bool(o, "auto_recover", NULL, p->auto_recover);
	else
		out_str(o, "auto_recover", "AUTO_RECOVER", p->auto_recover ? "on" : "off");
	if (p->dump_h != MLX_SET)
		out_null(o, "auto_dump", labelled ? "AUTO_DUMP" : NULL);
	else if (out_is_json(o) || !labelled)
		out_bool(o, "auto_dump", NULL, p->auto_dump);
	else
		out_str(o, "auto_dump", "AUTO_DUMP", p->auto_dump ? "on" : "off");
}

void health_policy_of(const struct mlx_health_reporter *r, struct mlx_health_policy *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->reporter, sizeof(p->reporter), "%s", r->name);
	p->port_index = r->port_index;
	p->grace_h = r->has_grace ? MLX_SET : MLX_NULL;
	p->grace_period_ms = r->grace_period_ms;
	p->recover_h = r->has_auto_recover ? MLX_SET : MLX_NULL;
	p->auto_recover = r->auto_recover;
	p->dump_h = r->has_auto_dump ? MLX_SET : MLX_NULL;
	p->auto_dump = r->auto_dump;
}

void cli_out_reporter(struct out *o, const struct mlx_health_reporter *r, bool labelled)
{
	const char *st = mlx_health_state_str(r->state);
	struct mlx_health_policy p;

	out_str(o, "name", labelled ? "REPORTER" : NULL, r->name);
	if (r->port_index >= 0)
		out_s64(o, "port_index", labelled ? "PORT" : NULL, r->port_index);
	else
		out_null(o, "port_index", labelled ? "PORT" : NULL);
	out_str(o, "state", labelled ? "STATE" : NULL, st);
	out_u64(o, "error_count", labelled ? "ERRORS" : NULL, r->err_count);
	out_u64(o, "recover_count", labelled ? "RECOVERED" : NULL, r->recover_count);
	health_policy_of(r, &p);
	health_out_policy(o, &p, NULL, labelled);
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
		out_str(o, "last_dump_time", labelled ? "LAST_DUMP" : NULL, buf);
	} else {
		out_null(o, "last_dump_time", labelled ? "LAST_DUMP" : NULL);
	}
}
