/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The write transaction (lib/txn.h): steps of the settings model's
 * subsystems through the write engine's steps (lib/write.h), one lock set,
 * one journal, signals held, one rollback across all of them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "lock.h"
#include "mlx-private.h"
#include "settings-private.h"
#include "txn-private.h"
#include "txn.h"

struct step {
	const struct mlx_subsys *sub;
	struct mlx_port_ref t;
	const struct mlx_port_settings *want;
	size_t vf;
	const void *obj;          /* an action's object */
	long parent;              /* the step whose writer this one borrows from; -1 none */
	void *feat;
	bool open;
	char on[64];              /* the port in messages */
	struct mlx_plan pl;
	struct mlx_write_result res;
	bool committed;           /* its writes are done: a later failure puts them back */
	/* the dry plan's changes that destroy settings, as confirmed */
	struct mlx_change *confirmed;
	size_t nconfirmed;
};

struct mlx_txn {
	struct mlx_ctx *ctx;
	struct step *s;
	size_t n, cap;
	struct mlx_txn_result res;
	int sig;                  /* a held signal seen pending */
	void (*progress)(void *arg, size_t done, size_t total);
	void *progress_arg;
};

void mlx_txn_set_progress(struct mlx_txn *t, void (*fn)(void *arg, size_t done, size_t total),
			  void *arg)
{
	t->progress = fn;
	t->progress_arg = arg;
}

static void progress(struct mlx_txn *t, size_t done)
{
	if (t->progress)
		t->progress(t->progress_arg, done, t->n);
}

int mlx_txn_new(struct mlx_ctx *ctx, struct mlx_txn **out)
{
	struct mlx_txn *t = calloc(1, sizeof(*t));

	if (!t)
		return mlx_err(ctx, ENOMEM, "out of memory");
	t->ctx = ctx;
	t->res.step = t->res.change = -1;
	*out = t;
	return 0;
}

static void step_close(struct step *s)
{
	if (s->open && s->sub->close)
		s->sub->close(s->feat);
	s->open = false;
}

void mlx_txn_free(struct mlx_txn *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		step_close(&t->s[i]);
		free(t->s[i].feat);
		free(t->s[i].confirmed);
		mlx_plan_free(&t->s[i].pl);
	}
	free(t->s);
	free(t);
}

static int add_step(struct mlx_txn *t, const struct mlx_subsys *ss, const struct mlx_port_ref *tg,
		    const struct mlx_port_settings *want, size_t vf, const void *obj)
{
	struct step *s;

	if (t->n && t->s[t->n - 1].sub->plan_action)
		return mlx_err(t->ctx, EINVAL, "an action (%s) cannot be put back: it is the last step "
			       "of a transaction", t->s[t->n - 1].sub->name);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 8;
		struct step *v = realloc(t->s, cap * sizeof(*v));

		if (!v)
			return mlx_err(t->ctx, ENOMEM, "out of memory");
		t->s = v;
		t->cap = cap;
	}
	s = &t->s[t->n];
	memset(s, 0, sizeof(*s));
	s->sub = ss;
	s->t = *tg;
	s->want = want;
	s->vf = vf;
	s->obj = obj;
	s->feat = calloc(1, ss->feat_size);
	if (!s->feat)
		return mlx_err(t->ctx, ENOMEM, "out of memory");
	snprintf(s->on, sizeof(s->on), "%s", mlx_port_ref_name(tg));
	/* a VF's step borrows from its PF's step, the latest of that port */
	s->parent = -1;
	for (size_t i = t->n; ss->parent_sub != MLX_NSUB && i-- > 0;)
		if (t->s[i].sub->id == ss->parent_sub && t->s[i].t.fn == tg->fn &&
		    t->s[i].t.port == tg->port) {
			s->parent = (long)i;
			break;
		}
	return (int)t->n++;
}

int mlx_txn_add(struct mlx_txn *t, enum mlx_sub sub, const struct mlx_port_ref *tg,
		const struct mlx_port_settings *want, size_t vf)
{
	const struct mlx_subsys *ss = mlx_subsys(sub);

	if (!ss)
		return mlx_err(t->ctx, EINVAL, "no subsystem %d", (int)sub);
	return add_step(t, ss, tg, want, vf, NULL);
}

int mlx_txn_add_action(struct mlx_txn *t, enum mlx_action act, const struct mlx_port_ref *tg,
		       const void *obj)
{
	const struct mlx_subsys *ss = mlx_action(act);

	if (!ss)
		return mlx_err(t->ctx, EINVAL, "no action %d", (int)act);
	return add_step(t, ss, tg, NULL, 0, obj);
}

size_t mlx_txn_nsteps(const struct mlx_txn *t)
{
	return t->n;
}

void mlx_txn_step(const struct mlx_txn *t, size_t i, struct mlx_txn_step *out)
{
	const struct step *s = &t->s[i];

	out->sub = s->sub;
	out->target = &s->t;
	out->vf = s->vf;
	out->plan = &s->pl;
	out->writer = s->feat;
}

const struct mlx_txn_result *mlx_txn_result(const struct mlx_txn *t)
{
	return &t->res;
}

bool mlx_txn_destroys(const struct mlx_txn *t)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->s[i].pl.n; k++)
			if (t->s[i].pl.c[k].changed && (t->s[i].pl.c[k].flags & MLX_CHG_DESTROYS))
				return true;
	return false;
}

/* ---- a step ---- */

/* Open the step's writer anew and make its plan (not yet read). */
static int step_plan(struct mlx_txn *t, struct step *s)
{
	struct mlx_ctx *ctx = t->ctx;
	int e;

	step_close(s);
	mlx_plan_free(&s->pl);
	memset(&s->res, 0, sizeof(s->res));
	s->res.failed = -1;
	memset(s->feat, 0, s->sub->feat_size);
	e = s->sub->open(ctx, s->feat, &s->t, s->parent >= 0 ? t->s[s->parent].feat : NULL);
	if (e < 0)
		return e;
	s->open = true;
	if (s->sub->plan_action)
		return s->sub->plan_action(ctx, s->feat, s->obj, &s->pl);
	return s->sub->plan(ctx, s->feat, s->want, s->vf, &s->pl);
}

static int fail_at(struct mlx_txn *t, size_t i, int e, bool in_plan)
{
	struct step *s = &t->s[i];

	t->res.step = (long)i;
	t->res.in_plan = in_plan;
	t->res.action = s->sub->plan_action != NULL;
	t->res.where = in_plan ? s->pl.where : "";
	t->res.phase = in_plan ? MLX_WRITE_PLAN : s->res.phase;
	t->res.change = s->res.failed;
	return e;
}

int mlx_txn_plan(struct mlx_txn *t, unsigned flags)
{
	for (size_t i = 0; i < t->n; i++) {
		struct step *s = &t->s[i];
		struct mlx_write_req req = { .on = s->on, .dry_run = true };
		int e;

		progress(t, i);
		e = step_plan(t, s);

		if (e < 0)
			return fail_at(t, i, e, true);
		e = mlx_write_prepare(t->ctx, s->sub->ops, s->feat, &req, &s->pl, &s->res);
		if (e < 0)
			return fail_at(t, i, e, false);
		/* what a confirmation is about */
		free(s->confirmed);
		s->confirmed = NULL;
		s->nconfirmed = 0;
		for (size_t k = 0; k < s->pl.n; k++) {
			struct mlx_change *c = &s->pl.c[k], *v;

			if (!c->changed || !(c->flags & MLX_CHG_DESTROYS))
				continue;
			v = realloc(s->confirmed, (s->nconfirmed + 1) * sizeof(*v));
			if (!v)
				return mlx_err(t->ctx, ENOMEM, "out of memory");
			s->confirmed = v;
			s->confirmed[s->nconfirmed++] = *c;
		}
		if (s->nconfirmed && (flags & MLX_TXN_STOP_AT_DESTROY)) {
			t->res.step = (long)i;
			return -ECANCELED;
		}
	}
	progress(t, t->n);
	return 0;
}

/* A change that destroys settings: only as confirmed. */
static int check_destroys(struct mlx_txn *t, struct step *s, unsigned flags)
{
	for (size_t k = 0; k < s->pl.n; k++) {
		const struct mlx_change *c = &s->pl.c[k];
		char a[64], b[64];
		bool ok = false;

		if (!c->changed || !(c->flags & MLX_CHG_DESTROYS))
			continue;
		mlx_val_fmt(&c->old, a, sizeof(a));
		mlx_val_fmt(&c->new, b, sizeof(b));
		if (flags & MLX_TXN_DESTROY_OK)
			continue;
		if (!(flags & MLX_TXN_DESTROY_AS_PLANNED))
			return mlx_err(t->ctx, ECANCELED, "%s %s -> %s on %s destroys other settings and "
				       "was not confirmed; nothing was changed", c->setting, a, b, s->on);
		for (size_t i = 0; i < s->nconfirmed && !ok; i++)
			ok = !strcmp(s->confirmed[i].setting, c->setting) &&
			     mlx_val_eq(&s->confirmed[i].old, &c->old) &&
			     mlx_val_eq(&s->confirmed[i].new, &c->new);
		if (!ok)
			return mlx_err(t->ctx, ECANCELED, "%s on %s changed since it was confirmed (it "
				       "is %s now); nothing was changed", c->setting, s->on, a);
	}
	return 0;
}

/* ---- signals: held from the first write to the last read-back ---- */

static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void held_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(held_signals) / sizeof(held_signals[0]); i++)
		sigaddset(set, held_signals[i]);
}

static bool signalled(void *arg)
{
	struct mlx_txn *t = arg;
	sigset_t p;

	if (t->sig)
		return true;
	if (sigpending(&p) < 0)
		return false;
	for (size_t i = 0; i < sizeof(held_signals) / sizeof(held_signals[0]); i++)
		if (sigismember(&p, held_signals[i]) == 1) {
			t->sig = held_signals[i];
			return true;
		}
	return false;
}

/* Take the held signals out of the pending set, so that unblocking them
 * does not end the process: the caller exits with 128 + the signal. */
static void drain(struct mlx_txn *t)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;
	int sig;

	held_set(&set);
	while ((sig = sigtimedwait(&set, NULL, &zero)) > 0)
		if (!t->sig)
			t->sig = sig;
}

static const char *signame(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

/* ---- the journal's records of a step ---- */

int mlx_txn_lines_add(void *arg, const char *text)
{
	struct mlx_txn_lines *l = arg;
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (!v || !(v[l->n] = strdup(text))) {
		if (v)
			l->v = v;
		return -ENOMEM;
	}
	l->v = v;
	l->n++;
	return 0;
}

void mlx_txn_lines_free(struct mlx_txn_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

int mlx_txn_hex(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (!n) {
		snprintf(buf, len, "-");
		return 0;
	}
	if (2 * n + 1 > len)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", (unsigned char)s[i]);
	return 0;
}

int mlx_txn_unhex(const char *h, char *buf, size_t len)
{
	size_t n = strlen(h);

	if (!strcmp(h, "-")) {
		buf[0] = '\0';
		return 0;
	}
	if (n % 2 || n / 2 + 1 > len)
		return -EBADMSG;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1 || !v)
			return -EBADMSG;
		buf[i] = (char)v;
	}
	buf[n / 2] = '\0';
	return 0;
}

/* "step KEY LOCK BDF IFNAME VF", a line per change to put back ("c ID
 * ARG SETTING OLD"), the subsystem's own ("x ..."). */
static int journal_step(struct mlx_journal *j, struct step *s)
{
	struct mlx_txn_lines l = { 0 };
	char line[800], lk[140], bdf[40], ifn[40], set[100], old[400];
	int r;

	r = mlx_txn_hex(s->t.lock ? s->t.lock : "", lk, sizeof(lk));
	r = r ? r : mlx_txn_hex(s->t.fn ? s->t.fn->bdf : "", bdf, sizeof(bdf));
	r = r ? r : mlx_txn_hex(s->t.ifname ? s->t.ifname : "", ifn, sizeof(ifn));
	if (r == 0) {
		/* a VF's step as "vf": its key is its PF's */
		snprintf(line, sizeof(line), "step %s %s %s %s %zu", s->sub->id == MLX_SUB_VF ? "vf" :
			 s->sub->key, lk, bdf, ifn,
			 s->sub->id == MLX_SUB_VF ? (size_t)((struct mlx_sriov_writer *)s->feat)->vf : 0);
		r = mlx_txn_lines_add(&l, line);
	}
	for (size_t k = 0; r == 0 && k < s->pl.n; k++) {
		const struct mlx_change *c = &s->pl.c[k];

		if (!c->changed && !c->rewrite)
			continue;
		r = mlx_txn_hex(c->setting, set, sizeof(set));
		r = r ? r : mlx_val_encode(&c->old, old, sizeof(old));
		if (r == 0) {
			snprintf(line, sizeof(line), "c %d %d %s %s", c->id, c->arg, set, old);
			r = mlx_txn_lines_add(&l, line);
		}
	}
	if (r == 0 && s->sub->journal_save)
		r = s->sub->journal_save(s->feat, mlx_txn_lines_add, &l);
	r = r < 0 ? r : mlx_journal_step(j, (const char *const *)l.v, l.n);
	mlx_txn_lines_free(&l);
	return r;
}

/* ---- putting back ---- */

/* Put back a committed step: its writes newest first, then what the
 * subsystem adds (SR-IOV: the VFs a numvfs put-back made anew get their
 * settings).  0 or the first -errno. */
static int step_undo(struct mlx_txn *t, struct step *s)
{
	int e = mlx_write_undo(t->ctx, s->sub->ops, s->feat, &s->pl), f;

	f = s->sub->after_put_back ? s->sub->after_put_back(t->ctx, s->feat) : 0;
	return e < 0 ? e : f;
}

/* ---- the run ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The locks of @names (each once, in address order, so two transactions
 * over overlapping devices cannot wait on each other). */
int mlx_txn_lock_all(struct mlx_ctx *ctx, const char **names, size_t n, int *fds, size_t *nfd)
{
	qsort(names, n, sizeof(*names), cmp_str);
	*nfd = 0;
	for (size_t i = 0; i < n; i++) {
		int e;

		if (!names[i] || (i && names[i - 1] && !strcmp(names[i], names[i - 1])))
			continue;
		e = mlx_lock_device(ctx, names[i], &fds[*nfd]);
		if (e < 0) {
			for (size_t k = 0; k < *nfd; k++)
				close(fds[k]);
			*nfd = 0;
			return e;
		}
		(*nfd)++;
	}
	return 0;
}

void mlx_txn_unlock_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

/* After step @k failed (its own writes put back by the engine): the
 * steps before it, newest first. */
static void put_back_before(struct mlx_txn *t, size_t k)
{
	char first[400] = "";

	t->res.back_ok = true;
	for (size_t i = k; i-- > 0;) {
		struct step *s = &t->s[i];
		int e;

		if (!s->committed)
			continue;
		t->res.nback++;
		mlx_err_clear(t->ctx);
		e = step_undo(t, s);
		if (e < 0) {
			if (!first[0])
				snprintf(first, sizeof(first), "could not put back the %s settings of %s: %s",
					 s->sub->name, s->on, mlx_errmsg(t->ctx));
			t->res.back_ok = false;
		} else {
			s->committed = false;
		}
	}
	if (first[0])
		mlx_log(t->ctx, MLX_LOG_ERR, "%s", first);
}

int mlx_txn_may_write(struct mlx_txn *t)
{
	int e;

	for (size_t i = 0; i < t->n; i++)
		if (t->s[i].sub->may_write && (e = t->s[i].sub->may_write(t->ctx, &t->s[i].t)) < 0)
			return fail_at(t, i, e, false);
	return 0;
}

int mlx_txn_run(struct mlx_txn *t, unsigned flags)
{
	struct mlx_ctx *ctx = t->ctx;
	struct mlx_write_guard guard = { signalled, t };
	struct mlx_txn_recovery rec;
	struct mlx_journal *j = NULL;
	const char **names = NULL;
	int *fds = NULL;
	size_t nfd = 0, i = 0;
	sigset_t set, old;
	bool blocked = false, failed = false;
	char story[700];
	int e;

	t->sig = 0;
	t->res.step = t->res.change = -1;
	/* the rollback an interrupted transaction left to do, first */
	e = mlx_txn_recover(ctx, false, &rec);
	t->res.nrecovered = rec.n;
	snprintf(t->res.recovered, sizeof(t->res.recovered), "%s", rec.story);
	if (e < 0)
		return mlx_err(ctx, -e, "an interrupted write left a change half done that cannot be "
			       "put back (%s); nothing was changed ('mlxcli recover' says more)",
			       rec.story);
	e = mlx_txn_may_write(t);
	if (e < 0)
		return e;
	names = calloc(t->n + 1, sizeof(*names));
	fds = calloc(t->n + 1, sizeof(*fds));
	if (!names || !fds) {
		e = mlx_err(ctx, ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < t->n; i++)
		names[i] = t->s[i].t.lock;
	e = mlx_txn_lock_all(ctx, names, t->n, fds, &nfd);
	if (e < 0) {
		snprintf(story, sizeof(story), "%s", mlx_errmsg(ctx));
		e = mlx_err(ctx, -e, "%s; nothing was changed", story);
		t->res.phase = MLX_WRITE_LOCK;
		goto out;
	}
	/* from here a signal is held: it stops the transaction between two
	 * writes, and what was written is put back */
	held_set(&set);
	blocked = sigprocmask(SIG_BLOCK, &set, &old) == 0;
	for (i = 0; i < t->n; i++) {
		struct step *s = &t->s[i];
		struct mlx_write_req req = { .on = s->on };

		progress(t, i);
		if (signalled(t)) {
			e = -EINTR;
			failed = true;
			break;
		}
		e = step_plan(t, s);
		if (e < 0) {
			fail_at(t, i, e, true);
			failed = true;
			break;
		}
		e = mlx_write_prepare(ctx, s->sub->ops, s->feat, &req, &s->pl, &s->res);
		if (e == 0)
			e = check_destroys(t, s, flags);
		if (e < 0) {
			fail_at(t, i, e, false);
			failed = true;
			break;
		}
		if (!mlx_plan_nchanged(&s->pl)) {
			bool rewrite = false;

			for (size_t k = 0; k < s->pl.n; k++)
				rewrite |= s->pl.c[k].rewrite;
			if (!rewrite)
				continue;
		}
		/* what it changes, with the old values, on disk before the first
		 * write (the journal made then: a transaction that changes
		 * nothing makes none); an action has nothing to put back */
		e = 0;
		if (!j && !s->sub->plan_action)
			e = mlx_journal_begin(ctx, &j);
		if (e == 0 && !s->sub->plan_action)
			e = journal_step(j, s);
		if (e < 0) {
			snprintf(story, sizeof(story), "%s", mlx_errmsg(ctx));
			e = mlx_err(ctx, -e, "%s", story);
			fail_at(t, i, e, false);
			failed = true;
			break;
		}
		e = mlx_write_commit(ctx, s->sub->ops, s->feat, &req, &s->pl, &s->res, &guard);
		if (e < 0) {
			fail_at(t, i, e, false);
			t->res.written = s->res.nwritten > 0;
			/* numvfs put back by the engine: the VFs' settings too */
			if (s->sub->after_put_back && s->res.nwritten) {
				snprintf(story, sizeof(story), "%s", mlx_errmsg(ctx));
				if (s->sub->after_put_back(ctx, s->feat) < 0)
					mlx_log(ctx, MLX_LOG_ERR, "%s", mlx_errmsg(ctx));
				mlx_err(ctx, -e, "%s", story);
			}
			failed = true;
			break;
		}
		s->committed = true;
	}
	if (failed) {
		snprintf(story, sizeof(story), "%s", e == -EINTR && t->res.step < 0 ? "" : mlx_errmsg(ctx));
		if (t->res.step < 0)
			t->res.step = (long)i;
		put_back_before(t, i);
		drain(t);
		if (t->sig) {
			e = -EINTR;
			mlx_err(ctx, EINTR, "interrupted (%s)%s%s", signame(t->sig), story[0] ? ": " : "",
				story[0] ? story : (t->res.nback ? "" : " before anything was written; "
						    "nothing was changed"));
		} else {
			mlx_err(ctx, -e, "%s", story);
		}
	} else {
		progress(t, t->n);
		drain(t);
		e = 0;
	}
	/* the journal stays when a put-back did not hold: a recovery tries
	 * again (a captured system's files are put back from it) */
	mlx_journal_end(j, !failed, failed && !t->res.back_ok);
	j = NULL;
	if (!failed && t->sig)
		t->res.signal = t->sig;   /* it came after the last write: all written */
	if (failed)
		t->res.signal = t->sig;
out:
	if (j)
		mlx_journal_end(j, false, false);
	mlx_txn_unlock_all(fds, nfd);
	if (blocked) {
		drain(t);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (t->sig && (flags & MLX_TXN_REDELIVER))
		raise(t->sig);
	free(names);
	free(fds);
	return e;
}
