/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libmlx: the device-access library behind mlxcli.
 *
 * Contract (DESIGN.md "Layers"): everything hangs off one struct mlx_ctx;
 * functions return 0 or a negative errno and never print or exit.  When a
 * failure has a story worth telling (which file, which device, which
 * firmware status), the function records it with mlx_err() and the caller
 * reads it back with mlx_errmsg().
 */
#ifndef MLX_H
#define MLX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct mlx_ctx;

/* Log levels for the optional sink; the CLI maps -v to MLX_LOG_DEBUG. */
enum mlx_log_level { MLX_LOG_ERR, MLX_LOG_WARN, MLX_LOG_INFO, MLX_LOG_DEBUG };
typedef void (*mlx_log_fn)(void *data, enum mlx_log_level lvl, const char *msg);

/*
 * Create a context for the system rooted at @root ("/" for the live one).
 * Returns 0 or -errno; on -ENOENT/-ENOTDIR/-EINVAL *errmsg (static storage
 * of the caller's choosing is not needed: a malloc'ed copy the caller
 * frees) says why the root is not a usable system.
 */
int mlx_ctx_new(const char *root, struct mlx_ctx **out, char **errmsg);
void mlx_ctx_free(struct mlx_ctx *ctx);

const char *mlx_root(const struct mlx_ctx *ctx);
/*
 * The kernel boundary (lib/core/boundary-*.c) is chosen once, by
 * mlx_ctx_new(): the running kernel for "/", a captured system (recorded
 * replies plus the emulators of lib/emul/) for any other root.  Features
 * and cmd/ never ask which one they have: they call an operation, and a
 * captured system answers it from its recording, with an emulator, or
 * with -EOPNOTSUPP/-EROFS and the story (mlx_errmsg).
 */
/*
 * Does this process hold the privilege the target demands of a change
 * only root may make (config-space writes for the CR space, a PF's
 * sriov_numvfs)?  Live: effective uid 0.  A captured system: true, its
 * files' permissions decide (a write they refuse is -EACCES).
 */
bool mlx_kernel_privileged(struct mlx_ctx *ctx);
/* What the target is, for people and manifests: "live", or the root. */
const char *mlx_target_name(const struct mlx_ctx *ctx);
/*
 * The kernel log of the target, whole, as text with one record per line
 * ("<prio>,<seq>,<usec>,<flags>;message" from /dev/kmsg live; the lines of
 * ROOT/var/log/kern.log on a captured system) in *text (malloc'ed, NUL-
 * terminated); *source names where it came from ("/dev/kmsg",
 * "/var/log/kern.log").  0 or -errno (mlx_errmsg says why).
 */
int mlx_kmsg_read(struct mlx_ctx *ctx, char **text, size_t *len, const char **source);
/* The absolute path of the running program (not of the target: the
 * binary itself), for a build tree finding its own files.  0 or -errno. */
int mlx_self_path(char *buf, size_t len);
/*
 * This user's runtime directory ($XDG_RUNTIME_DIR, which cmd/ reads: lib/
 * never calls getenv), where the locks of captured systems go (lib/lock.h);
 * NULL or an unusable one: lib/core/lock.c falls back.  0 or -ENOMEM.
 */
int mlx_ctx_set_runtime_dir(struct mlx_ctx *ctx, const char *dir);
/* The root is the snapshot of a dump-me-now incident: evidence, which no
 * write may change (DESIGN "Snapshots"). */
bool mlx_is_evidence(const struct mlx_ctx *ctx);
void mlx_set_log(struct mlx_ctx *ctx, mlx_log_fn fn, void *data, enum mlx_log_level max);
void mlx_log(struct mlx_ctx *ctx, enum mlx_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The last error detail.  mlx_err() stores a message and returns -err so a
 * caller can write `return mlx_err(ctx, ENOENT, "...")`.
 */
int mlx_err(struct mlx_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *mlx_errmsg(const struct mlx_ctx *ctx);
void mlx_err_clear(struct mlx_ctx *ctx);

/* ---- root-prefixed files (lib/core/rootfs.c) ---------------------------------
 * Every path the library touches is an absolute path of the *target*
 * system ("/sys/class/net/eth0/speed"); these helpers put the root in
 * front.  Nothing else in lib/ may open a file by name.
 */
int mlx_path(const struct mlx_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * A working directory for relative paths: after mlx_chdir(ctx, "/sys/bus/
 * pci/devices/0000:5e:00.0"), "net" and "numa_node" name files below it.
 * The directory is resolved once (symlinks included), which is what makes
 * reading 30 attributes of 2,000 functions cheap; a relative path may not
 * climb out of it.  mlx_chdir(ctx, NULL) forgets it.
 */
int mlx_chdir(struct mlx_ctx *ctx, const char *path);
/* Read a whole (small) file; NUL-terminated, trailing newline kept. */
int mlx_read_file(struct mlx_ctx *ctx, const char *path, char **data, size_t *len);
/* Read a one-line value, trailing whitespace stripped, into buf. */
int mlx_read_str(struct mlx_ctx *ctx, const char *path, char *buf, size_t len);
/* Read an integer (decimal, or 0x hex) file. -EINVAL when not a number. */
int mlx_read_u64(struct mlx_ctx *ctx, const char *path, uint64_t *val);
int mlx_read_s64(struct mlx_ctx *ctx, const char *path, int64_t *val);
/* Binary read of at most len bytes from offset 0; returns bytes read. */
ssize_t mlx_read_bin(struct mlx_ctx *ctx, const char *path, void *buf, size_t len);
/* readlink(); returns the last path component of the target in buf. */
int mlx_readlink_base(struct mlx_ctx *ctx, const char *path, char *buf, size_t len);
int mlx_readlink(struct mlx_ctx *ctx, const char *path, char *buf, size_t len);
bool mlx_exists(struct mlx_ctx *ctx, const char *path);
bool mlx_is_dir(struct mlx_ctx *ctx, const char *path);
/* 0 when @path is a directory, else -errno: -EACCES (this user may not
 * enter it) is not -ENOENT (it is not there). */
int mlx_dir_probe(struct mlx_ctx *ctx, const char *path);
/*
 * Changes to the tree of a captured system (the emulators' commit and
 * undo), each resolved inside the root as reads are: the parent directory
 * through mlx_open() (RESOLVE_IN_ROOT, or the walk of mlx_open_walk()),
 * the last component by name from that directory's fd, never followed.
 * A link of the capture, absolute or "..", can never make one of them
 * create, rename or remove anything outside the root.  Each asks
 * mlx_may_write() first.  0 or -errno.
 */
int mlx_mkdir(struct mlx_ctx *ctx, const char *path, mode_t mode);
int mlx_symlink(struct mlx_ctx *ctx, const char *target, const char *path);
/* a file or a link (never a directory) */
int mlx_unlink(struct mlx_ctx *ctx, const char *path);
/* @from and @to in the same directory or not; neither last component followed */
int mlx_rename(struct mlx_ctx *ctx, const char *from, const char *to);
/* rm -rf of @path: directories opened O_NOFOLLOW from their parent's fd,
 * links removed as links; 0 when @path does not exist */
int mlx_remove_tree(struct mlx_ctx *ctx, const char *path);
/*
 * Replace a file of a captured system as one step (new file beside it,
 * renamed over the old one): a failure leaves the old bytes, a reader
 * never sees half a file.  For the recorded state that emulators update.
 */
int mlx_replace_file(struct mlx_ctx *ctx, const char *path, const void *data, size_t len);
/* Write a value the way sysfs wants it: one write(2) of the whole string. */
int mlx_write_str(struct mlx_ctx *ctx, const char *path, const char *val);
/*
 * List the entries of a directory (no "." or ".."), sorted by name.
 * *names is a NULL-terminated array freed with mlx_strv_free().
 */
int mlx_list_dir(struct mlx_ctx *ctx, const char *path, char ***names, size_t *n);
/* The same of the directory open at @fd (any directory: a local tree too;
 * reads it from its current offset): sorted, NULL-terminated. */
int mlx_dir_names(int fd, char ***names, size_t *n);
void mlx_strv_free(char **v);

/*
 * A name that came from the kernel or the user and is about to become a
 * path component: no '/', not "." or "..", no control characters, at most
 * 255 bytes.  (DESIGN.md "Security".)
 */
bool mlx_name_is_safe(const char *name);

/* Parse "0x..", decimal; full string, no sign, no overflow. */
int mlx_parse_u64(const char *s, uint64_t *val);

#endif /* MLX_H */
