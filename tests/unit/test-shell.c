/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The shell's tokenizer (cli_split) and the Windows-syntax mapper
 * (cli_compat_map), table-driven as ethtool's test-cmdline.c: a line and
 * the words it must give; a Windows argv and the native argv it must
 * become (or the exit it must fail with and the message).
 *
 * The mlxtool forms depend on which native commands exist, so they are
 * checked against two small tables made here: one with "show qos",
 * "dbg dump-me-now" and "qosconfig tc-bw set", one without.  The mlx5cmd
 * forms are checked against the real tables (cli_top).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shell.h"

/* ---- cli_split ---- */

struct split_case {
	const char *line;
	const char *words;      /* words joined by '|'; NULL: -EINVAL expected */
	bool partial, open;
};

static const struct split_case split_cases[] = {
	{ "", "", false, false },
	{ "   \t  ", "", false, false },
	{ "devices", "devices", false, true },
	{ "devices\n", "devices", false, false },
	{ "  qosconfig   dcqcn\tget  ", "qosconfig|dcqcn|get", false, false },
	{ "show qos -d '8 0 0'", "show|qos|-d|8 0 0", false, true },
	{ "-d \"8 0 0\" devices", "-d|8 0 0|devices", false, true },
	{ "a\"b c\"d", "ab cd", false, true },
	{ "'it''s'", "its", false, true },
	{ "\"say \\\"hi\\\" \\\\ \\n\"", "say \"hi\" \\ \\n", false, true },
	{ "'no \\escape'", "no \\escape", false, true },
	{ "one\\ word two", "one word|two", false, true },
	{ "\"\" ''", "|", false, true },
	{ "# a comment", "", false, false },
	{ "devices # the rest", "devices", false, false },
	{ "a#b", "a#b", false, true },
	{ "\xe2\x80\x93Qosconfig \xe2\x80\x93" "Dcqcn", "\xe2\x80\x93Qosconfig|\xe2\x80\x93" "Dcqcn",
	  false, true },
	{ "say \"unterminated", NULL, false, false },
	{ "say 'unterminated", NULL, false, false },
	/* Completion of a line being typed. */
	{ "qosconfig dcqcn describe \"Dcq", "qosconfig|dcqcn|describe|Dcq", true, true },
	{ "qosconfig ", "qosconfig", true, false },
	{ "trailing\\", "trailing\\", false, true },
};

static char *join(const struct cli_words *w)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < w->argc; i++)
		len += strlen(w->argv[i]) + 1;
	s = calloc(1, len);
	assert_non_null(s);
	for (int i = 0; i < w->argc; i++) {
		if (i)
			strcat(s, "|");
		strcat(s, w->argv[i]);
	}
	return s;
}

static void test_split(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(split_cases) / sizeof(split_cases[0]); i++) {
		const struct split_case *c = &split_cases[i];
		struct cli_words w;
		const char *why = NULL;
		int r = cli_split(c->line, c->partial, &w, &why);
		char *got;

		if (!c->words) {
			if (r != -EINVAL || !why)
				fail_msg("split '%s': %d, wanted -EINVAL and a reason", c->line, r);
			continue;
		}
		if (r)
			fail_msg("split '%s': %d (%s)", c->line, r, why ? why : "");
		assert_null(w.argc ? w.argv[w.argc] : NULL);
		got = join(&w);
		if (strcmp(got, c->words) || w.open != c->open)
			fail_msg("split '%s': '%s' open=%d, wanted '%s' open=%d", c->line, got, w.open,
				 c->words, c->open);
		free(got);
		cli_words_free(&w);
	}
}

/* ---- cli_words_join: the shell's `device 94 0 0` ---- */

/* The words after `device`, joined by one blank: mlxtool's decimal triple
 * needs no quotes (issue 15), a quoted one still works. */
static const struct {
	const char *line, *device;
} join_cases[] = {
	{ "device 94 0 0", "94 0 0" },
	{ "device   94\t0  0 ", "94 0 0" },
	{ "device '94 0 0'", "94 0 0" },
	{ "device enp94s0f0np0", "enp94s0f0np0" },
	{ "device 94:00.0", "94:00.0" },
};

static void test_words_join(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(join_cases) / sizeof(join_cases[0]); i++) {
		struct cli_words w;
		const char *why = NULL;
		char *got;

		assert_int_equal(cli_split(join_cases[i].line, false, &w, &why), 0);
		got = cli_words_join(&w, 1);
		assert_non_null(got);
		if (strcmp(got, join_cases[i].device))
			fail_msg("'%s': device '%s', wanted '%s'", join_cases[i].line, got,
				 join_cases[i].device);
		free(got);
		cli_words_free(&w);
	}
}

/* ---- cli_compat_map ---- */

#define EN "\xe2\x80\x93"       /* U+2013, as the manuals print '-' */
#define EM "\xe2\x80\x94"

struct map_case {
	const char *argv;       /* words after "mlxcli", joined by '|' */
	int result;
	const char *native;     /* MAPPED: the native words; FAILED: part of stderr */
};

static const struct map_case mlx5cmd_cases[] = {
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Get", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|get|-d|eth1" },
	{ "-qosconfig|-dcqcn|-name|eth1|-get", CLI_COMPAT_MAPPED, "qosconfig|dcqcn|get|-d|eth1" },
	{ "-QOSCONFIG|-DCQCN|-NAME|eth1|-GET", CLI_COMPAT_MAPPED, "qosconfig|dcqcn|get|-d|eth1" },
	{ EN "Qosconfig|" EN "Dcqcn|" EN "Name|eth1|" EN "Get", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|get|-d|eth1" },
	{ EM "Qosconfig|-Dcqcn|-Name|eth1|" EM "Get", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|get|-d|eth1" },
	{ "-Qosconfig|-Dcqcn|-Get", CLI_COMPAT_MAPPED, "qosconfig|dcqcn|get" },
	{ "-Qosconfig|-Dcqcn|-Name|Ethernet 5|-Set|-DcqcnClampTgtRate|1|-DcqcnCnpDscp|3",
	  CLI_COMPAT_MAPPED, "qosconfig|dcqcn|set|DcqcnClampTgtRate|1|DcqcnCnpDscp|3|-d|Ethernet 5" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Set|" EN "DcqcnRpgAiRate|5", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|set|DcqcnRpgAiRate|5|-d|eth1" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Enable", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|enable|-d|eth1" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Enable|3", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|enable|3|-d|eth1" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Disable|3", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|disable|3|-d|eth1" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Defaults", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|defaults|-d|eth1" },
	/* The manual prints -Restore without -Qosconfig. */
	{ "-Dcqcn|-Name|eth1|-Restore", CLI_COMPAT_MAPPED, "qosconfig|dcqcn|restore|-d|eth1" },
	/* issue 24: -Stat (the adapter's status, its RoCE mode) and -NdStat */
	{ "-Stat|-Name|mlx5_0", CLI_COMPAT_MAPPED, "rdma|show|-d|mlx5_0" },
	{ "-NdStat", CLI_COMPAT_MAPPED, "rdma|qp" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Restore", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|restore|-d|eth1" },
	{ "-QoSConfig|-DefaultUntaggedPriority|-Name|eth1|-Get", CLI_COMPAT_MAPPED,
	  "qosconfig|default-untagged-priority|get|-d|eth1" },
	{ "-Qosconfig|-DefaultUntaggedPriority|-Name|eth1|-Set|3", CLI_COMPAT_MAPPED,
	  "qosconfig|default-untagged-priority|set|3|-d|eth1" },
	/* -Name after the action; native global options kept in front. */
	{ "-Qosconfig|-Dcqcn|-Get|-Name|eth1", CLI_COMPAT_MAPPED, "qosconfig|dcqcn|get|-d|eth1" },
	{ "--sample|-Qosconfig|-Dcqcn|-Name|eth1|-Get|-j", CLI_COMPAT_MAPPED,
	  "--sample|qosconfig|dcqcn|get|-j|-d|eth1" },
	{ "-Dcqcn|-Name|eth1|-Set|-DcqcnRpgAiRate|5|-j|-DcqcnCnpDscp|3|--dry-run", CLI_COMPAT_MAPPED,
	  "qosconfig|dcqcn|set|DcqcnRpgAiRate|5|-j|DcqcnCnpDscp|3|--dry-run|-d|eth1" },
	{ "--sysroot|/x|-Dcqcn|-Name|eth1|-Get", CLI_COMPAT_MAPPED,
	  "--sysroot|/x|qosconfig|dcqcn|get|-d|eth1" },
	/* Not Windows syntax: left alone. */
	{ "devices", CLI_COMPAT_NONE, NULL },
	{ "-d|mlx5_0|devices", CLI_COMPAT_NONE, NULL },
	{ "-dmlx5_0|devices", CLI_COMPAT_NONE, NULL },
	{ "-jp|devices", CLI_COMPAT_NONE, NULL },
	{ "--json|devices", CLI_COMPAT_NONE, NULL },
	{ "qosconfig|dcqcn|set|-d|eth1|-DcqcnRpgAiRate|5", CLI_COMPAT_NONE, NULL },
	{ "show|devices", CLI_COMPAT_NONE, NULL },
	{ "-x", CLI_COMPAT_NONE, NULL },
	/* Windows syntax that is wrong: exit 2 with a suggestion. */
	{ "-Qosconfg|-Dcqcn|-Name|eth1|-Get", CLI_COMPAT_FAILED, "did you mean '-Qosconfig'?" },
	{ "-Qosconfig|-Dcqcm|-Name|eth1|-Get", CLI_COMPAT_FAILED, "did you mean '-Dcqcn'?" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1|-Gett", CLI_COMPAT_FAILED, "did you mean '-Get'?" },
	{ EN "Qosconfg|-Dcqcn|-Get", CLI_COMPAT_FAILED, "unknown mlx5cmd command" },
	{ "-Qosconfig|-Dcqcn|-Name", CLI_COMPAT_FAILED, "needs a network adapter name" },
	{ "-Qosconfig|-Dcqcn|-Name|eth1", CLI_COMPAT_FAILED, "needs an action" },
	{ "-Qosconfig|-Name|eth1|-Get", CLI_COMPAT_FAILED, "needs -Dcqcn or" },
	{ "-Qosconfig|-DefaultUntaggedPriority|-Name|eth1|-Enable", CLI_COMPAT_FAILED,
	  "'-Enable' is not an action of '-DefaultUntaggedPriority'" },
	{ "-Sniffer", CLI_COMPAT_FAILED, "'-Sniffer' is not available yet" },
	{ "-Qosconfig|-Dcqcn|eth1|-Get", CLI_COMPAT_FAILED, "unexpected 'eth1'" },
};

/* A table with the mlxtool-style commands, and one without them. */
static int fake_fn(struct cli *cli, int argc, char **argv)
{
	(void)cli;
	(void)argc;
	(void)argv;
	return 0;
}

static const struct cmd fake_show_cmds[] = {
	{ "qos", "", "", fake_fn, 0, 0, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group fake_show = { "show", "", "", fake_show_cmds };
static const struct cmd fake_dbg_cmds[] = {
	{ "dump-me-now", "", "", fake_fn, 0, 0, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group fake_dbg = { "dbg", "", "", fake_dbg_cmds };
static const struct cmd fake_tcbw_cmds[] = {
	{ "set", "", "", fake_fn, 0, -1, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group fake_tcbw = { "tc-bw", "", "", fake_tcbw_cmds };
static const struct cmd fake_qos_cmds[] = {
	{ "tc-bw", "", "", NULL, 0, 0, 0, &fake_tcbw, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group fake_qos = { "qosconfig", "", "", fake_qos_cmds };
static const struct cmd with_cmds[] = {
	{ "show", "", "", NULL, 0, 0, 0, &fake_show, NULL, NULL },
	{ "dbg", "", "", NULL, 0, 0, 0, &fake_dbg, NULL, NULL },
	{ "qosconfig", "", "", NULL, 0, 0, 0, &fake_qos, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group with_top = { "", "", "", with_cmds };
static const struct cmd without_cmds[] = {
	{ "devices", "", "", fake_fn, 0, 0, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group without_top = { "", "", "", without_cmds };

static const struct map_case mlxtool_with[] = {
	{ "show|qos|8|0|0", CLI_COMPAT_MAPPED, "show|qos|-d|8 0 0" },
	{ "show|qos|130|0|1", CLI_COMPAT_MAPPED, "show|qos|-d|130 0 1" },
	{ "dbg|dump-me-now|8|0|0", CLI_COMPAT_MAPPED, "dbg|dump-me-now|-d|8 0 0" },
	{ "-j|show|qos|8|0|0", CLI_COMPAT_MAPPED, "-j|show|qos|-d|8 0 0" },
	{ "show|qos|8|0|0|--sample", CLI_COMPAT_MAPPED, "show|qos|-d|8 0 0|--sample" },
	{ "modify|tc-bw|Ethernet 5|0|1000|3|2000", CLI_COMPAT_MAPPED,
	  "qosconfig|tc-bw|set|-d|Ethernet 5|0|1000|3|2000" },
	/* Not the B D F form: the native parser deals with it. */
	{ "show|qos", CLI_COMPAT_NONE, NULL },
	{ "show|qos|-d|8 0 0", CLI_COMPAT_NONE, NULL },
	{ "show|qos|8|0", CLI_COMPAT_NONE, NULL },
	{ "show|qos|0x8|0|0", CLI_COMPAT_NONE, NULL },
};

/* Native commands that take mlxtool's positional words themselves. */
static const struct cmd native_show_cmds[] = {
	{ "qos", "[BUS DEV FUNC]", "", fake_fn, 0, 3, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group native_show = { "show", "", "", native_show_cmds };
static const struct cmd native_modify_cmds[] = {
	{ "tc-bw", "IFNAME TC MBPS [TC MBPS...]", "", fake_fn, 3, -1, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group native_modify = { "modify", "", "", native_modify_cmds };
static const struct cmd native_cmds[] = {
	{ "show", "", "", NULL, 0, 0, 0, &native_show, NULL, NULL },
	{ "modify", "", "", NULL, 0, 0, 0, &native_modify, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};
static const struct cmd_group native_top = { "", "", "", native_cmds };

static const struct map_case mlxtool_native[] = {
	{ "show|qos|8|0|0", CLI_COMPAT_NONE, NULL },
	{ "modify|tc-bw|eth1|0|1000", CLI_COMPAT_NONE, NULL },
};

static const struct map_case mlxtool_without[] = {
	{ "show|qos|8|0|0", CLI_COMPAT_FAILED, "mlxtool's 'show qos' is not available yet" },
	{ "dbg|dump-me-now|8|0|0", CLI_COMPAT_FAILED, "'dbg dump-me-now' is not available yet" },
	{ "modify|tc-bw|eth1|0|1000", CLI_COMPAT_FAILED, "'modify tc-bw' is not available yet" },
	{ "devices", CLI_COMPAT_NONE, NULL },
};

static void split_bars(const char *s, struct cli_words *w)
{
	char *copy = strdup(s), *p = copy, *bar;

	assert_non_null(copy);
	memset(w, 0, sizeof(*w));
	assert_int_equal(cli_words_add(w, "mlxcli"), 0);
	for (;;) {
		bar = strchr(p, '|');
		if (bar)
			*bar = '\0';
		assert_int_equal(cli_words_add(w, p), 0);
		if (!bar)
			break;
		p = bar + 1;
	}
	free(copy);
}

static void run_map_cases(const struct cmd_group *top, const struct map_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct map_case *c = &cases[i];
		struct cli_words in, out;
		char *err = NULL, *got = NULL;
		size_t errlen = 0;
		FILE *efp = open_memstream(&err, &errlen);
		int r;

		assert_non_null(efp);
		split_bars(c->argv, &in);
		r = cli_compat_map(top, in.argc, in.argv, &out, efp);
		fclose(efp);
		if (r != c->result)
			fail_msg("map '%s': result %d, wanted %d; stderr: %s", c->argv, r, c->result,
				 err);
		if (r == CLI_COMPAT_MAPPED) {
			struct cli_words tail = { out.argc - 1, out.argv + 1, false };

			assert_string_equal(out.argv[0], "mlxcli");
			assert_null(out.argv[out.argc]);
			got = join(&tail);
			if (strcmp(got, c->native))
				fail_msg("map '%s': '%s', wanted '%s'", c->argv, got, c->native);
			if (*err)
				fail_msg("map '%s': unexpected stderr '%s'", c->argv, err);
		} else if (r == CLI_COMPAT_FAILED) {
			if (!strstr(err, c->native) || strncmp(err, "mlxcli: error: ", 15))
				fail_msg("map '%s': stderr '%s', wanted '%s'", c->argv, err, c->native);
		} else {
			assert_int_equal(out.argc, 0);
			if (*err)
				fail_msg("map '%s': unexpected stderr '%s'", c->argv, err);
		}
		free(got);
		free(err);
		cli_words_free(&out);
		cli_words_free(&in);
	}
}

static void test_map_mlx5cmd(void **state)
{
	(void)state;
	run_map_cases(&cli_top, mlx5cmd_cases, sizeof(mlx5cmd_cases) / sizeof(mlx5cmd_cases[0]));
}

static void test_map_mlxtool(void **state)
{
	(void)state;
	run_map_cases(&with_top, mlxtool_with, sizeof(mlxtool_with) / sizeof(mlxtool_with[0]));
	run_map_cases(&native_top, mlxtool_native,
		      sizeof(mlxtool_native) / sizeof(mlxtool_native[0]));
	run_map_cases(&without_top, mlxtool_without,
		      sizeof(mlxtool_without) / sizeof(mlxtool_without[0]));
}

/* Every native command the mapper can produce exists in the real tables. */
static void test_map_targets_exist(void **state)
{
	static const char *const paths[] = {
		"qosconfig dcqcn get", "qosconfig dcqcn set", "qosconfig dcqcn enable",
		"qosconfig dcqcn disable", "qosconfig dcqcn defaults", "qosconfig dcqcn restore",
		"qosconfig default-untagged-priority get", "qosconfig default-untagged-priority set",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!cli_lookup(&cli_top, paths[i]))
			fail_msg("'%s' is not in the tables", paths[i]);
	assert_null(cli_lookup(&cli_top, "qosconfig dcqcn"));   /* a group, not a command */
	assert_null(cli_lookup(&cli_top, "nosuch"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_words_join),
		cmocka_unit_test(test_map_mlx5cmd),
		cmocka_unit_test(test_map_mlxtool),
		cmocka_unit_test(test_map_targets_exist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
