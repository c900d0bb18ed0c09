/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Incident folders are evidence (DESIGN.md "Snapshots"): mlxcli reads them
 * and never writes into them.  An incident is a folder holding a
 * dump-me-now manifest (manifest.json, "format": "mlxcli-dmn"); a path is
 * inside one when that folder is found walking up from it, through the
 * path as given and through the place a bind mount shows elsewhere
 * (/proc/self/mountinfo).  Its snapshot's tree is hashed into the
 * manifest, so a change is detectable (`dump-me-now verify`).
 */
#ifndef MLX_INCIDENT_H
#define MLX_INCIDENT_H

#include <stdbool.h>
#include <stddef.h>

struct mlx_ctx;

/* The incident folder (malloc'ed) @path is inside of, or NULL.  @path is a
 * host path that need not exist yet (what would be created is judged by
 * its deepest existing folder). */
char *mlx_incident_of(const char *path);

/* 0 when @path may be written; -EROFS with the story in @ctx when it is
 * inside an incident.  Every writer of a host file the user names asks
 * (--output, snapshot DIR, dump-me-now --dir). */
int mlx_incident_guard(struct mlx_ctx *ctx, const char *path);
/* 0 when new incidents of @ctx's target may go to the dump root @dir;
 * -EINVAL with the story when the target is a captured system and the
 * root was not named for this run (@named false: the default root, or
 * /etc/mlxcli.conf's, holds this host's own incidents, among which a
 * capture's would read as this machine's evidence); then, as
 * mlx_incident_guard, -EROFS for a root inside an incident. */
int mlx_incident_root_guard(struct mlx_ctx *ctx, const char *dir, bool named);

/* Is the manifest text a dump-me-now manifest? (its "format") */
bool mlx_incident_manifest_is(const char *text, size_t len);

/*
 * The SHA-256 of the tree at @path (a host directory), as 64 hex digits:
 * the hash of its listing, one line per entry in name order, depth
 * first ("d PATH", "l PATH TARGET", "f PATH SHA256-OF-CONTENT", "o PATH"
 * for any other kind), PATH relative to the tree, links never followed.
 * 0 or -errno.
 */
int mlx_tree_sha256(const char *path, char hex[65]);

#endif
