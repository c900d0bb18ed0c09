/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bundled sample hosts (--sample[=NAME], `mlxcli sample ...`).
 *
 * The pristine trees live in $MLXCLI_SAMPLES_DIR if set, else, for a binary
 * run from the build tree it was built in, in that source tree's
 * tests/data/samples, else in $(pkgdatadir)/samples.  Commands never
 * touch them: the first use copies a sample into a per-user working copy,
 * under $MLXCLI_STATE_DIR, else $XDG_STATE_HOME/mlxcli, else
 * ~/.local/state/mlxcli, and every later command (reads and writes) uses
 * that copy, so `set` then `get` works across invocations.  Where no
 * working copy can be made, reads use a temporary one (issue 25).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tree.h"

/*
 * Whether this process is the binary the build made, not an installed copy:
 * the running program (mlx_self_path) is MLX_BUILD_BINARY (both resolved: the build directory
 * may be reached through a symbolic link).  Git and other tools run from
 * their build trees the same way.
 */
static bool uninstalled(void)
{
	static int known = -1;

	if (known < 0) {
		char self[PATH_MAX], built[PATH_MAX];

		known = 0;
		if (mlx_self_path(self, sizeof(self)) == 0 && realpath(MLX_BUILD_BINARY, built))
			known = !strcmp(self, built);
	}
	return known;
}

/* Where the sample hosts are, and (@from) what that place is. */
static const char *samples_dir(const char **from)
{
	const char *d = getenv("MLXCLI_SAMPLES_DIR");

	if (d && *d) {
		*from = "from MLXCLI_SAMPLES_DIR";
		return d;
	}
	if (uninstalled()) {
		*from = "the source tree of this uninstalled binary";
		return MLX_BUILD_SAMPLES;
	}
	*from = "the installed samples";
	return MLX_PKGDATADIR "/samples";
}

const char *cli_samples_dir(void)
{
	const char *from;

	return samples_dir(&from);
}

static int state_dir(char *buf, size_t len)
{
	const char *s = getenv("MLXCLI_STATE_DIR"), *x = getenv("XDG_STATE_HOME"),
		   *h = getenv("HOME");
	int n;

	if (s && *s)
		n = snprintf(buf, len, "%s", s);
	else if (x && *x == '/')
		n = snprintf(buf, len, "%s/mlxcli", x);
	else if (h && *h == '/')
		n = snprintf(buf, len, "%s/.local/state/mlxcli", h);
	else
		n = snprintf(buf, len, "/tmp/mlxcli-%u", (unsigned)getuid());
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static int mkdir_p(char *path, mode_t mode)
{
	for (char *p = path + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(path, mode) < 0 && errno != EEXIST)
				return -errno;
			*p = c;
			if (!c)
				return 0;
		}
	}
}

static void list_names(struct cli *cli)
{
	char **names = NULL;
	struct mlx_ctx *tmp = NULL;

	/* List through libmlx's directory helper on a throwaway context
	 * rooted at the samples directory. */
	if (mlx_ctx_new("/", &tmp, NULL) == 0) {
		char path[PATH_MAX];
		size_t n = 0;

		snprintf(path, sizeof(path), "%s", cli_samples_dir());
		if (mlx_list_dir(tmp, path, &names, &n) == 0)
			for (size_t i = 0; i < n; i++)
				if (strcmp(names[i], "README.md"))
					cli_hint(cli, "sample host '%s'", names[i]);
		mlx_strv_free(names);
		mlx_ctx_free(tmp);
	}
}

static int pristine(struct cli *cli, const char *name, char *buf, size_t len)
{
	struct stat st;

	if (!mlx_name_is_safe(name) || !strcmp(name, "README.md")) {
		cli_error(cli, "invalid sample name '%s'", name);
		return EXIT_USAGE;
	}
	if (snprintf(buf, len, "%s/%s", cli_samples_dir(), name) >= (int)len ||
	    stat(buf, &st) < 0 || !S_ISDIR(st.st_mode)) {
		const char *from, *dir = samples_dir(&from);

		cli_error(cli, "no sample host '%s' in %s (%s)", name, dir, from);
		list_names(cli);
		cli_hint(cli, "set MLXCLI_SAMPLES_DIR to the directory that holds the sample hosts "
			 "(tests/data/samples in a source tree)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int working_copy(struct cli *cli, const char *name, char *buf, size_t len)
{
	char base[PATH_MAX];

	if (state_dir(base, sizeof(base)) < 0 ||
	    snprintf(buf, len, "%s/samples/%s", base, name) >= (int)len) {
		cli_error(cli, "state directory path too long");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The tree a sample's reads come from right now, without creating the
 * working copy (completion must not have side effects). */
int cli_sample_current(const char *name, char *buf, size_t len)
{
	char base[PATH_MAX];
	struct stat st;

	if (!mlx_name_is_safe(name))
		return -EINVAL;
	if (state_dir(base, sizeof(base)) == 0 &&
	    snprintf(buf, len, "%s/samples/%s", base, name) < (int)len &&
	    stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (snprintf(buf, len, "%s/%s", cli_samples_dir(), name) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Whether the working copy @wc was made from the bundled sample @src as it
 * is now: the generator stamps a digest of each tree into its
 * mlxcli-snapshot.json (gen/samples.py stamp_content), which
 * the copy took along.  A working copy made before an upgrade lacks what
 * the newer sample has (a whole source of counters, say), and would keep
 * lacking it silently.
 */
static bool workcopy_current(const char *src, const char *wc)
{
	char a[PATH_MAX], b[PATH_MAX], *x = NULL, *y = NULL;
	size_t nx = 0, ny = 0;
	bool same = false;
	FILE *f;

	snprintf(a, sizeof(a), "%s/mlxcli-snapshot.json", src);
	snprintf(b, sizeof(b), "%s/mlxcli-snapshot.json", wc);
	if ((f = fopen(a, "re"))) {
		x = calloc(1, 4096);
		nx = x ? fread(x, 1, 4095, f) : 0;
		fclose(f);
	}
	if ((f = fopen(b, "re"))) {
		y = calloc(1, 4096);
		ny = y ? fread(y, 1, 4095, f) : 0;
		fclose(f);
	}
	/* A pristine tree without the file (a user's own capture used as a
	 * sample) has nothing to compare: treat it as current. */
	same = !x || (y && nx == ny && !memcmp(x, y, nx));
	free(x);
	free(y);
	return same;
}

/*
 * No working copy can be made in the state directory (a read-only home, a
 * service user without one): a command that only reads gets a temporary
 * copy, removed when it ends (cli->sample_tmp); a write needs the working
 * copy, so the next command sees what it wrote, and says where that is.
 */
static int no_workcopy(struct cli *cli, const char *name, const char *src, const char *dst,
		       int err, char **root)
{
	const char *t = getenv("TMPDIR");
	char dir[PATH_MAX], copy[PATH_MAX];
	int r;

	if (cli->cmd && (cli->cmd->flags & CMD_WRITES) && !cli->dry_run) {
		cli_error(cli, "cannot make the working copy of sample '%s' in '%s': %s; a write "
			  "to a sample needs one", name, dst, strerror(-err));
		cli_hint(cli, "set MLXCLI_STATE_DIR (or XDG_STATE_HOME) to a directory this user "
			 "can write");
		return cli_exit_code(err);
	}
	if (snprintf(dir, sizeof(dir), "%s/mlxcli-sample-XXXXXX",
		     t && *t == '/' ? t : "/tmp") >= (int)sizeof(dir) || !mkdtemp(dir) ||
	    snprintf(copy, sizeof(copy), "%s/%s", dir, name) >= (int)sizeof(copy)) {
		cli_error(cli, "cannot make the working copy of sample '%s' in '%s' (%s), nor a "
			  "temporary one: %s", name, dst, strerror(-err), strerror(errno));
		return cli_exit_code(err);
	}
	r = mlx_tree_copy(src, copy);
	if (r < 0 || !(*root = strdup(copy))) {
		cli_error(cli, "cannot copy sample '%s' to '%s': %s", name, copy,
			  strerror(r < 0 ? -r : ENOMEM));
		mlx_tree_remove(dir);
		return r < 0 ? cli_exit_code(r) : EXIT_FAIL;
	}
	if (!(cli->sample_tmp = strdup(dir))) {
		mlx_tree_remove(dir);
		free(*root);
		*root = NULL;
		return EXIT_FAIL;
	}
	if (cli->verbose)
		fprintf(cli->err_fp, "mlxcli: info: sample '%s': cannot make the working copy in "
			"'%s' (%s): reading a temporary copy in %s, removed at exit\n", name, dst,
			strerror(-err), copy);
	return EXIT_OK;
}

int cli_sample_root(struct cli *cli, const char *name, char **root)
{
	char src[PATH_MAX], dst[PATH_MAX], tmp[PATH_MAX + 16], parent[PATH_MAX];
	struct stat st;
	int r;

	*root = NULL;
	r = pristine(cli, name, src, sizeof(src));
	if (r)
		return r;
	r = working_copy(cli, name, dst, sizeof(dst));
	if (r)
		return r;
	if (stat(dst, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!workcopy_current(src, dst)) {
			cli_warn(cli, "the working copy of sample '%s' (%s) was made from an older "
				 "version of the sample and may lack what was added since", name, dst);
			cli_hint(cli, "'mlxcli sample reset %s' makes a fresh copy (and discards "
				 "the changes made to it)", name);
		}
		goto done;
	}

	/* First use: copy under a temporary name, rename into place.  Two
	 * first uses at once both copy; the loser throws its copy away. */
	snprintf(parent, sizeof(parent), "%s", dst);
	*strrchr(parent, '/') = '\0';
	r = mkdir_p(parent, 0700);
	if (r < 0)
		return no_workcopy(cli, name, src, dst, r, root);
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", dst, (long)getpid());
	mlx_tree_remove(tmp);
	r = mlx_tree_copy(src, tmp);
	if (r < 0) {
		mlx_tree_remove(tmp);
		return no_workcopy(cli, name, src, dst, r, root);
	}
	if (rename(tmp, dst) < 0) {
		r = -errno;
		mlx_tree_remove(tmp);
		if (r != -EEXIST && r != -ENOTEMPTY)
			return no_workcopy(cli, name, src, dst, r, root);
	}
	if (cli->verbose)
		fprintf(cli->err_fp, "mlxcli: info: sample '%s': working copy in %s\n", name, dst);
done:
	*root = strdup(dst);
	return *root ? EXIT_OK : EXIT_FAIL;
}

static int cmd_sample_list(struct cli *cli, int argc, char **argv)
{
	struct mlx_ctx *tmp = NULL;
	char **names = NULL;
	size_t n = 0;
	int r;

	r = mlx_ctx_new("/", &tmp, NULL);
	if (r < 0)
		return cli_fail(cli, r, "cannot list samples");
	r = mlx_list_dir(tmp, cli_samples_dir(), &names, &n);
	mlx_ctx_free(tmp);
	if (r < 0) {
		cli_error(cli, "cannot list sample hosts in '%s': %s", cli_samples_dir(), strerror(-r));
		return cli_exit_code(r);
	}
	out_table_begin(cli->out, "samples");
	for (size_t i = 0; i < n; i++) {
		char wc[PATH_MAX];
		struct stat st;

		if (!strcmp(names[i], "README.md") || working_copy(cli, names[i], wc, sizeof(wc)))
			continue;
		out_row_begin(cli->out);
		out_str(cli->out, "name", "NAME", names[i]);
		out_bool(cli->out, "is_default", "DEFAULT", !strcmp(names[i], CLI_DEFAULT_SAMPLE));
		out_bool(cli->out, "working_copy_exists", "IN USE",
			 stat(wc, &st) == 0 && S_ISDIR(st.st_mode));
		if (stat(wc, &st) == 0 && S_ISDIR(st.st_mode)) {
			char src[PATH_MAX];

			snprintf(src, sizeof(src), "%s/%s", cli_samples_dir(), names[i]);
			out_bool(cli->out, "working_copy_current", "CURRENT", workcopy_current(src, wc));
		} else {
			out_null(cli->out, "working_copy_current", "CURRENT");
		}
		out_str(cli->out, "working_copy", "WORKING COPY", wc);
		out_row_end(cli->out);
	}
	out_table_end(cli->out);
	mlx_strv_free(names);
	return EXIT_OK;
}

static int cmd_sample_reset(struct cli *cli, int argc, char **argv)
{
	const char *name = argc ? argv[0] : CLI_DEFAULT_SAMPLE;
	char src[PATH_MAX], wc[PATH_MAX];
	int r;

	r = pristine(cli, name, src, sizeof(src));
	if (r)
		return r;
	r = working_copy(cli, name, wc, sizeof(wc));
	if (r)
		return r;
	r = mlx_tree_remove(wc);
	if (r < 0) {
		cli_error(cli, "cannot remove '%s': %s", wc, strerror(-r));
		return cli_exit_code(r);
	}
	out_str(cli->out, "reset", "reset", name);
	return EXIT_OK;
}

static const struct cmd_arg reset_args[] = {
	{ "NAME", NULL, SRC_SAMPLES, ARG_OPTIONAL },
	CMD_ARG_END,
};

static const struct cmd sample_cmds[] = {
	{ "list", "", "list the bundled sample hosts and their working copies",
	  cmd_sample_list, 0, 0, CMD_NO_SCAN, NULL, NULL, NULL },
	{ "reset", "", "discard a sample's working copy (the next use starts pristine)",
	  cmd_sample_reset, 0, 1, CMD_NO_SCAN, NULL, NULL, NULL, NULL, reset_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group sample_group = { "sample", "the bundled sample hosts", "mlxcli-devices(8)",
					sample_cmds };

/* For the shell's history (cmd/shell.c): the same directory as the samples. */
int cli_state_dir(char *buf, size_t len)
{
	return state_dir(buf, len);
}

int cli_mkdir_p(const char *path, unsigned mode)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	return mkdir_p(buf, (mode_t)mode);
}
