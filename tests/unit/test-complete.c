/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Completion and help against EVERY command table: walking cli_top down
 * to each command,
 *   - each positional argument that has values (a list or a source) gets
 *     a non-empty answer from cli_complete at its position (the earlier
 *     positions filled with a value completion itself offered), and so does
 *     the first word of a repeated group ("NAME VALUE NAME");
 *   - each option with values gets one after "--opt" and in "--opt=";
 *   - `help PARENT` lists the command with its whole synopsis and `help
 *     PATH` prints the whole usage line (wrapped lines joined: nothing is
 *     cut).
 * The line names the sample host (--sample), so the devices, netdevs and
 * samples are there; a dump-me-now incident is made first in a private
 * dump root for the incident names.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "sample-env.h"

#define MAXW 32
/* the values completion offered, kept for the later positions of the walk
 * (freed at its end; a walk past this many frees and uses "1") */
#define MAXOWNED 512

static char state_dir[] = "/tmp/mlxcli-test-complete-XXXXXX";
static char dmn_dir[4200];
static bool have_samples;

struct cands {
	char *first;
	size_t n;
};

static void collect(void *data, const char *cand)
{
	struct cands *c = data;

	if (!c->n++)
		c->first = strdup(cand);
}

/* Ask for the completions of words[n - 1]; the count, *first the first. */
static size_t ask(const char *const *words, int n, char **first)
{
	struct cands c = { NULL, 0 };
	char *argv[MAXW];

	for (int i = 0; i < n; i++)
		argv[i] = (char *)words[i];
	cli_complete(n, argv, collect, &c);
	if (first)
		*first = c.first;
	else
		free(c.first);
	return c.n;
}

static char *run(const char *const *words, int n, int *rc)
{
	char *argv[MAXW + 1], *out = NULL, *err = NULL;
	size_t outlen = 0, errlen = 0;
	FILE *o = open_memstream(&out, &outlen), *e = open_memstream(&err, &errlen);

	argv[0] = (char *)"mlxcli";
	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)words[i];
	argv[n + 1] = NULL;
	*rc = mlx_cli_main(n + 1, argv, o, e);
	fclose(o);
	fclose(e);
	free(err);
	return out;
}

/* Runs of blanks and newlines as one space: wrapped text as one line. */
static void squeeze(char *s)
{
	char *d = s;

	for (char *p = s; *p; p++) {
		if (*p == ' ' || *p == '\n') {
			if (d > s && d[-1] == ' ')
				continue;
			*d++ = ' ';
		} else {
			*d++ = *p;
		}
	}
	*d = '\0';
}

static void print_line(const char *what, const char *const *w, int n)
{
	print_message("FAIL: %s:", what);
	for (int i = 0; i < n; i++)
		print_message(" '%s'", w[i]);
	print_message("\n");
}

static unsigned failed, asked;

/* The line so far: --sample, the dump root, the command words. */
struct line {
	const char *w[MAXW];
	int n;
	char *owned[MAXOWNED];
	int nowned;
};

static void check_opts(const struct cmd *c, struct line *l)
{
	for (const struct cmd_opt *o = c->opts; o && o->name; o++) {
		char opt[80], eq[80];

		if (!o->choices && !o->src)
			continue;
		snprintf(opt, sizeof(opt), "--%s", o->name);
		snprintf(eq, sizeof(eq), "--%s=", o->name);
		l->w[l->n] = opt;
		l->w[l->n + 1] = "";
		asked++;
		if (!ask(l->w, l->n + 2, NULL)) {
			print_line("no value offered after the option", l->w, l->n + 2);
			failed++;
		}
		l->w[l->n] = eq;
		asked++;
		if (!ask(l->w, l->n + 1, NULL)) {
			print_line("no value offered in the attached form", l->w, l->n + 1);
			failed++;
		}
	}
}

static void check_args(const struct cmd *c, struct line *l)
{
	int n = 0, rep = -1, base = l->n;

	for (const struct cmd_arg *a = c->pos; a && !cmd_arg_end(a); a++, n++)
		if ((a->flags & ARG_REPEAT) && rep < 0)
			rep = n;
	/* The first round, then the repeated group's first word again. */
	for (int i = 0; i < n + (rep >= 0 ? 1 : 0); i++) {
		const struct cmd_arg *a = &c->pos[i < n ? i : rep];
		char *first = NULL;

		l->w[base + i] = "";
		if (a->choices || a->src) {
			asked++;
			if (!ask(l->w, base + i + 1, &first)) {
				print_line("no value offered for an argument", l->w, base + i + 1);
				failed++;
			}
		}
		/* This position's value for the next ones: what completion
		 * offered, else a number (VF index, rates, values). */
		if (first && l->nowned < MAXOWNED) {
			l->owned[l->nowned++] = first;
		} else if (first) {
			free(first);            /* no room: never a leak */
			first = NULL;
		}
		l->w[base + i] = first ? first : "1";
	}
}

static void walk(const struct cmd_group *g, struct line *l, char *path)
{
	for (const struct cmd *k = g->cmds; k->name; k++) {
		size_t plen = strlen(path);
		int rc, base = l->n;
		char *out, syn[512], want[768];

		if (k->flags & CMD_HIDDEN)
			continue;
		snprintf(path + plen, 256 - plen, "%s%s", plen ? " " : "", k->name);
		l->w[l->n++] = k->name;
		/* one source of a synopsis: the arguments, or the text */
		if (k->pos && *k->args) {
			print_message("FAIL: '%s' has both arguments and a synopsis text\n", path);
			failed++;
		}
		if (k->fn) {
			const char *hw[MAXW] = { "help" };
			int nh = 1;
			char *p = strdup(path), *save = NULL;

			for (char *t = strtok_r(p, " ", &save); t && nh < MAXW; t = strtok_r(NULL, " ", &save))
				hw[nh++] = t;
			out = run(hw, nh - 1, &rc);     /* help PARENT */
			cli_synopsis(k, syn, sizeof(syn));
			snprintf(want, sizeof(want), " %s%s%s ", k->name, *syn ? " " : "", syn);
			squeeze(want);
			squeeze(out);
			if (rc || !strstr(out, want)) {
				print_message("FAIL: 'mlxcli help' above '%s' lacks '%s'\n", path, want);
				failed++;
			}
			free(out);
			out = run(hw, nh, &rc);         /* help PATH */
			snprintf(want, sizeof(want), "usage: mlxcli %s%s%s [options]", path,
				 *syn ? " " : "", syn);
			squeeze(want);
			squeeze(out);
			if (rc || !strstr(out, want)) {
				print_message("FAIL: 'mlxcli help %s' (exit %d) lacks '%s'\n", path, rc,
					      want);
				failed++;
			}
			free(out);
			free(p);
			/* the private dump root, where a command reads one */
			for (const struct cmd_opt *o = k->opts; o && o->name; o++)
				if (!strcmp(o->name, "dir")) {
					l->w[l->n++] = "--dir";
					l->w[l->n++] = dmn_dir;
				}
			check_opts(k, l);
			check_args(k, l);
			l->n = base + 1;
		}
		if (k->sub)
			walk(k->sub, l, path);
		l->n = base;
		path[plen] = '\0';
	}
}

static void test_walk(void **state)
{
	struct line l = { .n = 0, .nowned = 0 };
	char path[256] = "";

	(void)state;
	if (!have_samples) {
		print_message("TOP_SRCDIR not set: skipping (run through make check)\n");
		skip();
	}
	l.w[l.n++] = "--sample";
	walk(&cli_top, &l, path);
	for (int i = 0; i < l.nowned; i++)
		free(l.owned[i]);
	print_message("%u completions asked\n", asked);
	assert_true(asked > 20);
	assert_int_equal(failed, 0);
}

static int setup(void **state)
{
	char samples[4096];
	int rc;

	(void)state;
	if (sample_env_setup(state_dir, samples, sizeof(samples)) < 0)
		return -1;
	if (!samples[0])
		return 0;
	snprintf(dmn_dir, sizeof(dmn_dir), "%s/dmn", state_dir);
	/* One incident, for the incident names. */
	free(run((const char *[]){ "--sample", "dump-me-now", "--no-crdump", "-d", "5e:00.0",
				   "--dir", dmn_dir }, 7, &rc));
	have_samples = rc == 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return sample_env_teardown(state_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
