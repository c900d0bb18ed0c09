/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dump-me-now verify [PATH]`: is an incident still what was
 * dumped?  Each item the manifest lists with a SHA-256 is hashed again
 * (a file: its bytes; the snapshot folder: its tree, lib/incident.h) and
 * compared; an item that is gone or differs makes the incident "changed"
 * (exit 1).  Without PATH, every incident of the dump root.  Reads only.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmn-cmd.h"
#include "dmn.h"
#include "incident.h"
#include "sha256.h"

/* The SHA-256 of the item @name of @dir now: a regular file's bytes or a
 * folder's tree; -errno when it cannot be read (gone: -ENOENT). */
static int item_sha(const char *dir, const char *name, char hex[65])
{
	char path[8400];
	struct mlx_sha256 s;
	uint8_t d[32], buf[65536];
	struct stat st;
	ssize_t n;
	int fd;

	if (!mlx_name_is_safe(name) && !strchr(name, '/'))
		return -EINVAL;
	if (strstr(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return mlx_tree_sha256(path, hex);
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	mlx_sha256_init(&s);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return (int)n;
		}
		mlx_sha256_update(&s, buf, (size_t)n);
	}
	close(fd);
	mlx_sha256_final(&s, d);
	mlx_sha256_hex(d, hex);
	return 0;
}

/* One incident folder; true when intact. */
static bool verify_one(struct cli *cli, const char *dir, int *worst)
{
	struct dmn_manifest *m;
	struct out *o = cli->out;
	char mpath[8400], err[200];
	bool intact = true;
	size_t checked = 0;

	snprintf(mpath, sizeof(mpath), "%s/manifest.json", dir);
	m = dmn_manifest_load(mpath, err, sizeof(err));
	out_obj_begin(o, NULL, NULL);
	out_str(o, "path", "incident", dir);
	if (!m) {
		out_str(o, "result", "result", "unreadable");
		out_str(o, "reason", "reason", err);
		out_obj_end(o);
		*worst = EXIT_FAIL;
		return false;
	}
	out_table_begin(o, "items");
	for (size_t i = 0; i < m->nitems; i++) {
		const struct dmn_item *it = &m->items[i];
		const char *res;
		char now[65] = "";
		int r;

		if (!it->sha256[0]) {
			res = "no_hash";   /* nothing recorded to check against */
		} else {
			r = item_sha(dir, it->name, now);
			res = r == -ENOENT ? "missing" : r < 0 ? "unreadable" :
			      strcmp(now, it->sha256) ? "changed" : "ok";
			checked++;
		}
		if (strcmp(res, "ok") && strcmp(res, "no_hash"))
			intact = false;
		out_row_begin(o);
		out_str(o, "name", "ITEM", it->name);
		out_str(o, "result", "RESULT", res);
		out_fmt_str(o, OUT_JSON, "sha256", NULL, it->sha256[0] ? it->sha256 : NULL);
		out_fmt_str(o, OUT_JSON, "sha256_now", NULL, now[0] ? now : NULL);
		out_row_end(o);
	}
	out_table_end(o);
	out_u64(o, "items_checked", "items checked", checked);
	out_str(o, "result", "result", intact ? "intact" : "changed");
	out_obj_end(o);
	dmn_manifest_free(m);
	if (!intact)
		*worst = EXIT_FAIL;
	return intact;
}

int dmn_verify(struct cli *cli, const char *arg)
{
	struct dmn_settings s;
	struct mlx_dmn_entry *e = NULL;
	char path[8400];
	size_t n = 0;
	int r, worst = EXIT_OK;

	r = dmn_load_settings(cli, &s);
	if (r)
		return r;
	out_list_begin(cli->out, "incidents", NULL);
	if (arg) {
		if (!strchr(arg, '/')) {
			if (!mlx_name_is_safe(arg)) {
				cli_error(cli, "invalid incident name '%s'", arg);
				return EXIT_USAGE;
			}
			snprintf(path, sizeof(path), "%s/%s", s.dir, arg);
		} else {
			snprintf(path, sizeof(path), "%s", arg);
		}
		if (access(path, F_OK) < 0) {
			cli_error(cli, "cannot verify '%s': %s", path, strerror(errno));
			return EXIT_USAGE;
		}
		verify_one(cli, path, &worst);
	} else {
		r = mlx_dmn_list(s.dir, &e, &n);
		if (r < 0 && r != -ENOENT) {
			cli_error(cli, "cannot list the incidents in '%s': %s", s.dir, strerror(-r));
			return cli_exit_code(r);
		}
		for (size_t i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/%s", s.dir, e[i].name);
			verify_one(cli, path, &worst);
		}
		free(e);
	}
	out_list_end(cli->out);
	if (worst != EXIT_OK) {
		/* the findings are the output, exit 1 or not (as diff's) */
		out_finish(cli->out);
		cli_error(cli, "an incident changed after it was dumped, or cannot be read (see "
			  "'result' of each item)");
	}
	return worst;
}
