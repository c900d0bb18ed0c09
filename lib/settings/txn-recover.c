/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupted transactions (lib/txn.h, lib/journal.h): which are pending,
 * and finishing their rollback, a captured system's from its undo log, a
 * live system's through the write engine from the old values its journal
 * holds.  The next write runs this first (mlx_txn_run), as do the boot
 * unit and `mlxcli recover`.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "mlx-private.h"
#include "settings-private.h"
#include "txn-private.h"
#include "txn.h"

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
	    mlx_txn_unhex(lk, lock, lklen) < 0 || mlx_txn_unhex(bdf, b, sizeof(b)) < 0 ||
	    mlx_txn_unhex(ifn, ifname, iflen) < 0)
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
	struct mlx_txn_lines extra;
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
			    mlx_txn_unhex(hs, set, sizeof(set)) < 0 || mlx_val_decode(old, &v) < 0) {
				e = mlx_err(ctx, EBADMSG, "a damaged change: '%.80s'", l);
				break;
			}
			/* the old value is what is written back */
			k = mlx_plan_add(&rs[n - 1].pl, set, NULL, id, arg, v);
			if (k < 0)
				e = -ENOMEM;
		} else if (!strncmp(l, "vf ", 3) && n) {
			e = mlx_txn_lines_add(&rs[n - 1].extra, l);
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
			e = mlx_txn_lock_all(ctx, names, n, fds, &nfd);
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
	mlx_txn_unlock_all(fds ? fds : (int[]){ 0 }, nfd);
	for (size_t i = 0; i < n; i++) {
		mlx_plan_free(&rs[i].pl);
		mlx_txn_lines_free(&rs[i].extra);
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
		    mlx_txn_unhex(lk, locks[n], sizeof(locks[n])) == 0 && locks[n][0])
			names[n] = locks[n], n++;
	}
	e = mlx_txn_lock_all(ctx, names, n, *fds, nfd);
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
		mlx_txn_unlock_all(fds ? fds : (int[]){ 0 }, nfd);
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
