/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dump Me Now incident folders (WinOF "DMN", reference
 * seeds-mlxtool-dmn-counters.md §2): the folder name, the cyclic retention
 * with a preserved head, the small key=value configuration file, and the
 * safe creation of a folder (temporary name, mode 0700, O_EXCL|O_NOFOLLOW
 * files, rename into place when complete).
 *
 * Paths here are host paths (where mlxcli writes), not target paths.
 */
#ifndef MLX_DMN_H
#define MLX_DMN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* The manual's registry defaults: DumpMeNowTotalCount 128,
 * DumpMeNowPreservedCountMin 8; both range 0..0xFFFF. */
#define MLX_DMN_TOTAL_DEFAULT 128
#define MLX_DMN_PRESERVED_DEFAULT 8
#define MLX_DMN_COUNT_MAX 0xffff
#define MLX_DMN_DIR_DEFAULT "/var/lib/mlxcli/dmn"
#define MLX_DMN_NAME_MAX 200

/* ---- key=value configuration (/etc/mlxcli.conf) ----
 * Pure.  Lines "key = value"; '#' starts a comment line; blank lines
 * skipped; whitespace around key and value trimmed; keys [a-z0-9_]+;
 * values up to the end of the line (no quoting).  @cb sees each pair and
 * returns 0, -EINVAL (a bad value) or -ENOENT (an unknown key); then that
 * line is the bad one: the call returns the callback's code (-EINVAL for
 * bad syntax), *bad_line is the 1-based line and @err the reason.
 */
typedef int (*mlx_conf_cb)(const char *key, const char *value, void *arg);
int mlx_conf_parse(const char *text, size_t len, mlx_conf_cb cb, void *arg, size_t *bad_line,
		   char *err, size_t errlen);

/* ---- names ----
 * dmn-<device>-<type>-<source>-<reason>--<YYYY.MM.DD-HH.MM.SS.mmm>-<pid>.<n>
 * The Windows scheme (dmn-<device name>-<type>-<source>-<reason>--<time>)
 * with the time in UTC, year first so that names sort by time, and the
 * pid and a per-process counter so two calls never collide.  Components
 * are made path-safe: anything but [A-Za-z0-9_.] (the '-' separator
 * included) becomes '_', at most 48 bytes each; an empty one is "NA".
 */
int mlx_dmn_name(char *buf, size_t len, const char *device, const char *type, const char *source,
		 const char *reason, const struct timespec *ts, pid_t pid, unsigned counter);

struct mlx_dmn_entry {
	char name[MLX_DMN_NAME_MAX + 1];
	char device[64], type[32], source[32], reason[64];
	/* @device decoded: the folder writes a PCI address with '_' for ':'
	 * (a path holds no ':' on every file system); "" when it is not one */
	char pci_address[64];
	char stamp[24];              /* "YYYY.MM.DD-HH.MM.SS.mmm" */
	unsigned long pid, counter;
};
/* Parse a folder name; -EINVAL when it is not an incident name.  Pure. */
int mlx_dmn_name_parse(const char *name, struct mlx_dmn_entry *e);
/* Oldest first: stamp, then pid, then counter. */
int mlx_dmn_entry_cmp(const void *a, const void *b);

/*
 * Retention (manual §2.5): at most @total incidents; the first @preserved
 * ever made are kept forever; each new one beyond @total replaces the
 * oldest of the others.  Pure.
 *   mlx_dmn_may_create: before making a new one, with @n existing:
 *     -ECANCELED  total is 0 (dumps disabled)
 *     -ENOSPC     every one of the @total slots is preserved
 *   mlx_dmn_plan: with @n incidents sorted oldest first (the new one
 *     included), the ones to remove are [*first, *first + *count).
 * preserved >= total is taken as "preserve all": then no room is made.
 */
int mlx_dmn_may_create(size_t n, unsigned total, unsigned preserved);
void mlx_dmn_plan(size_t n, unsigned total, unsigned preserved, size_t *first, size_t *count);

/* The incidents under @root, oldest first (directories only, links and
 * temporary folders skipped).  *out malloc'ed. */
int mlx_dmn_list(const char *root, struct mlx_dmn_entry **out, size_t *n);

/* ---- building one incident ---- */
struct mlx_dmn_incident {
	char root[4096];
	char name[MLX_DMN_NAME_MAX + 1];
	char tmp[MLX_DMN_NAME_MAX + 16];  /* ".tmp-<name>" in root */
	int root_fd, dir_fd;
	bool committed;
};

/* Create @root (0700, parents too) when missing; refuse a symlink. */
int mlx_dmn_root_prepare(const char *root);
/* mkdir ROOT/.tmp-NAME (0700, fails if it exists). */
int mlx_dmn_begin(struct mlx_dmn_incident *inc, const char *root, const char *name);
/* A new file in the incident: O_CREAT|O_EXCL|O_NOFOLLOW, 0600. fd or -errno. */
int mlx_dmn_create(struct mlx_dmn_incident *inc, const char *file);
/* Host path of something inside the temporary folder. */
int mlx_dmn_tmp_path(const struct mlx_dmn_incident *inc, const char *file, char *buf, size_t len);
/* fsync, rename into place (never over an existing name). */
int mlx_dmn_commit(struct mlx_dmn_incident *inc);
/* Remove the temporary folder unless committed; close fds. */
void mlx_dmn_end(struct mlx_dmn_incident *inc);

#endif
