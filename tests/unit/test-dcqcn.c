/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/dcqcn/dcqcn.c: the DCQCN parameter table against the
 * WinOF-2 manual's "RCM Parameters" (reference seeds-mlx5cmd-dcqcn-qos.md
 * §3.3), every range edge, name lookup in all its spellings, the
 * line-rate clamp; the defaults against the firmware's, as mlxconfig
 * printed them on a real card ($FIXTURES/dcqcn, skipped when absent);
 * the captured-system write model (np_cnp_prio resets np_cnp_prio_mode).
 */
#include <errno.h>
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

#include "dcqcn.h"
#include "write.h"
#include "mlx.h"

static const struct mlx_dcqcn_param *get(const char *name)
{
	const struct mlx_dcqcn_param *p = mlx_dcqcn_find(name, NULL);

	assert_non_null(p);
	return p;
}

/* The manual: 26 mlx5cmd names; -Get order; ranges as printed. */
static void test_table_shape(void **state)
{
	static const char *const get_order[] = {
		"DcqcnClampTgtRate", "DcqcnClampTgtRateAfterTimeInc", "DcqcnRpgTimeReset",
		"DcqcnRpgByteReset", "DcqcnRpgThreshold", "DcqcnRpgAiRate", "DcqcnRpgHaiRate",
		"DcqcnAlphaToRateShift", "DcqcnRpgMinDecFac", "DcqcnRpgMinRate",
		"DcqcnRateToSetOnFirstCnp", "DcqcnDceTcpG", "DcqcnDceTcpRtt",
		"DcqcnRateReduceMonitorPeriod", "DcqcnInitialAlphaValue", "DcqcnCnpDscp",
		"DcqcnCnp802pPrio", "DcqcnCnpPrioMode",
	};
	size_t n, named = 0, k = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		if (p[i].has_default) {
			/* Every default is a firmware value (checked below). */
			assert_non_null(p[i].nvconfig);
			assert_true(p[i].def >= p[i].min && p[i].def <= p[i].max);
		}
		if (!p[i].mlx5cmd) {
			/* Linux-only parameters: not in the manual's example. */
			assert_false(p[i].has_example);
			assert_non_null(p[i].ofed);
			assert_non_null(p[i].debugfs);
			continue;
		}
		named++;
		assert_true(p[i].has_example);
		assert_non_null(p[i].unit);
		assert_non_null(p[i].desc);
		assert_true(p[i].ofed || p[i].debugfs);
		if (i < 8) {
			char buf[32];

			snprintf(buf, sizeof(buf), "DcqcnEnablePrio%zu", i);
			assert_string_equal(p[i].mlx5cmd, buf);
			assert_int_equal(p[i].prio, (int)i);
			continue;
		}
		assert_int_equal(p[i].prio, -1);
		assert_true(k < 18);
		assert_string_equal(p[i].mlx5cmd, get_order[k++]);
	}
	assert_int_equal(named, 26);
	assert_int_equal(k, 18);
	/* The manual's -Get sample is an example, not the defaults. */
	assert_int_equal(get("DcqcnRpgTimeReset")->example, 100);
	assert_int_equal(get("DcqcnRpgByteReset")->example, 400);
	assert_int_equal(get("DcqcnRateToSetOnFirstCnp")->example, 3000);
	assert_int_equal(get("DcqcnCnp802pPrio")->example, 7);
	/* No factory value of the CNP prio mode was captured. */
	assert_false(get("DcqcnCnpPrioMode")->has_default);
	/* Only the CNP prio mode is missing from the OFED sysfs. */
	assert_null(get("DcqcnCnpPrioMode")->ofed);
	assert_string_equal(get("DcqcnCnpPrioMode")->debugfs, "np_cnp_prio_mode");
	/* Widths of the manual's types. */
	assert_int_equal(get("DcqcnCnpDscp")->width, 6);
	assert_int_equal(get("DcqcnCnp802pPrio")->width, 3);
	assert_int_equal(get("DcqcnClampTgtRate")->width, 1);
}

struct edge {
	const char *name;
	const char *text;
	int err;
	uint64_t val;
};

static void test_ranges(void **state)
{
	static const struct edge e[] = {
		{ "DcqcnRpgTimeReset", "0", 0, 0 },
		{ "DcqcnRpgTimeReset", "131071", 0, 131071 },
		{ "DcqcnRpgTimeReset", "131072", -ERANGE, 0 },
		{ "DcqcnRpgTimeReset", "0x1ffff", 0, 131071 },
		{ "DcqcnRpgTimeReset", "0x20000", -ERANGE, 0 },
		{ "DcqcnRpgByteReset", "32767", 0, 32767 },
		{ "DcqcnRpgByteReset", "32768", -ERANGE, 0 },
		{ "DcqcnRpgThreshold", "0", -ERANGE, 0 },
		{ "DcqcnRpgThreshold", "1", 0, 1 },
		{ "DcqcnRpgThreshold", "31", 0, 31 },
		{ "DcqcnRpgThreshold", "32", -ERANGE, 0 },
		{ "DcqcnRpgAiRate", "0", -ERANGE, 0 },
		{ "DcqcnRpgAiRate", "1", 0, 1 },
		{ "DcqcnRpgAiRate", "4294967295", 0, 4294967295ULL },
		{ "DcqcnRpgAiRate", "4294967296", -ERANGE, 0 },
		{ "DcqcnRpgHaiRate", "0", -ERANGE, 0 },
		{ "DcqcnAlphaToRateShift", "11", 0, 11 },
		{ "DcqcnAlphaToRateShift", "12", -ERANGE, 0 },
		{ "DcqcnRpgMinDecFac", "0", -ERANGE, 0 },
		{ "DcqcnRpgMinDecFac", "1", 0, 1 },
		{ "DcqcnRpgMinDecFac", "100", 0, 100 },
		{ "DcqcnRpgMinDecFac", "101", -ERANGE, 0 },
		{ "DcqcnRpgMinRate", "0", 0, 0 },
		{ "DcqcnRateToSetOnFirstCnp", "0", 0, 0 },
		{ "DcqcnDceTcpG", "1023", 0, 1023 },
		{ "DcqcnDceTcpG", "1024", -ERANGE, 0 },
		{ "DcqcnDceTcpG", "0x3FF", 0, 1023 },
		{ "DcqcnDceTcpRtt", "131071", 0, 131071 },
		{ "DcqcnDceTcpRtt", "131072", -ERANGE, 0 },
		{ "DcqcnRateReduceMonitorPeriod", "4294967295", 0, 4294967295ULL },
		{ "DcqcnRateReduceMonitorPeriod", "4294967296", -ERANGE, 0 },
		{ "DcqcnInitialAlphaValue", "1023", 0, 1023 },
		{ "DcqcnInitialAlphaValue", "1024", -ERANGE, 0 },
		{ "DcqcnCnpDscp", "63", 0, 63 },
		{ "DcqcnCnpDscp", "64", -ERANGE, 0 },
		{ "DcqcnCnp802pPrio", "7", 0, 7 },
		{ "DcqcnCnp802pPrio", "8", -ERANGE, 0 },
		{ "DcqcnCnpPrioMode", "1", 0, 1 },
		{ "DcqcnCnpPrioMode", "2", -ERANGE, 0 },
		{ "DcqcnClampTgtRate", "2", -ERANGE, 0 },
		{ "DcqcnEnablePrio7", "1", 0, 1 },
		{ "DcqcnEnablePrio7", "2", -ERANGE, 0 },
		/* not numbers */
		{ "DcqcnCnpDscp", "-1", -EINVAL, 0 },
		{ "DcqcnCnpDscp", "+1", -EINVAL, 0 },
		{ "DcqcnCnpDscp", "", -EINVAL, 0 },
		{ "DcqcnCnpDscp", "abc", -EINVAL, 0 },
		{ "DcqcnCnpDscp", "12abc", -EINVAL, 0 },
		{ "DcqcnCnpDscp", "0x", -EINVAL, 0 },
		{ "DcqcnCnpDscp", " 1", -EINVAL, 0 },
		{ "DcqcnCnpDscp", "1.5", -EINVAL, 0 },
		/* overflow of 64 bits is a range error, never a wrap */
		{ "DcqcnRpgAiRate", "18446744073709551616", -ERANGE, 0 },
		{ "DcqcnRpgAiRate", "0x10000000000000000", -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		uint64_t v = 12345;
		int r = mlx_dcqcn_parse(get(e[i].name), e[i].text, &v);

		if (r != e[i].err)
			fail_msg("%s '%s': got %d, want %d", e[i].name, e[i].text, r, e[i].err);
		if (!r)
			assert_int_equal(v, e[i].val);
		else
			assert_int_equal(v, 12345);    /* untouched on failure */
	}
}

static void test_names(void **state)
{
	const struct mlx_dcqcn_param *ai = get("DcqcnRpgAiRate");
	enum mlx_dcqcn_side side = 0;

	(void)state;
	assert_ptr_equal(mlx_dcqcn_find("dcqcnrpgairate", NULL), ai);
	assert_ptr_equal(mlx_dcqcn_find("DCQCNRPGAIRATE", NULL), ai);
	assert_ptr_equal(mlx_dcqcn_find("-DcqcnRpgAiRate", NULL), ai);
	assert_ptr_equal(mlx_dcqcn_find("\xe2\x80\x93" "DcqcnRpgAiRate", NULL), ai); /* U+2013 */
	assert_ptr_equal(mlx_dcqcn_find("\xe2\x80\x94" "DcqcnRpgAiRate", NULL), ai); /* U+2014 */
	assert_ptr_equal(mlx_dcqcn_find("rpg_ai_rate", NULL), ai);
	assert_ptr_equal(mlx_dcqcn_find("RPG_AI_RATE", NULL), ai);
	assert_ptr_equal(mlx_dcqcn_find("rp_ai_rate", NULL), ai);
	assert_ptr_equal(mlx_dcqcn_find("-rp_ai_rate", NULL), ai);
	assert_null(mlx_dcqcn_find("--DcqcnRpgAiRate", NULL));
	assert_null(mlx_dcqcn_find("DcqcnRpgAiRat", NULL));
	assert_null(mlx_dcqcn_find("DcqcnRpgAiRateX", NULL));
	assert_null(mlx_dcqcn_find("", NULL));
	assert_null(mlx_dcqcn_find("\xe2\x80", NULL));
	/* AlphaToRateShift is rpg_gd / rp_gd on Linux. */
	assert_ptr_equal(mlx_dcqcn_find("rpg_gd", NULL), get("DcqcnAlphaToRateShift"));
	assert_ptr_equal(mlx_dcqcn_find("rp_gd", NULL), get("DcqcnAlphaToRateShift"));
	assert_ptr_equal(mlx_dcqcn_find("np_cnp_prio", NULL), get("DcqcnCnp802pPrio"));
	assert_ptr_equal(mlx_dcqcn_find("cnp_802p_prio", NULL), get("DcqcnCnp802pPrio"));
	assert_ptr_equal(mlx_dcqcn_find("rp_clamp_tgt_rate_ati", NULL),
			 get("DcqcnClampTgtRateAfterTimeInc"));
	/* Linux-only ones by their file names. */
	assert_non_null(mlx_dcqcn_find("rpg_max_rate", NULL));
	assert_ptr_equal(mlx_dcqcn_find("rp_max_rate", NULL), mlx_dcqcn_find("rpg_max_rate", NULL));
	assert_non_null(mlx_dcqcn_find("np_min_time_between_cnps", NULL));
	/* Enables: the table name drives both sides, the -Get names one. */
	assert_ptr_equal(mlx_dcqcn_find("DcqcnEnablePrio3", &side), get("DcqcnEnablePrio3"));
	assert_int_equal(side, MLX_DCQCN_BOTH);
	assert_ptr_equal(mlx_dcqcn_find("DcqcnRPEnablePrio3", &side), get("DcqcnEnablePrio3"));
	assert_int_equal(side, MLX_DCQCN_RP);
	assert_ptr_equal(mlx_dcqcn_find("-dcqcnnpenableprio3", &side), get("DcqcnEnablePrio3"));
	assert_int_equal(side, MLX_DCQCN_NP);
	assert_null(mlx_dcqcn_find("DcqcnRPEnablePrio8", NULL));
	assert_null(mlx_dcqcn_find("DcqcnEnablePrio8", NULL));
	mlx_dcqcn_find("DcqcnCnpDscp", &side);
	assert_int_equal(side, MLX_DCQCN_NP);
	mlx_dcqcn_find("rp_time_reset", &side);
	assert_int_equal(side, MLX_DCQCN_RP);
}

static void test_clamp(void **state)
{
	const struct mlx_dcqcn_param *ai = get("DcqcnRpgAiRate");
	bool clamped = true;
	size_t n, nline = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);

	(void)state;
	/* Exactly the four "line rate" parameters of the manual. */
	for (size_t i = 0; i < n; i++)
		nline += p[i].line_rate;
	assert_int_equal(nline, 4);
	assert_true(get("DcqcnRpgHaiRate")->line_rate);
	assert_true(get("DcqcnRpgMinRate")->line_rate);
	assert_true(get("DcqcnRateToSetOnFirstCnp")->line_rate);

	assert_int_equal(mlx_dcqcn_clamp(ai, 500000, 100000, &clamped), 100000);
	assert_true(clamped);
	assert_int_equal(mlx_dcqcn_clamp(ai, 100000, 100000, &clamped), 100000);
	assert_false(clamped);
	assert_int_equal(mlx_dcqcn_clamp(ai, 100001, 100000, &clamped), 100000);
	assert_true(clamped);
	assert_int_equal(mlx_dcqcn_clamp(ai, 10, 100000, &clamped), 10);
	assert_false(clamped);
	/* Unknown speed (link down: -1) or 0: nothing to clamp to. */
	assert_int_equal(mlx_dcqcn_clamp(ai, 500000, -1, &clamped), 500000);
	assert_false(clamped);
	assert_int_equal(mlx_dcqcn_clamp(ai, 500000, 0, &clamped), 500000);
	assert_false(clamped);
	/* Not a line-rate parameter: never clamped. */
	assert_int_equal(mlx_dcqcn_clamp(get("DcqcnRpgTimeReset"), 131071, 1000, &clamped), 131071);
	assert_false(clamped);
}

/* ---- the defaults against the firmware's, as captured ---- */

#define CAPTURE "dcqcn/cx4lx-mcx4121a-mlxconfig-q-linux-pve-roce-cc-defaults.txt"

/* The value of mlxconfig's NAME in @text: "  NAME   300" or "True(1)". */
static bool nv_value(const char *text, const char *name, uint64_t *val)
{
	size_t len = strlen(name);

	for (const char *s = strstr(text, name); s; s = strstr(s + 1, name)) {
		const char *v = s + len, *paren;

		if ((s != text && s[-1] != ' ') || (*v != ' '))
			continue;
		while (*v == ' ')
			v++;
		paren = strchr(v, '(');
		if (paren && paren < strchr(v, '\n'))
			v = paren + 1;
		*val = strtoull(v, NULL, 0);
		return true;
	}
	return false;
}

static void test_defaults_are_firmware(void **state)
{
	const char *fx = getenv("FIXTURES");
	char path[512], *text;
	size_t n, checked = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	struct mlx_dcqcn_defaults d;
	FILE *f;
	long len;

	(void)state;
	if (!fx || !*fx) {
		print_message("SKIP: FIXTURES not set: the captured firmware defaults are not here\n");
		skip();
	}
	snprintf(path, sizeof(path), "%s/%s", fx, CAPTURE);
	f = fopen(path, "r");
	if (!f) {
		print_message("SKIP: %s not found\n", path);
		skip();
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	assert_non_null(strstr(text, "ConnectX4LX"));
	for (size_t i = 0; i < n; i++) {
		for (int port = 1; port <= 2 && p[i].has_default; port++) {
			char name[64];
			uint64_t v = 0;

			snprintf(name, sizeof(name), "%s_P%d", p[i].nvconfig, port);
			assert_true(nv_value(text, name, &v));
			if (p[i].prio >= 0)
				v = (v >> p[i].prio) & 1;
			if (v != p[i].def)
				fail_msg("%s: default %llu, the firmware's %s is %llu",
					 p[i].mlx5cmd ? p[i].mlx5cmd : p[i].ofed,
					 (unsigned long long)p[i].def, name, (unsigned long long)v);
			checked++;
		}
	}
	/* 8 enables and 19 parameters, both ports. */
	assert_int_equal(checked, 2 * 27);
	free(text);
	/* Which family these come from is said, and matched by device ID. */
	mlx_dcqcn_defaults(NULL, &d);
	assert_string_equal(d.family, "ConnectX-4 Lx");
	assert_non_null(strstr(d.source, "MCX4121A"));
	assert_false(d.captured_family);
}

/* A write with a side effect comes before the file it resets. */
static void test_side_effect_order(void **state)
{
	size_t n;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n), *se;
	uint64_t v = 9;

	(void)state;
	se = mlx_dcqcn_side_effect(get("DcqcnCnp802pPrio"), MLX_DCQCN_DEBUGFS, &v);
	assert_ptr_equal(se, get("DcqcnCnpPrioMode"));
	assert_int_equal(v, 0);
	assert_null(mlx_dcqcn_side_effect(get("DcqcnCnp802pPrio"), MLX_DCQCN_OFED, &v));
	for (size_t i = 0; i < n; i++) {
		se = mlx_dcqcn_side_effect(&p[i], MLX_DCQCN_DEBUGFS, &v);
		if (se)
			assert_true(se > &p[i]);
	}
}

/* ---- the captured-system write model ---- */

static char root[] = "/tmp/mlx-dcqcn-unit-XXXXXX";
#define CC "/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params"

static void put(const char *rel, const char *val)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(val, f);
	fclose(f);
}

static uint64_t cat(const char *rel)
{
	char p[256], buf[32] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return strtoull(buf, NULL, 10);
}

/* Run a set through the write engine with the DCQCN plan. */
static int run_set(struct mlx_ctx *ctx, struct mlx_dcqcn_port *dp, const char *const *names,
		   const uint64_t *vals, size_t n, struct mlx_plan *pl)
{
	struct mlx_dcqcn_writer w = { .dp = dp, .speed_mbps = 100000 };
	const struct mlx_write_req req = { .lock = NULL };
	struct mlx_write_result res;

	memset(pl, 0, sizeof(*pl));
	for (size_t i = 0; i < n; i++) {
		const struct mlx_dcqcn_param *p = get(names[i]);

		assert_true(mlx_dcqcn_plan_add(pl, p, p->side, dp->layout, vals[i]) >= 0);
	}
	return mlx_write_run(ctx, &mlx_dcqcn_write_ops, &w, &req, pl, &res);
}

static void test_emul_cnp_prio_resets_mode(void **state)
{
	struct mlx_dcqcn_port dp = { .layout = MLX_DCQCN_DEBUGFS };
	static const char *const both[] = { "DcqcnCnpPrioMode", "DcqcnCnp802pPrio" };
	static const char *const prio_only[] = { "DcqcnCnp802pPrio" };
	const uint64_t vals[] = { 1, 5 }, five[] = { 5 };
	struct mlx_plan pl;
	struct mlx_ctx *ctx;
	char cmd[256];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s" CC " %s/sys/bus/pci/devices", root, root);
	assert_int_equal(system(cmd), 0);
	snprintf(dp.dir[0], sizeof(dp.dir[0]), "%s", CC);
	put(CC "/np_cnp_prio", "6\n");
	put(CC "/np_cnp_prio_mode", "1\n");
	assert_int_equal(mlx_ctx_new(root, &ctx, NULL), 0);
	/* The driver: writing np_cnp_prio sets the mode to 0; the plan adds the
	 * mode with its value, written back after the priority. */
	assert_int_equal(run_set(ctx, &dp, prio_only, five, 1, &pl), 0);
	assert_int_equal(cat(CC "/np_cnp_prio"), 5);
	assert_int_equal(cat(CC "/np_cnp_prio_mode"), 1);
	assert_int_equal(pl.n, 2);
	assert_string_equal(pl.c[0].setting, "np_cnp_prio");
	assert_string_equal(pl.c[1].setting, "np_cnp_prio_mode");
	assert_true(pl.c[1].rewrite);
	assert_false(pl.c[1].changed);
	assert_non_null(pl.c[1].note);
	mlx_plan_free(&pl);
	/* Given mode first: the plan puts the priority first (table order). */
	put(CC "/np_cnp_prio", "6\n");
	assert_int_equal(run_set(ctx, &dp, both, vals, 2, &pl), 0);
	assert_int_equal(cat(CC "/np_cnp_prio"), 5);
	assert_int_equal(cat(CC "/np_cnp_prio_mode"), 1);
	mlx_plan_free(&pl);
	/* A failed write's put-back with this side effect: test-write.c
	 * (test_rollback_side_effect), on the engine itself. */
	mlx_ctx_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_shape),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_defaults_are_firmware),
		cmocka_unit_test(test_side_effect_order),
		cmocka_unit_test(test_emul_cnp_prio_resets_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
