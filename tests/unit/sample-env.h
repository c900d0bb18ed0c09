/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The environment of the unit tests that run the CLI in-process on the
 * bundled sample hosts (test-cli, test-complete): the samples of the
 * source tree ($TOP_SRCDIR) and a private MLXCLI_STATE_DIR for their
 * working copies, removed at the end.
 */
#ifndef MLX_TEST_SAMPLE_ENV_H
#define MLX_TEST_SAMPLE_ENV_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* @state_dir: a mkdtemp template.  0 with @samples "" when TOP_SRCDIR is
 * not set (the tests then skip), -1 on failure. */
static inline int sample_env_setup(char *state_dir, char *samples, size_t len)
{
	const char *top = getenv("TOP_SRCDIR");

	samples[0] = '\0';
	if (!top || !*top)
		return 0;
	snprintf(samples, len, "%s/tests/data/samples", top);
	if (!mkdtemp(state_dir))
		return -1;
	setenv("MLXCLI_SAMPLES_DIR", samples, 1);
	setenv("MLXCLI_STATE_DIR", state_dir, 1);
	return 0;
}

static inline int sample_env_rm_one(const char *path, const struct stat *st, int flag,
				    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline int sample_env_teardown(const char *state_dir)
{
	if (strstr(state_dir, "XXXXXX"))
		return 0;
	return nftw(state_dir, sample_env_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
