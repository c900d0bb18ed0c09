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
#include "txn.h"

struct step {
	const struct mlx_subsys *sub;
	struct mlx_port_ref t;
	const struct mlx_port_settings *want;
	size_t vf;
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
	/* a recovery's step: its changes come from a journal */
	bool recovery;
};

struct mlx_txn {
	struct mlx_ctx *ctx;
	struct step *s;
	size_t n, cap;
	struct mlx_txn_result res;
	int sig;                  /* a held signal seen pending */
};

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

int mlx_txn_add(struct mlx_txn *t, enum mlx_sub sub, const struct mlx_port_ref *tg,
		const struct mlx_port_settings *want, size_t vf)
{
	const struct mlx_subsys *ss = mlx_subsys(sub);
	struct step *s;

	if (!ss)
		return mlx_err(t->ctx, EINVAL, "no subsystem %d", (int)sub);
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
	if (s->recovery)
		return 0;
	return s->sub->plan(ctx, s->feat, s->want, s->vf, &s->pl);
}

static int fail_at(struct mlx_txn *t, size_t i, int e, bool in_plan)
{
	struct step *s = &t->s[i];

	t->res.step = (long)i;
	t->res.in_plan = in_plan;
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
		int e = step_plan(t, s);

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

struct lines {
	char **v;
	size_t n;
};

static int lines_add(void *arg, const char *text)
{
	struct lines *l = arg;
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

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int hexs(const char *s, char *buf, size_t len)
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

static int unhexs(const char *h, char *buf, size_t len)
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
	struct lines l = { 0 };
	char line[800], lk[140], bdf[40], ifn[40], set[100], old[400];
	int r;

	r = hexs(s->t.lock ? s->t.lock : "", lk, sizeof(lk));
	r = r ? r : hexs(s->t.fn ? s->t.fn->bdf : "", bdf, sizeof(bdf));
	r = r ? r : hexs(s->t.ifname ? s->t.ifname : "", ifn, sizeof(ifn));
	if (r == 0) {
		/* a VF's step as "vf": its key is its PF's */
		snprintf(line, sizeof(line), "step %s %s %s %s %zu", s->sub->id == MLX_SUB_VF ? "vf" :
			 s->sub->key, lk, bdf, ifn,
			 s->sub->id == MLX_SUB_VF ? (size_t)((struct mlx_sriov_writer *)s->feat)->vf : 0);
		r = lines_add(&l, line);
	}
	for (size_t k = 0; r == 0 && k < s->pl.n; k++) {
		const struct mlx_change *c = &s->pl.c[k];

		if (!c->changed && !c->rewrite)
			continue;
		r = hexs(c->setting, set, sizeof(set));
		r = r ? r : mlx_val_encode(&c->old, old, sizeof(old));
		if (r == 0) {
			snprintf(line, sizeof(line), "c %d %d %s %s", c->id, c->arg, set, old);
			r = lines_add(&l, line);
		}
	}
	if (r == 0 && s->sub->journal_save)
		r = s->sub->journal_save(s->feat, lines_add, &l);
	r = r < 0 ? r : mlx_journal_step(j, (const char *const *)l.v, l.n);
	lines_free(&l);
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
static int lock_all(struct mlx_ctx *ctx, const char **names, size_t n, int *fds, size_t *nfd)
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

static void unlock_all(int *fds, size_t n)
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
	for (i = 0; i < t->n; i++)
		if (t->s[i].sub->may_write && (e = t->s[i].sub->may_write(ctx, &t->s[i].t)) < 0)
			return fail_at(t, i, e, false);
	names = calloc(t->n + 1, sizeof(*names));
	fds = calloc(t->n + 1, sizeof(*fds));
	if (!names || !fds) {
		e = mlx_err(ctx, ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < t->n; i++)
		names[i] = t->s[i].t.lock;
	e = lock_all(ctx, names, t->n, fds, &nfd);
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
	e = mlx_journal_begin(ctx, &j);
	if (e < 0) {
		snprintf(story, sizeof(story), "%s", mlx_errmsg(ctx));
		e = mlx_err(ctx, -e, "%s; nothing was changed", story);
		goto out;
	}
	for (i = 0; i < t->n; i++) {
		struct step *s = &t->s[i];
		struct mlx_write_req req = { .on = s->on };

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
		/* what it changes, with the old values, on disk before the first write */
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
	unlock_all(fds, nfd);
	if (blocked) {
		drain(t);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	free(names);
	free(fds);
	return e;
}

/* ---- recovery ---- */

struct found {
	struct mlx_ctx *ctx;
	struct mlx_txn_pending *p;
	char (*paths)[4096];
	size_t n, cap;
};

static void on_found(void *arg, const struct mlx_journal_found *f)
{
	struct found *fd = arg;

	if (f->alive)
		return;
	if (fd->p) {
		if (!fd->p->n++) {
			fd->p->pid = f->pid;
			fd->p->started = f->started;
		}
		return;
	}
	if (fd->n == fd->cap) {
		size_t cap = fd->cap ? 2 * fd->cap : 4;
		char (*v)[4096] = realloc(fd->paths, cap * sizeof(*v));

		if (!v)
			return;
		fd->paths = v;
		fd->cap = cap;
	}
	snprintf(fd->paths[fd->n++], sizeof(fd->paths[0]), "%s", f->path);
}

void mlx_txn_pending(struct mlx_ctx *ctx, struct mlx_txn_pending *p)
{
	struct found f = { ctx, p, NULL, 0, 0 };

	memset(p, 0, sizeof(*p));
	mlx_journal_list(ctx, on_found, &f);
}

/* A journal's "step" line, its target found again on the devices now. */
static int parse_step(struct mlx_ctx *ctx, const struct mlx_devices *devs, const char *line,
		      struct mlx_port_ref *tg, const struct mlx_subsys **sub, size_t *vf, char *lock,
		      size_t lklen, char *ifname, size_t iflen)
{
	char key[32], lk[140], bdf[40], ifn[40], b[24];
	const struct mlx_function *fn = NULL;
	const struct mlx_port *port = NULL;

	if (sscanf(line, "step %31s %139s %39s %39s %zu", key, lk, bdf, ifn, vf) != 5 ||
	    !(*sub = !strcmp(key, "vf") ? mlx_subsys(MLX_SUB_VF) : mlx_subsys_find(key)) ||
	    unhexs(lk, lock, lklen) < 0 || unhexs(bdf, b, sizeof(b)) < 0 ||
	    unhexs(ifn, ifname, iflen) < 0)
		return mlx_err(ctx, EBADMSG, "a damaged step: '%.80s'", line);
	for (size_t i = 0; b[0] && i < devs->nfn && !fn; i++)
		if (!strcmp(devs->fn[i].bdf, b))
			fn = &devs->fn[i];
	if (b[0] && !fn)
		return mlx_err(ctx, ENODEV, "%s is not on this system any more", b);
	for (size_t i = 0; fn && ifname[0] && i < fn->nports && !port; i++)
		if (!strcmp(fn->ports[i].ifname, ifname))
			port = &fn->ports[i];
	mlx_port_ref_init(tg, fn, port, ifname[0] ? ifname : NULL);
	if (!port && fn)
		tg->ifname = ifname[0] ? ifname : NULL;
	tg->lock = lock;
	return 0;
}

struct rstep {
	struct mlx_port_ref t;
	const struct mlx_subsys *sub;
	size_t vf;
	char lock[70], ifname[20];
	struct mlx_plan pl;
	struct lines extra;
};

/* Put back a live system's changes from a journal's records, newest step
 * first, through the engine; the devices' locks held. */
static int recover_live(struct mlx_ctx *ctx, const struct mlx_journal_rec *jr, size_t *nchanges)
{
	struct mlx_devices devs;
	struct rstep *rs = NULL;
	size_t n = 0;
	const char **names = NULL;
	int *fds = NULL, e, first = 0;
	size_t nfd = 0;

	e = mlx_devices_scan(ctx, &devs);
	if (e < 0)
		return e;
	for (size_t i = 0; i < jr->nlines && e == 0; i++) {
		const char *l = jr->lines[i];

		if (!strncmp(l, "step ", 5)) {
			struct rstep *v = realloc(rs, (n + 1) * sizeof(*v));

			if (!v) {
				e = -ENOMEM;
				break;
			}
			rs = v;
			memset(&rs[n], 0, sizeof(rs[n]));
			e = parse_step(ctx, &devs, l, &rs[n].t, &rs[n].sub, &rs[n].vf, rs[n].lock,
				       sizeof(rs[n].lock), rs[n].ifname, sizeof(rs[n].ifname));
			n++;
		} else if (!strncmp(l, "c ", 2) && n) {
			char set[100], hs[210], old[420];
			struct mlx_val v;
			int id, arg, k;

			if (sscanf(l, "c %d %d %209s %419s", &id, &arg, hs, old) != 4 ||
			    unhexs(hs, set, sizeof(set)) < 0 || mlx_val_decode(old, &v) < 0) {
				e = mlx_err(ctx, EBADMSG, "a damaged change: '%.80s'", l);
				break;
			}
			/* the old value is what is written back */
			k = mlx_plan_add(&rs[n - 1].pl, set, NULL, id, arg, v);
			if (k < 0)
				e = -ENOMEM;
		} else if (!strncmp(l, "vf ", 3) && n) {
			e = lines_add(&rs[n - 1].extra, l);
		}
	}
	/* the targets name their step's own strings (the array moved) */
	for (size_t i = 0; i < n; i++) {
		rs[i].t.lock = rs[i].lock[0] ? rs[i].lock : NULL;
		rs[i].t.ifname = rs[i].ifname[0] ? rs[i].ifname : NULL;
	}
	if (e == 0) {
		names = calloc(n + 1, sizeof(*names));
		fds = calloc(n + 1, sizeof(*fds));
		if (!names || !fds)
			e = -ENOMEM;
		for (size_t i = 0; e == 0 && i < n; i++)
			names[i] = rs[i].lock[0] ? rs[i].lock : NULL;
		if (e == 0)
			e = lock_all(ctx, names, n, fds, &nfd);
	}
	for (size_t i = n; e == 0 && i-- > 0;) {
		struct rstep *s = &rs[i];
		void *feat = calloc(1, s->sub->feat_size);
		struct mlx_write_req req = { .on = mlx_port_ref_name(&s->t) };
		struct mlx_write_result res;
		int f;

		if (!feat) {
			e = -ENOMEM;
			break;
		}
		f = s->sub->open(ctx, feat, &s->t, NULL);
		if (s->sub->id == MLX_SUB_VF)
			((struct mlx_sriov_writer *)feat)->vf = (uint32_t)s->vf;
		for (size_t k = 0; f == 0 && k < s->extra.n && s->sub->journal_load; k++)
			f = s->sub->journal_load(ctx, feat, s->extra.v[k]);
		if (f == 0)
			f = mlx_write_prepare(ctx, s->sub->ops, feat, &req, &s->pl, &res);
		if (f == 0) {
			*nchanges += mlx_plan_nchanged(&s->pl);
			f = mlx_write_commit(ctx, s->sub->ops, feat, &req, &s->pl, &res, NULL);
		}
		if (s->sub->after_put_back && s->sub->after_put_back(ctx, feat) < 0 && f == 0)
			f = -EIO;
		if (f < 0 && !first)
			first = f;
		if (s->sub->close)
			s->sub->close(feat);
		free(feat);
	}
	unlock_all(fds ? fds : (int[]){ 0 }, nfd);
	for (size_t i = 0; i < n; i++) {
		mlx_plan_free(&rs[i].pl);
		lines_free(&rs[i].extra);
	}
	free(rs);
	free(names);
	free(fds);
	mlx_devices_free(&devs);
	return e < 0 ? e : first;
}

/* The devices a journal's steps lock, held while a captured system's
 * files are put back. */
static int lock_journal(struct mlx_ctx *ctx, const struct mlx_journal_rec *jr, int **fds, size_t *nfd)
{
	const char **names = calloc(jr->nlines + 1, sizeof(*names));
	char (*locks)[70] = calloc(jr->nlines + 1, sizeof(*locks));
	size_t n = 0;
	int e = 0;

	*fds = calloc(jr->nlines + 1, sizeof(**fds));
	*nfd = 0;
	if (!names || !locks || !*fds) {
		e = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < jr->nlines; i++) {
		char key[32], lk[140];

		if (sscanf(jr->lines[i], "step %31s %139s", key, lk) == 2 &&
		    unhexs(lk, locks[n], sizeof(locks[n])) == 0 && locks[n][0])
			names[n] = locks[n], n++;
	}
	e = lock_all(ctx, names, n, *fds, nfd);
out:
	free(names);
	free(locks);
	return e;
}

int mlx_txn_recover(struct mlx_ctx *ctx, bool forget, struct mlx_txn_recovery *rep)
{
	struct found f = { ctx, NULL, NULL, 0, 0 };
	int first = 0;

	memset(rep, 0, sizeof(*rep));
	mlx_journal_sweep(ctx);
	mlx_journal_list(ctx, on_found, &f);
	for (size_t i = 0; i < f.n; i++) {
		struct mlx_journal_rec jr;
		int *fds = NULL, e;
		size_t nfd = 0;

		e = mlx_journal_open(ctx, f.paths[i], &jr);
		if (e == -EBUSY || e == -ENOENT) {
			/* another recovery has it, or finished it */
			mlx_err_clear(ctx);
			continue;
		}
		if (e == 0 && !forget && jr.files)
			e = lock_journal(ctx, &jr, &fds, &nfd);
		if (e == 0 && !forget && jr.files)
			e = mlx_journal_replay(ctx, &jr);
		else if (e == 0 && !forget && !jr.committed)
			e = recover_live(ctx, &jr, &rep->nchanges);
		unlock_all(fds ? fds : (int[]){ 0 }, nfd);
		free(fds);
		if (e < 0) {
			rep->nfailed++;
			if (!first) {
				first = e;
				snprintf(rep->story, sizeof(rep->story), "the journal of pid %ld: %s", jr.pid,
					 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
			}
		} else {
			rep->n++;
			if (!rep->story[0])
				snprintf(rep->story, sizeof(rep->story), "%s the %s of an interrupted write "
					 "(pid %ld)%s", forget ? "forgot" : "finished", forget ?
					 "journal" : jr.committed ? "clean-up" : "rollback", jr.pid,
					 forget || jr.committed ? "" : ": its changes were put back");
		}
		mlx_journal_close(&jr, e == 0);
	}
	free(f.paths);
	if (first)
		return mlx_err(ctx, -first, "%s", rep->story);
	return 0;
}
