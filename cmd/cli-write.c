/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CLI side of the write engine (lib/write.h): the --dry-run option the
 * dispatcher gives every CMD_WRITES command, the run with its message and
 * exit code, and the one rendering of change records, so every write
 * command says what it changed the same way in text and in JSON.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "write.h"

const struct cmd_opt cli_dry_run_opt = {
	"dry-run", 'n', NULL, "show what would change (old -> new) and write nothing", NULL,
	SRC_NONE, 0,
};

bool cli_takes_dry_run(const struct cmd *c)
{
	if (!(c->flags & CMD_WRITES))
		return false;
	/* A table that lists it itself keeps its own wording (dbg restart). */
	for (const struct cmd_opt *o = c->opts; o && o->name; o++)
		if (!strcmp(o->name, cli_dry_run_opt.name))
			return false;
	return true;
}

static void out_val(struct out *o, const char *key, const struct mlx_val *v)
{
	switch (v->kind) {
	case MLX_VAL_NULL:
		out_null(o, key, NULL);
		break;
	case MLX_VAL_UINT:
		out_u64(o, key, NULL, v->u);
		break;
	case MLX_VAL_INT:
		out_s64(o, key, NULL, v->i);
		break;
	case MLX_VAL_BOOL:
		out_bool(o, key, NULL, v->b);
		break;
	case MLX_VAL_STR:
		out_str(o, key, NULL, v->s);
		break;
	case MLX_VAL_U8LIST:
	case MLX_VAL_U32LIST:
	case MLX_VAL_STRLIST:
		out_list_begin(o, key, NULL);
		for (size_t i = 0; i < v->n; i++) {
			if (v->kind == MLX_VAL_STRLIST)
				out_str(o, NULL, NULL, v->sl[i]);
			else if (v->kind == MLX_VAL_U8LIST && v->u8[i] == MLX_VAL_U8_NONE)
				out_null(o, NULL, NULL);
			else
				out_u64(o, NULL, NULL, v->kind == MLX_VAL_U8LIST ? v->u8[i] : v->u32[i]);
		}
		out_list_end(o);
		break;
	}
}

/*
 * Text of a change.  A long list (the 64 DSCP values) shows only the
 * entries that change, as INDEX:VALUE ("48:6 49:6 -> 48:5 49:5"): the
 * rest would bury them; more than 8 of them, how many entries it has.
 */
static void change_text(const struct mlx_change *c, char *a, char *b, size_t len)
{
	size_t oa = 0, ob = 0;

	if (c->old.kind != MLX_VAL_U8LIST || c->new.kind != MLX_VAL_U8LIST || c->new.n <= 8 ||
	    c->old.n != c->new.n) {
		mlx_val_fmt(&c->old, a, len);
		mlx_val_fmt(&c->new, b, len);
		return;
	}
	a[0] = b[0] = '\0';
	{
		size_t nd = 0, na = 0, nb = 0;

		for (size_t i = 0; i < c->new.n; i++) {
			nd += c->old.u8[i] != c->new.u8[i];
			na += c->old.u8[i] != MLX_VAL_U8_NONE;
			nb += c->new.u8[i] != MLX_VAL_U8_NONE;
		}
		/* Many: how many entries there are, not each. */
		if (nd > 8) {
			snprintf(a, len, na ? "%zu entries" : "none", na);
			snprintf(b, len, nb ? "%zu entries" : "none", nb);
			return;
		}
	}
	for (size_t i = 0; i < c->new.n; i++) {
		char x[8] = "none", y[8] = "none";

		if (c->old.u8[i] == c->new.u8[i])
			continue;
		if (c->old.u8[i] != MLX_VAL_U8_NONE)
			snprintf(x, sizeof(x), "%u", c->old.u8[i]);
		if (c->new.u8[i] != MLX_VAL_U8_NONE)
			snprintf(y, sizeof(y), "%u", c->new.u8[i]);
		if (oa < len)
			oa += (size_t)snprintf(a + oa, len - oa, "%s%zu:%s", oa ? " " : "", i, x);
		if (ob < len)
			ob += (size_t)snprintf(b + ob, len - ob, "%s%zu:%s", ob ? " " : "", i, y);
	}
	if (!oa)
		snprintf(a, len, "(no change)");
	if (!ob)
		snprintf(b, len, "(no change)");
}

void cli_out_change(struct cli *cli, const struct mlx_change *c)
{
	struct out *o = cli->out;
	char a[200], b[200], line[512];

	out_str(o, "setting", NULL, c->setting);
	out_val(o, "old", &c->old);
	out_val(o, "new", &c->new);
	out_str(o, "unit", NULL, c->unit);
	out_bool(o, "changed", NULL, c->changed);
	out_str(o, "note", NULL, c->note);
	/* Text: the Windows tool's name where the feature has one
	 * (DCQCN's -Get spelling), else the setting. */
	change_text(c, a, b, sizeof(a));
	snprintf(line, sizeof(line), "%s -> %s%s%s%s", a, b,
		 c->changed || c->note ? "" : " (unchanged)", c->note ? " (" : "",
		 c->note ? c->note : "");
	if (c->note)
		strncat(line, ")", sizeof(line) - strlen(line) - 1);
	out_text(o, c->label[0] ? c->label : c->setting, line);
}

void cli_out_changes(struct cli *cli, const struct mlx_plan *pl)
{
	struct out *o = cli->out;

	out_bool(o, "dry_run", NULL, cli->dry_run);
	out_list_begin(o, "changes", NULL);
	for (size_t i = 0; i < pl->n; i++) {
		out_obj_begin(o, NULL, NULL);
		cli_out_change(cli, &pl->c[i]);
		out_obj_end(o);
	}
	out_list_end(o);
}

int cli_write(struct cli *cli, const struct mlx_write_ops *ops, void *feat, const char *lock,
	      const char *on, struct mlx_plan *pl, struct mlx_write_result *res)
{
	const struct mlx_write_req req = { .lock = lock, .on = on, .dry_run = cli->dry_run };
	int e, r;

	e = mlx_write_run(cli->ctx, ops, feat, &req, pl, res);
	if (e < 0) {
		/* Empty: a plan of cmd/ that said why itself (a bad value). */
		if (*mlx_errmsg(cli->ctx))
			cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		r = cli_exit_code(e);
		/* A write that failed is exit 1 whatever its errno, but for
		 * the missing privilege (exit 5, DESIGN "Writes"). */
		if (res->failed >= 0 && r != EXIT_PERM)
			r = EXIT_FAIL;
		/* The plan refused a value against the state it read: a bad
		 * value, as if the range check had caught it. */
		if (res->phase == MLX_WRITE_PLAN && (e == -EINVAL || e == -ERANGE))
			r = EXIT_USAGE;
		if (r == EXIT_OK || r == EXIT_NODEV)
			r = EXIT_FAIL;
		if (r == EXIT_PERM)
			cli_hint(cli, "changing %s needs root", on ? on : "the device");
		return r;
	}
	cli_out_changes(cli, pl);
	return EXIT_OK;
}
