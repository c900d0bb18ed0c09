/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal of a write transaction (lib/core/journal.c; issue 26): what
 * a transaction is about to change, on disk before it changes it, so that
 * when the process dies in the middle (SIGKILL, a crash, the power) the
 * next mlxcli write, the boot unit or `mlxcli recover` finishes the
 * rollback.  Private to lib/: the transaction (lib/txn.h) writes it.
 *
 * One file per transaction, in the system's state area: /run/mlxcli/journal
 * for the live system (gone with a reboot, as the kernel's settings are);
 * for a captured system the directory of its locks (lib/core/lock.c: this
 * user's runtime directory, never inside the capture, which may be
 * evidence), named by the capture's canonical path.  The writer holds an
 * flock on it while it runs: a journal whose lock can be taken is an
 * interrupted transaction's.
 *
 * Its lines:
 *   mlxcli-journal 1 / pid N / started T     who and when
 *   H <text>          the transaction's own records (its steps and their
 *                     changes with the old values): written and synced
 *                     before each step's first write (mlx_journal_step)
 *   F/D/L/U/M/X ...   on a captured system, before each change of a file
 *                     of the capture (a write-ahead undo log, below)
 *   commit            the transaction kept its changes: only the
 *                     clean-ups (X) are left to do
 *
 * A captured system is files, and an emulator changes many of them for
 * one write (numvfs: VF directories, links, the recorded VF table, config
 * space): before each change, its undo goes to the journal (the file's
 * old bytes, the directory or link made, the link removed with its
 * target, the directory renamed aside); replayed newest first, they put
 * the capture back byte for byte whatever point the writer died at, and
 * the temporary files of an interrupted replacement (.NAME.PID.N.tmp)
 * go with them.  Directories put aside for good are removed only when the
 * transaction ends (X), so until then every step can be undone.  A live
 * system's changes are the kernel's: its journal's H records are what the
 * transaction puts back through the write engine (lib/settings/txn.c).
 */
#ifndef MLX_JOURNAL_H
#define MLX_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "mlx.h"

struct mlx_journal;

/* A new journal for a transaction on @ctx's system, locked, its header
 * written: 0 or -errno with the story. */
int mlx_journal_begin(struct mlx_ctx *ctx, struct mlx_journal **j);
/* Records of the transaction (@lines, each one line of text), synced to
 * disk before the return: what the next write is allowed to change. */
int mlx_journal_step(struct mlx_journal *j, const char *const *lines, size_t n);
/* The end: @committed, the changes stay (the clean-ups run); else they
 * were put back.  The file goes either way, unless @keep (the put-back
 * failed: a recovery must try again).  Frees @j. */
void mlx_journal_end(struct mlx_journal *j, bool committed, bool keep);

/* The write-ahead undo log of a captured system (ctx's journal, when a
 * transaction on a captured system runs; else nothing is done).  Each is
 * called before the change it names; -errno stops the change. */
int mlx_journal_file(struct mlx_ctx *ctx, const char *path);
int mlx_journal_mkdir(struct mlx_ctx *ctx, const char *path);
int mlx_journal_link(struct mlx_ctx *ctx, const char *path);
int mlx_journal_unlink(struct mlx_ctx *ctx, const char *path, const char *target);
int mlx_journal_move(struct mlx_ctx *ctx, const char *path, const char *aside);
/* Remove the directory @aside (put aside by a move) when the transaction
 * ends: 1 when the journal takes it, 0 when no transaction runs (the
 * caller removes it now). */
int mlx_journal_cleanup(struct mlx_ctx *ctx, const char *aside);

/* An interrupted transaction's journal, found by mlx_journal_list. */
struct mlx_journal_found {
	char path[4096];
	long pid;
	long long started;        /* Unix time */
	bool alive;               /* its writer still runs */
};
/* Remove what a writer that died while making its journal left (it had
 * changed nothing yet). */
void mlx_journal_sweep(struct mlx_ctx *ctx);
/* The journals of @ctx's system: @fn per journal; how many (or -errno). */
int mlx_journal_list(struct mlx_ctx *ctx, void (*fn)(void *arg, const struct mlx_journal_found *f),
		     void *arg);

/* A journal being recovered. */
struct mlx_journal_rec {
	int fd;                   /* locked */
	const char *path;
	long pid;
	bool committed;
	char **lines;             /* its H records, in order */
	size_t nlines;
	bool files;               /* its changes are files (a captured system): replay them */
	void *undo;               /* the undo log */
	size_t nundo;
};
/*
 * Take journal @path (its lock: -EBUSY when its writer still runs) and
 * read it: @r holds its H records, with which the caller takes the locks
 * of the devices it names and then, for a captured system, has
 * mlx_journal_replay() put the files back (nothing when it was committed:
 * only its clean-ups), or puts back a live system's settings itself; then
 * mlx_journal_close(r, done): @done removes the file.
 */
int mlx_journal_open(struct mlx_ctx *ctx, const char *path, struct mlx_journal_rec *r);
int mlx_journal_replay(struct mlx_ctx *ctx, struct mlx_journal_rec *r);
void mlx_journal_close(struct mlx_journal_rec *r, bool done);

#endif /* MLX_JOURNAL_H */
