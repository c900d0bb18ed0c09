/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CLI side of the write engine (lib/write.h, lib/txn.h): the --dry-run
 * option the dispatcher gives every CMD_WRITES command, the one set of
 * exit-code rules and the one failure story of a transaction, a write
 * verb's one-step transaction, and the one rendering of change records,
 * so every write command says what it changed the same way in text and
 * in JSON.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "txn.h"
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

void cli_out_fmt_val(struct out *o, enum out_to to, const char *key, const char *fmt,
		     const struct mlx_val *v)
{
	char buf[200];

	switch (v->kind) {
	case MLX_VAL_NULL:
		out_fmt_null(o, to, key, fmt);
		return;
	case MLX_VAL_UINT:
		out_fmt_u64(o, to, key, fmt, v->u);
		return;
	case MLX_VAL_BOOL:
		out_fmt_bool(o, to, key, fmt, v->b);
		return;
	default:
		mlx_val_fmt(v, buf, sizeof(buf));
		out_fmt_str(o, to, key, fmt, v->kind == MLX_VAL_STR ? v->s : buf);
		return;
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
		/* a child netdev's null is its absence */
		if ((c->flags & MLX_CHG_NULL_NONE) && c->old.kind == MLX_VAL_NULL)
			snprintf(a, len, "none");
		if ((c->flags & MLX_CHG_NULL_NONE) && c->new.kind == MLX_VAL_NULL)
			snprintf(b, len, "none");
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
	 * (DCQCN's -Get spelling), else the setting; an action, what it does
	 * (no old value). */
	if (c->flags & MLX_CHG_ACTION) {
		mlx_val_fmt(&c->new, b, sizeof(b));
		out_text(o, c->label[0] ? c->label : c->setting, b);
		return;
	}
	change_text(c, a, b, sizeof(a));
	/* "(unchanged)", "(a note)" or "(unchanged; a note)" */
	snprintf(line, sizeof(line), "%s -> %s%s%s%s%s%s", a, b,
		 c->changed && !c->note ? "" : " (", c->changed ? "" : "unchanged",
		 !c->changed && c->note ? "; " : "", c->note ? c->note : "",
		 c->changed && !c->note ? "" : ")");
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

/*
 * The exit code of a failed transaction, for every write command (DESIGN
 * "Errors and exit codes"): a signal is 128 + its number, as if it had
 * ended the process; a write that failed is 1 whatever its errno, but for
 * the missing privilege (5) and a driver's "not supported" before anything
 * was written (4); a value the plan refused against the device
 * is a bad value (2), as if the range check had caught it.
 */
int cli_txn_exit(int e, const struct mlx_txn_result *res)
{
	int r;

	if (res->signal)
		return 128 + res->signal;
	r = cli_exit_code(e);
	/* a first write the driver refused (an action, or a setting it reads
	 * but cannot set: a veth's speed) changed nothing: not supported, as
	 * the read of what it lacks would say */
	if (e == -EOPNOTSUPP && !res->written && !res->nback &&
	    (res->action || res->phase == MLX_WRITE_WRITE))
		return EXIT_NOTSUP;
	if ((res->change >= 0 || res->written) && r != EXIT_PERM)
		r = EXIT_FAIL;
	if (res->phase == MLX_WRITE_PLAN && (e == -EINVAL || e == -ERANGE || e == -EEXIST))
		r = EXIT_USAGE;
	if (r == EXIT_OK || r == EXIT_NODEV)
		r = EXIT_FAIL;
	return r;
}

static bool ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);

	return a >= b && !strcmp(s + a - b, end);
}

static void txn_recovered(struct cli *cli, const struct mlx_txn *t)
{
	const struct mlx_txn_result *res = mlx_txn_result(t);

	if (res->nrecovered)
		cli_warn(cli, "%s", res->recovered);
}

int cli_txn_done(struct cli *cli, const struct mlx_txn *t)
{
	const struct mlx_txn_result *res = mlx_txn_result(t);

	txn_recovered(cli, t);
	if (!res->signal)
		return EXIT_OK;
	cli_warn(cli, "interrupted (%s) after the last change was written and read back: every "
		 "change stays", strsignal(res->signal));
	return 128 + res->signal;
}

bool cli_will_ask(struct cli *cli)
{
	return !cli_opt(cli, "yes") && !cli->dry_run && isatty(STDIN_FILENO);
}

int cli_confirm(struct cli *cli, struct mlx_txn *t, const char *refusal, const char *hint,
		const char *question)
{
	char answer[16];
	int e;

	if (cli_opt(cli, "yes") || cli->dry_run)
		return EXIT_OK;
	if (!isatty(STDIN_FILENO)) {
		cli_error(cli, "%s", refusal);
		if (hint)
			cli_hint(cli, "%s", hint);
		return EXIT_USAGE;
	}
	if (t && (e = mlx_txn_may_write(t)) < 0)
		return cli_txn_fail(cli, t, e, NULL, "write");
	fprintf(cli->err_fp, "%s? [y/N] ", question);
	fflush(cli->err_fp);
	if (!fgets(answer, sizeof(answer), stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
		cli_error(cli, "not confirmed; nothing was changed");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cli_txn_fail(struct cli *cli, const struct mlx_txn *t, int e, const char *path,
		 const char *what)
{
	const struct mlx_txn_result *res = mlx_txn_result(t);
	const char *msg = mlx_errmsg(cli->ctx);
	bool none = !res->written && !res->nback && res->change < 0;
	int r = cli_txn_exit(e, res);

	txn_recovered(cli, t);
	if (!*msg)
		msg = strerror(-e);
	if (res->in_plan && path)
		cli_error(cli, "%s%s%s: %s%s", path, *res->where ? "." : "", res->where, msg,
			  none && !ends_with(msg, "nothing was changed") ? "; nothing was changed" : "");
	else
		cli_error(cli, "%s%s", msg, none && !ends_with(msg, "nothing was changed") ?
			  "; nothing was changed" : "");
	if (res->nback)
		cli_error(cli, "the %s failed; what it had changed before (%zu subsystem%s of its ports) "
			  "%s", what, res->nback, res->nback == 1 ? "" : "s", res->back_ok ? "was put "
			  "back: nothing was changed" : "could NOT all be put back: the host is partly "
			  "changed");
	return r;
}

int cli_txn_finish(struct cli *cli, struct mlx_txn *t, int e, int r, const char *on)
{
	struct mlx_txn_step st;

	if (e >= 0 && r == EXIT_OK && !cli->dry_run)
		e = mlx_txn_run(t, cli_opt(cli, "yes") ? MLX_TXN_DESTROY_OK : MLX_TXN_DESTROY_AS_PLANNED);
	if (e < 0) {
		r = cli_txn_fail(cli, t, e, NULL, "write");
		if (r == EXIT_PERM)
			cli_hint(cli, "changing %s needs root", on);
		return r;
	}
	if (r != EXIT_OK)
		return r;
	mlx_txn_step(t, 0, &st);
	cli_out_changes(cli, st.plan);
	return cli->dry_run ? EXIT_OK : cli_txn_done(cli, t);
}

int cli_write_step(struct cli *cli, int sub, const struct mlx_port_ref *target,
		   const struct mlx_port_settings *want, size_t vf, struct mlx_txn **out)
{
	struct mlx_txn *t;
	struct mlx_txn_step st;
	int e, r;

	*out = NULL;
	e = mlx_txn_new(cli->ctx, &t);
	if (e == 0)
		e = mlx_txn_add(t, (enum mlx_sub)sub, target, want, vf);
	if (e < 0) {
		mlx_txn_free(t);
		return cli_fail(cli, e, "cannot allocate memory");
	}
	/* no confirmation here: a change that destroys settings is refused */
	e = cli->dry_run ? mlx_txn_plan(t, 0) : mlx_txn_run(t, 0);
	if (e < 0) {
		r = cli_txn_fail(cli, t, e, NULL, "write");
		if (r == EXIT_PERM)
			cli_hint(cli, "changing %s needs root", mlx_port_ref_name(target));
		mlx_txn_free(t);
		return r;
	}
	mlx_txn_step(t, 0, &st);
	cli_out_changes(cli, st.plan);
	r = cli->dry_run ? EXIT_OK : cli_txn_done(cli, t);
	if (r) {
		mlx_txn_free(t);
		return r;
	}
	*out = t;
	return EXIT_OK;
}

int cli_write_action(struct cli *cli, int act, const struct mlx_port_ref *target, const void *obj,
		     const char *refusal, const char *question, int *err)
{
	struct mlx_txn *t;
	struct mlx_txn_step st;
	int e, r;

	*err = 0;
	e = mlx_txn_new(cli->ctx, &t);
	if (e == 0)
		e = mlx_txn_add_action(t, (enum mlx_action)act, target, obj);
	if (e < 0) {
		mlx_txn_free(t);
		return cli_fail(cli, e, "cannot allocate memory");
	}
	/* the plan first: the question is asked from it, with no lock held */
	e = mlx_txn_plan(t, 0);
	r = e < 0 || !mlx_txn_destroys(t) ? EXIT_OK : cli_confirm(cli, t, refusal, NULL, question);
	if (e == 0 && r == EXIT_OK && !cli->dry_run)
		e = mlx_txn_run(t, MLX_TXN_DESTROY_OK);
	if (e < 0) {
		/* the device's own refusal of the action, not a check before it */
		*err = mlx_txn_result(t)->change >= 0 ? e : 0;
		r = cli_txn_fail(cli, t, e, NULL, "write");
	} else if (r == EXIT_OK) {
		mlx_txn_step(t, 0, &st);
		cli_out_changes(cli, st.plan);
		if (!cli->dry_run)
			r = cli_txn_done(cli, t);
	}
	mlx_txn_free(t);
	return r;
}
