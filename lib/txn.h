/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The write transaction (DESIGN.md "The settings model", issue 26): every
 * write command, apply and each `set` verb, is one.  A transaction is a
 * list of steps, each one subsystem (lib/settings.h's table) of one port
 * going from what it holds to what a desired state asks:
 *
 *   plan (optional, dry: no lock) -> confirmation by the caller, from the
 *   plan -> run: finish the rollback of an interrupted transaction first;
 *   the locks of every device it touches, in address order; signals held;
 *   per step, in order: plan again under the locks, journal the changes
 *   with their old values (lib/journal.h), write them, read them back; on
 *   any failure, or SIGINT/SIGTERM/SIGHUP, put back what it wrote, newest
 *   first, across steps and subsystems.
 *
 * Nothing calls back into the caller while a lock is held: a plan is a
 * function of the device and the desired state, and a change that
 * destroys other settings (MLX_CHG_DESTROYS) goes ahead only when the
 * caller confirmed it before the run (MLX_TXN_DESTROY_OK), and only as
 * confirmed (the old value the run reads is the one the dry plan showed).
 */
#ifndef MLX_TXN_H
#define MLX_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "settings.h"
#include "write.h"

struct mlx_txn;

enum mlx_txn_flag {
	MLX_TXN_DESTROY_OK = 1u << 0,  /* a change that destroys settings may go ahead (--yes) */
	/* ... only as the dry plan showed it (a terminal's answer named the
	 * count and what it loses): else -ECANCELED, nothing written */
	MLX_TXN_DESTROY_AS_PLANNED = 1u << 2,
	/* mlx_txn_plan: stop after the first step with a change that destroys
	 * settings (-ECANCELED): it needs a confirmation before the rest of
	 * the plan (a VF of a count to be) means anything */
	MLX_TXN_STOP_AT_DESTROY = 1u << 1,
	/* a held signal is delivered again when the run ends (to the
	 * caller's handler: dump-me-now stops between items), not only
	 * said in the result */
	MLX_TXN_REDELIVER = 1u << 3,
};

struct mlx_txn_result {
	long step;                /* the step that failed; -1 none */
	bool in_plan;             /* its subsystem refused a desired value ... */
	bool action;              /* it was an action (mlx_txn_add_action) */
	const char *where;        /* ... this one ("tcs", "sriov.num_vfs"); "" none */
	enum mlx_write_phase phase;   /* where the failed step stopped */
	long change;              /* its change that failed; -1 none */
	bool written;             /* the failed step had written */
	size_t nback;             /* earlier steps put back */
	bool back_ok;             /* ... and every put-back held */
	int signal;               /* the signal that stopped it (SIGINT...); 0 none */
	size_t nrecovered;        /* interrupted transactions finished first */
	char recovered[400];      /* ... their story, for a warning ("" none) */
};

int mlx_txn_new(struct mlx_ctx *ctx, struct mlx_txn **t);
void mlx_txn_free(struct mlx_txn *t);
/*
 * The step of subsystem @sub for port @tg towards @want (its @vf-th VF for
 * MLX_SUB_VF): the index, or -errno.  @tg's pointers and @want are
 * borrowed until the transaction is freed.
 */
int mlx_txn_add(struct mlx_txn *t, enum mlx_sub sub, const struct mlx_port_ref *tg,
		const struct mlx_port_settings *want, size_t vf);

/*
 * Actions: no settings, but written through the same engine (the lock,
 * the dry run, the change record, the signals held, the confirmation a
 * change that destroys needs); they cannot be put back, so a transaction
 * holds one as its last step, or alone.
 */
enum mlx_action {
	MLX_ACT_RELOAD,           /* devlink reload driver_reinit of @tg's function */
	MLX_ACT_LINK_RESTART,     /* @tg's netdev down, then up */
	MLX_ACT_DUMP_CLEAR,       /* forget the dump of @obj, a struct mlx_health_reporter
				   * of @tg's function (borrowed) */
	MLX_ACT_HEALTH_RECOVER,   /* recover the reporter @obj (a struct mlx_health_reporter
				   * of @tg's function) now */
	MLX_ACT_FW_FLASH,         /* flash @obj, a struct mlx_fw_flash (lib/fw.h), into @tg's
				   * function through devlink */
	MLX_ACT_FW_ACTIVATE,      /* devlink reload fw_activate of @tg's function; @obj a
				   * struct mlx_fw_activate (lib/fw.h) */
	MLX_NACT
};
int mlx_txn_add_action(struct mlx_txn *t, enum mlx_action act, const struct mlx_port_ref *tg,
		       const void *obj);

/* Plan every step as a dry run (no lock, nothing written).  0 or -errno
 * with the story; mlx_txn_result says which step and why. */
int mlx_txn_plan(struct mlx_txn *t, unsigned flags);
/* Progress of mlx_txn_plan and mlx_txn_run over many steps (apply of many
 * ports): @fn gets the steps done and their count before each step and
 * once all are done (NULL: none).  It must not write to the device. */
void mlx_txn_set_progress(struct mlx_txn *t, void (*fn)(void *arg, size_t done, size_t total),
			  void *arg);
/* May this process write every step at all (a captured system cannot
 * reload a driver; evidence is never written)?  Checked by the run before
 * any lock; the caller may ask before it asks a person.  0 or -errno with
 * the story; mlx_txn_result says which step. */
int mlx_txn_may_write(struct mlx_txn *t);
/* Run it for real.  0, or -errno with the story (-EINTR: a signal). */
int mlx_txn_run(struct mlx_txn *t, unsigned flags);

size_t mlx_txn_nsteps(const struct mlx_txn *t);
struct mlx_txn_step {
	const struct mlx_subsys *sub;
	const struct mlx_port_ref *target;
	size_t vf;
	const struct mlx_plan *plan;   /* the last plan (the run's, else the dry one) */
	void *writer;             /* the subsystem's writer (lib/<feature>.h) */
};
void mlx_txn_step(const struct mlx_txn *t, size_t i, struct mlx_txn_step *s);
const struct mlx_txn_result *mlx_txn_result(const struct mlx_txn *t);
/* Does the plan hold a change that destroys other settings? */
bool mlx_txn_destroys(const struct mlx_txn *t);

/* ---- interrupted transactions (lib/journal.h) ---- */

struct mlx_txn_pending {
	size_t n;                 /* interrupted ones (their writer is gone) */
	long pid;                 /* the first one's writer */
	long long started;        /* ... and its start (Unix time) */
};
/* Is one of @ctx's system pending?  Cheap: read commands ask. */
void mlx_txn_pending(struct mlx_ctx *ctx, struct mlx_txn_pending *p);

struct mlx_txn_recovery {
	size_t n;                 /* journals finished */
	size_t nfailed;           /* ... and could not be */
	size_t nchanges;          /* changes put back (a live system's) */
	char story[400];          /* what was done, or why not */
};
/*
 * Finish the rollback of every interrupted transaction of @ctx's system:
 * a captured system's files as they were (and the emulators' temporary
 * files and directories put aside gone), a live system's settings put
 * back through the write engine, each device's lock held.  @forget: drop
 * the journals instead (a device that is gone).  0, or -errno with the
 * story (a journal stays to be tried again).
 */
int mlx_txn_recover(struct mlx_ctx *ctx, bool forget, struct mlx_txn_recovery *rep);

#endif /* MLX_TXN_H */
