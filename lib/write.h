/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The write engine (DESIGN.md "Writes", "One write engine"): every command
 * that changes a device goes through mlx_write_run():
 *
 *   lock -> read the old values -> plan (the feature validates, clamps,
 *   adds what a write disturbs) -> write each change -> read each back ->
 *   on a failed write or a read-back that differs, put back what was
 *   written, newest first, and say so in mlx_errmsg.
 *
 * The lock is taken before the first read, so the old values are the ones
 * the writes replace: a second writer waits and then reads our result.
 * Features plug in through struct mlx_write_ops; what they return is one
 * change record per setting (struct mlx_change: typed old and new values
 * with a unit), which cmd/ renders once for every write command.
 */
#ifndef MLX_WRITE_H
#define MLX_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlx.h"

/* A setting's value, typed: JSON renders it as a number, boolean, string,
 * list of numbers, or null (unknown: a value the kernel does not report). */
enum mlx_val_kind {
	MLX_VAL_NULL,
	MLX_VAL_UINT,
	MLX_VAL_INT,
	MLX_VAL_BOOL,
	MLX_VAL_STR,
	MLX_VAL_U8LIST,           /* per priority or per TC: 8 entries, or 64 for DSCP;
				   * MLX_VAL_U8_NONE: no value there (JSON null) */
	MLX_VAL_U32LIST,          /* up to 8 */
	MLX_VAL_STRLIST,          /* up to 8 short names (a TC's TSA) */
};

#define MLX_VAL_U8_NONE 0xff

#define MLX_VAL_STR_MAX 48
#define MLX_VAL_LIST_MAX 64

struct mlx_val {
	enum mlx_val_kind kind;
	uint8_t n;                /* list length */
	union {
		uint64_t u;
		int64_t i;
		bool b;
		char s[MLX_VAL_STR_MAX];
		uint8_t u8[MLX_VAL_LIST_MAX];
		uint32_t u32[8];
		char sl[8][8];
	};
};

struct mlx_val mlx_val_null(void);
struct mlx_val mlx_val_uint(uint64_t u);
struct mlx_val mlx_val_int(int64_t i);
struct mlx_val mlx_val_bool(bool b);
/* Truncated to MLX_VAL_STR_MAX - 1 bytes. */
struct mlx_val mlx_val_str(const char *s);
struct mlx_val mlx_val_u8list(const uint8_t *v, size_t n);
struct mlx_val mlx_val_u32list(const uint32_t *v, size_t n);
/* Each name truncated to 7 bytes. */
struct mlx_val mlx_val_strlist(const char *const *v, size_t n);
/* Same kind and same value (two nulls are equal). */
bool mlx_val_eq(const struct mlx_val *a, const struct mlx_val *b);
/* For messages: "5000", "on", "02:00:..", "0,1,1,0,...", "unknown"; in a
 * list "-" where an entry has no value. */
void mlx_val_fmt(const struct mlx_val *v, char *buf, size_t len);
/* One word, no blank (a journal's field): -ENOSPC when @len is short. */
int mlx_val_encode(const struct mlx_val *v, char *buf, size_t len);
/* ... and back: -EBADMSG for what no mlx_val_encode wrote. */
int mlx_val_decode(const char *text, struct mlx_val *v);

/* One setting of a write: the change record every write command returns. */
struct mlx_change {
	char setting[40];         /* snake_case name: "vlan", "max_tx_rate", "rpg_ai_rate" */
	/* The name people know it by where that is another (DCQCN's mlx5cmd
	 * name, DcqcnRpgAiRate): text output and messages; "" none. */
	char label[40];
	const char *unit;         /* "mbps", "usec", ...; NULL: none */
	struct mlx_val old;       /* read under the lock */
	struct mlx_val new;       /* what is written (after the plan's clamps) */
	bool changed;             /* old differs from new: set by the engine */
	/* Written even when unchanged: an earlier write of the plan resets it
	 * (the driver's side effect), so it must be written back after. */
	bool rewrite;
	const char *note;         /* why new is not what was asked, ...; NULL */
	/* What the plan found (enum mlx_change_flag): cmd/ words warnings
	 * and asks for confirmation from these, not from the note's text. */
	unsigned flags;
	/* The feature's own keys for this setting (table index, side, VF). */
	int id, arg;
	/* Engine state. */
	bool have_old;            /* old was read */
	bool written;             /* new was written (the write succeeded) */
};

enum mlx_change_flag {
	MLX_CHG_CLAMPED = 1u << 0,      /* new was lowered to a limit (the line rate) */
	MLX_CHG_DISABLES = 1u << 1,     /* new turns the function off (DCQCN at the line rate) */
	MLX_CHG_DESTROYS = 1u << 2,     /* the write destroys other settings (numvfs between
					 * two non-zero counts): it needs a confirmation */
	MLX_CHG_ACTION = 1u << 3,       /* no setting: an action done (a reload); old is null */
	MLX_CHG_NULL_NONE = 1u << 4,    /* null is "none" (no such child netdev), not unknown */
};

/* An ordered list of changes: they are written in this order. */
struct mlx_plan {
	struct mlx_change *c;
	size_t n, cap;
	/* A plan that failed on a desired value: where that value is in the
	 * desired state ("tcs[2].tc", "sriov.num_vfs"), "" when it is no one
	 * value's fault. */
	char where[64];
	/* What the plan did that the user should know ("installed the
	 * default map for the 8 DSCP values that had no entry"). */
	char **notes;
	size_t nnotes;
};

/*
 * Append a change of @setting (copied) to @new.  Returns its index, or
 * -ENOMEM.  A pointer into pl->c is valid until the next add.
 */
int mlx_plan_add(struct mlx_plan *pl, const char *setting, const char *unit, int id, int arg,
		 struct mlx_val new);
/* The change of @setting, or NULL. */
struct mlx_change *mlx_plan_find(struct mlx_plan *pl, const char *setting);
/* Add a note (copied); -ENOMEM. */
int mlx_plan_note(struct mlx_plan *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mlx_plan_free(struct mlx_plan *pl);
/* How many of the changes change something. */
size_t mlx_plan_nchanged(const struct mlx_plan *pl);

/*
 * A feature's side of the engine.  @feat is the feature's own state (the
 * port, the VF, a cache of what was read).  Every callback returns 0 or
 * -errno and leaves the story in mlx_errmsg.
 */
struct mlx_write_ops {
	/* Read the current value of @c's setting.  NULL: the changes are
	 * actions (a devlink reload, a link restart): no old value (null), no
	 * read-back, no put-back. */
	int (*read)(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    struct mlx_val *out);
	/*
	 * Optional: after every old value is read, validate against them,
	 * clamp c->new (and set c->note), order, or add changes (a setting
	 * an earlier write resets, with rewrite set).  The engine reads the
	 * old value of what it adds.
	 */
	int (*plan)(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl);
	/* Write @v as @c's setting (new on the way in, old on a put-back). */
	int (*write)(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		     const struct mlx_val *v);
	/*
	 * Optional: send what the writes since the last flush gathered.  A
	 * feature whose settings share one kernel request (a VF's settings
	 * are one all-or-nothing RTM_SETLINK set) gathers them in write()
	 * and sends them here, and sends nothing when they hold what the
	 * device holds.  Called after the writes, after the put-back, and
	 * after each second-pass write.
	 */
	int (*flush)(struct mlx_ctx *ctx, void *feat);
	/* Optional: does @got, read back, hold @want?  NULL: mlx_val_eq. */
	bool (*same)(const struct mlx_change *c, const struct mlx_val *want,
		     const struct mlx_val *got);
};

struct mlx_write_req {
	const char *lock;         /* the device to lock (its PCI address) */
	const char *on;           /* the device in messages ("enp8s0f0"); NULL: none */
	bool dry_run;             /* read and plan only: no lock, no write */
};

/* What happened, for the message and the exit code. */
enum mlx_write_phase { MLX_WRITE_LOCK, MLX_WRITE_READ, MLX_WRITE_PLAN, MLX_WRITE_WRITE };

struct mlx_write_result {
	enum mlx_write_phase phase;   /* where it stopped (on success: the last reached) */
	size_t nwritten;          /* writes done before the failure */
	long failed;              /* index of the change that failed; -1 none */
	bool readback;            /* it failed on its read-back, not on its write */
	struct mlx_val got;       /* ... which read this */
	int restore_err;          /* 0, or the first -errno of the put-back */
};

/*
 * Run @pl (c->setting, c->new, the feature keys filled by the caller).
 * On success every change has its old value and `changed`, and (not
 * dry_run) every changed value reads back as written.  On a failure after
 * a write, what was written is put back newest first; mlx_errmsg says what
 * failed, on what, and whether the put-back held.  Returns 0 or -errno.
 */
int mlx_write_run(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		  const struct mlx_write_req *req, struct mlx_plan *pl,
		  struct mlx_write_result *res);

/*
 * The steps of mlx_write_run(), for a transaction of many (lib/txn.h),
 * which takes the locks itself:
 *  - mlx_write_prepare: read the old values, the feature's plan, which
 *    changes change something (res->phase says where it stopped);
 *  - mlx_write_commit: write the changed ones, send, read back; on a
 *    failure put back what it wrote (newest first) and say so.  Before
 *    each write and each read-back it asks @guard (NULL: none) whether
 *    to stop: then it puts back what it wrote and returns -EINTR, with
 *    "interrupted" in mlx_errmsg and the put-back's outcome in @res;
 *  - mlx_write_undo: put back a step that mlx_write_commit completed
 *    (its written changes, newest first, each read back).
 */
struct mlx_write_guard {
	bool (*stop)(void *arg);
	void *arg;
};

int mlx_write_prepare(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		      const struct mlx_write_req *req, struct mlx_plan *pl,
		      struct mlx_write_result *res);
int mlx_write_commit(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		     const struct mlx_write_req *req, struct mlx_plan *pl,
		     struct mlx_write_result *res, const struct mlx_write_guard *guard);
int mlx_write_undo(struct mlx_ctx *ctx, const struct mlx_write_ops *ops, void *feat,
		   struct mlx_plan *pl);

#endif /* MLX_WRITE_H */
