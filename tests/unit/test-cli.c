/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dispatcher in-process: mlx_cli_main() with memory FILEs, one table
 * row per command line: exit status (cmd/cli.h, mlxcli(8) EXIT STATUS),
 * a fragment expected on stdout and on stderr, and one that must NOT be
 * on stdout.  Commands that read a system use the bundled sample hosts
 * ($TOP_SRCDIR/tests/data/samples, the test skips without TOP_SRCDIR)
 * with a private MLXCLI_STATE_DIR.
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

#define MAXW 16

struct res {
	int rc;
	char *out, *err;
};

static char state_dir[] = "/tmp/mlxcli-test-cli-XXXXXX";
static char samples[4096];

static void run_argv(const char *const *words, struct res *r)
{
	char *argv[MAXW + 2];
	size_t outlen = 0, errlen = 0;
	FILE *out, *err;
	int argc = 0;

	argv[argc++] = strdup("mlxcli");
	for (; words[argc - 1] && argc < MAXW + 1; argc++)
		argv[argc] = strdup(words[argc - 1]);
	argv[argc] = NULL;
	out = open_memstream(&r->out, &outlen);
	err = open_memstream(&r->err, &errlen);
	assert_non_null(out);
	assert_non_null(err);
	r->rc = mlx_cli_main(argc, argv, out, err);
	fclose(out);
	fclose(err);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
}

static void res_free(struct res *r)
{
	free(r->out);
	free(r->err);
}

struct tcase {
	const char *argv[MAXW];
	int rc;
	const char *out;       /* fragment of stdout, NULL = not checked */
	const char *err;       /* fragment of stderr, NULL = not checked; "" = empty */
	const char *not_out;   /* must not be on stdout */
};

#define E "" /* stderr must be empty */

static const struct tcase cases[] = {
	/* version and help: stdout, exit 0 */
	{ { "--version", NULL }, 0, "mlxcli " PACKAGE_VERSION "\n", E, NULL },
	{ { "help", NULL }, 0, "usage: mlxcli COMMAND", E, NULL },
	{ { "help", NULL }, 0, "  devices ", E, "__complete" },
	{ { "help", "devices", NULL }, 0, "usage: mlxcli devices [options]", E, NULL },
	{ { "help", "show", "ports", NULL }, 0, "same as 'mlxcli ports'", E, NULL },
	{ { "help", "sample", NULL }, 0, "usage: mlxcli sample COMMAND", E, NULL },
	{ { "help", "nosuch", NULL }, 2, NULL, "unknown command", NULL },
	/* sub-verbs are table entries: help sees them (issue 15) */
	{ { "help", "counters", "watch", NULL }, 0, "usage: mlxcli counters watch [options]", E, NULL },
	{ { "help", "counters", NULL }, 0, "usage: mlxcli counters [show|watch|cc|prio|errors]", E,
	  NULL },
	{ { "help", "counters", "nosuch", NULL }, 2, NULL, "no help for 'nosuch'", NULL },
	{ { "help", "sriov", "set", "numvfs", NULL }, 0, "usage: mlxcli sriov set numvfs N", E, NULL },
	{ { "help", "dump-me-now", "show", NULL }, 0, "usage: mlxcli dump-me-now show PATH", E, NULL },
	{ { "help", "sriov", "vf", NULL }, 0, "  SETTING                mac, vlan, qos,", E, NULL },
	/* a long synopsis is wrapped, never cut */
	{ { "help", "qosconfig", NULL }, 0, "[tsa TC:strict|ets|vendor...] [bw TC:PCT...]\n", E,
	  NULL },
	{ { "help", "devices", "extra", NULL }, 2, NULL, "has no sub-command", NULL },
	{ { "-h", NULL }, 0, "usage: mlxcli COMMAND", E, NULL },
	{ { "-h", "devices", NULL }, 0, "usage: mlxcli devices [options]", E, NULL },
	{ { "devices", "-h", NULL }, 0, "usage: mlxcli devices [options]", E, NULL },
	{ { "--help", "snapshot", NULL }, 0, "usage: mlxcli snapshot DIR", E, NULL },
	{ { "show", "devices", "--help", NULL }, 0, "usage: mlxcli show devices", E, NULL },
	{ { "show", "-h", NULL }, 0, "usage: mlxcli show COMMAND", E, NULL },
	{ { "-jh", "ports", NULL }, 0, "usage: mlxcli ports", E, NULL },
	/* unknown words and options: exit 2 with a suggestion */
	{ { "devcies", NULL }, 2, "", "mlxcli: error: unknown command 'devcies'", NULL },
	{ { "devcies", NULL }, 2, "", "did you mean 'devices'?", NULL },
	{ { "dev", NULL }, 2, "", "did you mean 'devices'?", NULL },
	{ { "show", "prots", NULL }, 2, "", "did you mean 'ports'?", NULL },
	{ { "devices", "--jsn", NULL }, 2, "", "unknown option '--jsn'", NULL },
	{ { "devices", "--jsn", NULL }, 2, "", "did you mean '--json'?", NULL },
	{ { "devices", "-x", NULL }, 2, "", "unknown option '-x'", NULL },
	{ { "-jx", "devices", NULL }, 2, "", "unknown option '-x' in '-jx'", NULL },
	{ { "--jsn", "devices", NULL }, 2, "", "unknown option '--jsn'", NULL },
	{ { "--jsn", "devices", NULL }, 2, "", "did you mean '--json'?", NULL },
	{ { "-x", "devices", NULL }, 2, "", "unknown option '-x'", NULL },
	{ { "show", "--frob", "ports", NULL }, 2, "", "unknown option '--frob'", NULL },
	{ { NULL }, 2, "", "no command given", NULL },
	{ { "show", NULL }, 2, "", "'mlxcli show' needs a command", NULL },
	{ { "snapshot", NULL }, 2, "", "needs DIR", NULL },
	{ { "devices", "extra", NULL }, 2, "", "unexpected argument 'extra'", NULL },
	{ { "-j", "help", NULL }, 2, "", "has no JSON output", NULL },
	{ { "devices", "-d", NULL }, 2, "", "needs a device", NULL },
	/* the sample host */
	{ { "--sample", "devices", NULL }, 0,
	  "0000:5e:00.0  ConnectX-5     pf    -             mlx5_core  enp94s0f0np0", E, NULL },
	{ { "devices", "--sample", NULL }, 0, "0000:5e:00.5  ConnectX-5 VF", E, NULL },
	{ { "--sample=cx6dx-upstream", "devices", NULL }, 0, "16GT/s x8 (of 16GT/s x16)!",
	  "mlxcli: warning: 0000:3b:00.0: PCIe link trained at 16GT/s x8", NULL },
	{ { "--sample", "-j", "devices", NULL }, 0, "{\"schema_version\":3,\"devices\":[{", E, NULL },
	{ { "--sample", "show", "ports", NULL }, 0,
	  "enp94s0f1np1  0000:5e:00.1  pf    mlx5_1  1     down   -", E, NULL },
	/* -d: the decimal triple as three words, and the other spellings */
	{ { "--sample", "-d", "94", "0", "0", "-j", "devices", NULL }, 0,
	  "\"devices\":[{\"pci_address\":\"0000:5e:00.0\"", E, "0000:5e:00.1" },
	{ { "--sample", "-j", "devices", "-d", "94", "0", "1", NULL }, 0,
	  "\"devices\":[{\"pci_address\":\"0000:5e:00.1\"", E, "0000:5e:00.0\"" },
	{ { "--sample", "-d94 0 2", "-j", "devices", NULL }, 0,
	  "\"devices\":[{\"pci_address\":\"0000:5e:00.2\"", E, "0000:5e:00.3" },
	{ { "--sample", "--device=5e:00.3", "-j", "devices", NULL }, 0,
	  "\"devices\":[{\"pci_address\":\"0000:5e:00.3\"", E, "0000:5e:00.4" },
	{ { "--sample", "--device", "mlx5_4", "-j", "devices", NULL }, 0,
	  "\"devices\":[{\"pci_address\":\"0000:5e:00.4\"", E, "0000:5e:00.5" },
	{ { "--sample", "-d", "enp94s0f5", "ports", NULL }, 0, "enp94s0f5  0000:5e:00.5  vf", E,
	  "enp94s0f4" },
	/* bad systems and bad devices */
	{ { "--sysroot", "/nonexistent", "devices", NULL }, 2, "", "mlxcli: error: ", NULL },
	{ { "--sysroot", "/", "--sample", "devices", NULL }, 2, "",
	  "--sysroot and --sample both name the system", NULL },
	{ { "--sysroot", NULL }, 2, "", "needs a directory", NULL },
	{ { "--sample", "-d", "../x", "devices", NULL }, 2, "", "invalid device name '../x'", NULL },
	{ { "--sample", "-d", "a/b", "ports", NULL }, 2, "", "invalid device name", NULL },
	{ { "--sample", "-d", "5e:00.8", "devices", NULL }, 2, "", "invalid PCI address", NULL },
	{ { "--sample", "-d", "5e:00.7", "devices", NULL }, 3, "",
	  "mlxcli: error: no ConnectX device '5e:00.7'", NULL },
	{ { "--sample", "-d", "eth9", "ports", NULL }, 3, "", "no ConnectX device 'eth9'", NULL },
	{ { "--sample=nosuch", "devices", NULL }, 2, "", "no sample host 'nosuch'", NULL },
	{ { "--sample=nosuch", "devices", NULL }, 2, "", "sample host 'cx6dx-upstream'", NULL },
	{ { "--sample=..", "devices", NULL }, 2, "", "invalid sample name", NULL },
	{ { "--sample", "-d", "5e:00.0", "snapshot", "/nonexistent/x", NULL }, 2, "",
	  "-d is not taken", NULL },
	/* samples */
	{ { "sample", "reset", NULL }, 0, "reset: cx5-ofed\n", E, NULL },
	{ { "sample", "reset", "cx6dx-upstream", NULL }, 0, "reset: cx6dx-upstream\n", E, NULL },
	{ { "sample", "reset", "nosuch", NULL }, 2, "", "no sample host 'nosuch'", NULL },
	{ { "sample", "list", NULL }, 0, "cx5-ofed", E, "README.md" },
	/* completion */
	{ { "__complete", "dev", NULL }, 0, "devices\n", E, "ports" },
	{ { "__complete", "", NULL }, 0, "snapshot\n", E, NULL },
	{ { "__complete", "", NULL }, 0, "sample\nhelp\n", E, NULL },
	{ { "__complete", "", NULL }, 0, "devices\nports\nshow\n", E,
	  "__complete" },
	{ { "__complete", "show", "", NULL }, 0, "devices\nports\n", E, "snapshot" },
	{ { "__complete", "show", "p", NULL }, 0, "ports\n", E, "devices" },
	{ { "__complete", "--js", NULL }, 0, "--json\n", E, NULL },
	{ { "__complete", "nosuch", "", NULL }, 0, "", E, "devices" },
	{ { "__complete", "counters", "", NULL }, 0, "show\nwatch\ncc\nprio\nerrors\n", E, NULL },
	{ { "__complete", "-Qosconfig", "-Dcqcn", "", NULL }, 0, "-Name\n-Get\n-Set\n", E,
	  "devices" },
	/* a view after the options of `counters` is still the view */
	{ { "--sample", "counters", "-g", "port", "prio", NULL }, 0, "PRIO", E, NULL },
	{ { "__complete", "--sample", "-d", "", NULL }, 0, "0000:5e:00.0\nenp94s0f0np0\nmlx5_0\n",
	  E, "0000:00:1c.0" },
	{ { "__complete", "--sample", "-d", "0000:5e:00.5", NULL }, 0, "0000:5e:00.5\n", E,
	  "enp" },
	{ { "__complete", "--sample", "devices", "-d", "enp94s0f", NULL }, 0,
	  "enp94s0f0np0\nenp94s0f1np1\nenp94s0f2\n", E, "0000:" },
	{ { "__complete", "--sample=cx6dx-upstream", "-d", "", NULL }, 0,
	  "0000:3b:00.1\nenp59s0f1np1\nmlx5_1\n", E, "eno1" },
};

static int setup(void **state)
{
	(void)state;
	return sample_env_setup(state_dir, samples, sizeof(samples));
}

static int teardown(void **state)
{
	(void)state;
	return sample_env_teardown(state_dir);
}

static void need_samples(void)
{
	if (!samples[0]) {
		print_message("TOP_SRCDIR not set: skipping (run through make check)\n");
		skip();
	}
}

static void test_table(void **state)
{
	unsigned failed = 0;

	(void)state;
	need_samples();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		struct res r;
		bool ok;

		run_argv(c->argv, &r);
		ok = r.rc == c->rc && (!c->out || strstr(r.out, c->out)) &&
		     (!c->err || (*c->err ? strstr(r.err, c->err) != NULL : !*r.err)) &&
		     (!c->not_out || !strstr(r.out, c->not_out));
		if (!ok) {
			print_message("case %zu:", i);
			for (size_t k = 0; c->argv[k]; k++)
				print_message(" '%s'", c->argv[k]);
			print_message("\n  exit %d (want %d)\n  stdout:\n%s  stderr:\n%s"
				      "  want stdout fragment: %s\n  want stderr fragment: %s\n"
				      "  not on stdout: %s\n",
				      r.rc, c->rc, r.out, r.err, c->out ? c->out : "(any)",
				      c->err ? (*c->err ? c->err : "(empty)") : "(any)",
				      c->not_out ? c->not_out : "(none)");
			failed++;
		}
		res_free(&r);
	}
	assert_int_equal(failed, 0);
}

/* Options anywhere: the same line with the options moved gives the same bytes. */
static void test_options_anywhere(void **state)
{
	static const char *const lines[][MAXW] = {
		{ "--sample", "-j", "devices", NULL },
		{ "--sample", "devices", "-j", NULL },
		{ "-j", "devices", "--sample", NULL },
		{ "devices", "--json", "--sample", NULL },
		{ "-j", "--sample", "show", "devices", NULL },
	};
	static const char *const with_d[][MAXW] = {
		{ "--sample", "-j", "-d", "enp94s0f1np1", "devices", NULL },
		{ "--sample", "devices", "-d", "enp94s0f1np1", "-j", NULL },
		{ "devices", "-jd", "enp94s0f1np1", "--sample", NULL },
		{ "--sample", "-d", "94", "0", "1", "devices", "-j", NULL },
		{ "--sample", "-j", "devices", "-d", "5e:0.1", NULL },
		{ "--sample", "-j", "devices", "-d", "pci/0000:5e:00.1", NULL },
		{ "--sample", "-j", "devices", "-d", "mlx5_1", NULL },
	};
	/* a command's own option before the command words (issue 25) */
	static const char *const local[][MAXW] = {
		{ "--sample", "-j", "params", "--any-netdev", "-d", "eno1", NULL },
		{ "--sample", "--any-netdev", "-j", "params", "-d", "eno1", NULL },
		{ "--any-netdev", "--sample", "-d", "eno1", "params", "-j", NULL },
		{ "--sample", "-j", "--any-netdev", "params", "show", "-d", "eno1", NULL },
		{ "--sample", "-j", "params", "--any-netdev", "show", "-d", "eno1", NULL },
	};
	struct res first, r;

	(void)state;
	need_samples();
	run_argv(local[0], &first);
	assert_int_equal(first.rc, 0);
	assert_non_null(strstr(first.out, "\"netdev\":\"eno1\""));
	for (size_t i = 1; i < sizeof(local) / sizeof(local[0]); i++) {
		run_argv(local[i], &r);
		print_message("line %zu: exit %d %s\n", i, r.rc, r.err);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out, first.out);
		res_free(&r);
	}
	res_free(&first);

	run_argv(lines[0], &first);
	assert_int_equal(first.rc, 0);
	assert_non_null(strstr(first.out, "\"pci_address\":\"0000:5e:00.5\""));
	for (size_t i = 1; i < sizeof(lines) / sizeof(lines[0]); i++) {
		run_argv(lines[i], &r);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out, first.out);
		assert_string_equal(r.err, "");
		res_free(&r);
	}
	res_free(&first);

	run_argv(with_d[0], &first);
	assert_int_equal(first.rc, 0);
	assert_non_null(strstr(first.out, "\"devices\":[{\"pci_address\":\"0000:5e:00.1\""));
	assert_null(strstr(first.out, "0000:5e:00.0\""));
	for (size_t i = 1; i < sizeof(with_d) / sizeof(with_d[0]); i++) {
		run_argv(with_d[i], &r);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out, first.out);
		res_free(&r);
	}
	res_free(&first);
}

/* Bad input is refused before the system is looked at: exit 2 without a system. */
static void test_usage_before_system(void **state)
{
	static const char *const line[] = { "--sysroot", "/nonexistent", "-d", "../x", "devices",
					    NULL };
	struct res r;

	(void)state;
	run_argv(line, &r);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	res_free(&r);
}

/* A command with more options than any table has today (monitor has 12):
 * each one is taken.  The dispatcher kept 16 values and dropped the
 * options past the 16th without a word (issue 26). */
static void test_many_options(void **state)
{
	struct cmd_opt opts[41];
	char names[40][8];
	struct cmd c = { .name = "many", .opts = opts };
	char w0[] = "--o18", w1[] = "--o39", w2[] = "v39", w3[] = "pos", w4[] = "--o0",
	     w5[] = "--o31=v31";
	char *args[] = { w0, w1, w2, w3, w4, w5, NULL };
	struct cli cli;
	int n = 6;

	(void)state;
	memset(opts, 0, sizeof(opts));
	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		opts[i].name = names[i];
		opts[i].arg = i % 2 ? "VALUE" : NULL;    /* odd ones take a value */
		opts[i].help = "an option";
	}
	memset(&cli, 0, sizeof(cli));
	cli.cmd = &c;
	cli.err_fp = stderr;
	assert_int_equal(cli_parse_opts(&cli, &c, args, &n), EXIT_OK);
	assert_int_equal(n, 1);
	assert_string_equal(args[0], "pos");
	assert_non_null(cli_opt(&cli, "o18"));
	assert_string_equal(cli_opt(&cli, "o18"), "");
	assert_non_null(cli_opt(&cli, "o39"));
	assert_string_equal(cli_opt(&cli, "o39"), "v39");
	assert_non_null(cli_opt(&cli, "o31"));
	assert_string_equal(cli_opt(&cli, "o31"), "v31");
	assert_string_equal(cli_opt(&cli, "o0"), "");
	assert_null(cli_opt(&cli, "o1"));
	assert_null(cli_opt(&cli, "o17"));
	free(cli.optval);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_many_options),
		cmocka_unit_test(test_options_anywhere),
		cmocka_unit_test(test_usage_before_system),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
