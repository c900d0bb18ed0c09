/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the command line: the input split at NUL and
 * newline is argv for mlx_cli_main, run in-process on the bundled sample
 * hosts (always --sample; working copies in a private temporary
 * MLXCLI_STATE_DIR) with the output going to /dev/null.
 *
 * Hermetic by refusal: command lines that could reach outside the temporary
 * directory or block are skipped: --sysroot (another root, the live one
 * included), -o/--output and --dir (files anywhere), -b/--batch and shell
 * (stdin), snapshot (a directory anywhere), dump-me-now (the dump root and
 * /etc/mlxcli.conf), counters watch (runs until interrupted).  Anything else
 * runs, write commands included: they write the working copy, which is
 * discarded after a command line that may have written so that each input
 * starts from the pristine sample (deterministic).
 */
#include <ctype.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz-util.h"

#ifndef FUZZ_SAMPLES_DIR
#error "FUZZ_SAMPLES_DIR must name tests/data/samples"
#endif

#define MAX_ARGS 32
#define MAX_ARG 512

int LLVMFuzzerInitialize(int *argc, char ***argv);

static FILE *devnull;
static char state[64];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p) < 0 ? 0 : 0;
}

static void cleanup(void)
{
	nftw(state, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* tmpfs when there is one: the working copies are made often. */
	snprintf(state, sizeof(state), "%s/mlxcli-fuzz-cli-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(state))
		abort();
	atexit(cleanup);
	setenv("MLXCLI_SAMPLES_DIR", FUZZ_SAMPLES_DIR, 1);
	setenv("MLXCLI_STATE_DIR", state, 1);
	unsetenv("MLXCLI_CONFIG");
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

/* The word without its leading '-', "--", U+2013 or U+2014, lowercased. */
static void bare(const char *a, char *w, size_t len)
{
	size_t n = 0;

	while (*a == '-')
		a++;
	if ((unsigned char)a[0] == 0xe2 && (unsigned char)a[1] == 0x80 &&
	    ((unsigned char)a[2] == 0x93 || (unsigned char)a[2] == 0x94))
		a += 3;
	for (; *a && n + 1 < len; a++)
		w[n++] = (char)tolower((unsigned char)*a);
	w[n] = '\0';
}

static bool refused(const char *a)
{
	static const char *const words[] = { "sysroot", "output", "dir", "batch", "shell",
					     "snapshot", "dump", "watch", "dmn" };
	char w[MAX_ARG + 1];

	bare(a, w, sizeof(w));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(w, words[i]))
			return true;
	/* A cluster of short options (-jo, -bv): any 'o' or 'b' in it. */
	if (a[0] == '-' && a[1] != '-' && (strchr(a, 'o') || strchr(a, 'b')))
		return true;
	return false;
}

static bool may_write(const char *a)
{
	static const char *const words[] = { "set", "enable", "disable", "restore", "default",
					     "reset", "modify", "numvf", "mode", "trust", "pfc",
					     "ets", "bw", "buffer", "dcbx", "dscp", "prio", "vf" };
	char w[MAX_ARG + 1];

	bare(a, w, sizeof(w));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(w, words[i]))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 3], *buf;
	bool has_sample = false, writes = false;
	int argc = 0;
	size_t i, start;

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = (char *)"mlxcli";
	for (i = 0, start = 0; i <= size; i++) {
		if (i < size && buf[i] != '\0' && buf[i] != '\n')
			continue;
		buf[i] = '\0';
		if (i - start > MAX_ARG || argc > MAX_ARGS)
			goto out;
		if (refused(buf + start))
			goto out;
		has_sample |= strncmp(buf + start, "--sample", 8) == 0;
		writes |= may_write(buf + start);
		argv[argc++] = buf + start;
		start = i + 1;
	}
	/* An empty last line is no argument (input "devices\n"). */
	if (argc > 1 && !*argv[argc - 1])
		argc--;
	if (!has_sample) {
		memmove(argv + 2, argv + 1, (size_t)(argc - 1) * sizeof(*argv));
		argv[1] = (char *)"--sample";
		argc++;
	}
	argv[argc] = NULL;
	(void)mlx_cli_main(argc, argv, devnull, devnull);
	if (writes) {
		char *reset[] = { (char *)"mlxcli", (char *)"--sample", (char *)"sample",
				  (char *)"reset", NULL, NULL };
		static const char *const names[] = { "cx5-ofed", "cx6dx-upstream" };

		for (size_t k = 0; k < 2; k++) {
			reset[4] = (char *)names[k];
			(void)mlx_cli_main(5, reset, devnull, devnull);
		}
	}
out:
	free(buf);
	return 0;
}
