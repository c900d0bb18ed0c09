/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/backend/vsec.c: the CR-space gateway protocol and the mstdump
 * block-list parser.
 *
 * The gateway talks to hardware that is not here, so the config space of a
 * ConnectX function is emulated below: the vendor-specific capability's
 * registers (CTRL, COUNTER, SEMAPHORE, ADDR, DATA), two address spaces
 * with a backing memory map, busy cycles before the read flag sets, and
 * injectable faults (a semaphore held by another owner, a race lost once,
 * a flag that never sets, an unsupported space, a config access that fails
 * at the k-th call).  This emulator is the hardware boundary, the one place
 * where DESIGN.md allows a mock; the code under test (lib/backend/vsec.c) is the
 * real one, behind the same mlx_cfg_ops the libpci backend implements.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vsec.h"

#define CAP 0xc0
#define MEM_DWORDS 8192

struct emu {
	uint32_t ctrl, counter, sem, addr, data;
	uint32_t mem[MEM_DWORDS];          /* CR space 0x0 .. 0x7fff */
	uint16_t supported[4];             /* spaces with status != 0 */
	unsigned busy_cycles, busy_left;   /* ADDR polls with FLAG clear */
	bool flag_never;
	uint32_t other_owner;              /* SEM held by someone else */
	unsigned steal_once;               /* lose the ticket race n times */
	unsigned thief_looks;              /* SEM reads before the thief releases */
	long fail_at;                      /* access number that fails, 0 none */
	long naccess;
	long sem_writes, sem_reads;
};

static bool emu_space_ok(const struct emu *e, uint16_t sp)
{
	for (size_t i = 0; i < 4; i++)
		if (e->supported[i] == sp)
			return true;
	return false;
}

static int emu_read32(void *h, uint16_t off, uint32_t *v)
{
	struct emu *e = h;

	if (++e->naccess == e->fail_at)
		return -EIO;
	switch (off - CAP) {
	case MLX_VSC_CTRL:
		*v = e->ctrl;
		break;
	case MLX_VSC_COUNTER:
		*v = ++e->counter;
		break;
	case MLX_VSC_SEMAPHORE:
		e->sem_reads++;
		*v = e->other_owner ? e->other_owner : e->sem;
		if (e->sem == 0x77777777 && e->thief_looks && --e->thief_looks == 0)
			e->sem = 0;     /* the thief releases after this look */
		break;
	case MLX_VSC_ADDR:
		if (e->flag_never || e->busy_left) {
			if (e->busy_left)
				e->busy_left--;
			*v = e->addr;
		} else {
			*v = e->addr | MLX_VSC_FLAG;
		}
		break;
	case MLX_VSC_DATA:
		*v = e->data;
		break;
	default:
		*v = 0;
	}
	return 0;
}

static int emu_write32(void *h, uint16_t off, uint32_t v)
{
	struct emu *e = h;

	if (++e->naccess == e->fail_at)
		return -EIO;
	switch (off - CAP) {
	case MLX_VSC_CTRL: {
		uint16_t sp = (uint16_t)(v & MLX_VSC_SPACE_MASK);

		/* The device answers the selection with a status in 31:29. */
		e->ctrl = sp | (emu_space_ok(e, sp) ? 1u << MLX_VSC_STATUS_SHIFT : 0);
		break;
	}
	case MLX_VSC_SEMAPHORE:
		e->sem_writes++;
		if (e->other_owner)
			break;                  /* not ours to take */
		if (v && e->steal_once) {
			e->steal_once--;
			e->sem = 0x77777777;    /* another owner wrote last */
			e->other_owner = 0;
			break;
		}
		if (v == 0 || e->sem == 0)
			e->sem = v;
		break;
	case MLX_VSC_ADDR:
		e->addr = v & MLX_VSC_ADDR_MASK;
		e->busy_left = e->busy_cycles;
		if (!(v & MLX_VSC_FLAG))
			e->data = e->addr / 4 < MEM_DWORDS ? e->mem[e->addr / 4] : 0xbad0bad0;
		break;
	default:
		break;
	}
	return 0;
}

static const struct mlx_cfg_ops emu_ops = { emu_read32, emu_write32 };

static struct emu *emu_new(void)
{
	struct emu *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	for (uint32_t i = 0; i < MEM_DWORDS; i++)
		e->mem[i] = (i * 4) ^ 0xa5a50000u;
	e->supported[0] = MLX_VSC_SPACE_CR;
	e->supported[1] = MLX_VSC_SPACE_SEMAPHORE;
	return e;
}

static void gw_init(struct mlx_vsec *g, struct emu *e)
{
	mlx_vsec_init(g, &emu_ops, e, CAP);
	g->sem_sleep_us = 0;
	g->flag_sleep_us = 0;
	g->sem_retries = 50;
	g->flag_polls = 100;
}

/* The semaphore is free after the call and nobody else holds it. */
static void assert_released(const struct emu *e)
{
	assert_int_equal(e->sem, 0);
}

/* ---- normal reads ---- */

static void test_dump_ranges(void **state)
{
	static const char csv[] = "#Addr, Size, Enable addr\n0x000000,300,\n0x001000,5,\n0x004000,2000,\n";
	struct mlx_cr_range *r;
	size_t n, bad, total = 0;
	char err[128];
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t *buf;

	(void)state;
	assert_int_equal(mlx_cr_ranges_parse(csv, strlen(csv), &r, &n, &bad, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	gw_init(&g, e);
	g.chunk = 1024;
	buf = calloc(2000, 4);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, r[i].addr, buf, r[i].dwords), 0);
		for (uint32_t k = 0; k < r[i].dwords; k++)
			assert_int_equal(buf[k], (r[i].addr + 4 * k) ^ 0xa5a50000u);
		total += r[i].dwords;
		assert_released(e);
	}
	assert_int_equal(g.st.dwords, total);
	/* 300 -> 1 hold, 5 -> 1, 2000 -> 2 (chunk 1024) */
	assert_int_equal(g.st.holds, 4);
	/* The protocol minimum, exactly: 3 per dword, 8 per hold. */
	assert_int_equal(g.st.reads + g.st.writes,
			 MLX_VSC_MIN_PER_DWORD * total + MLX_VSC_MIN_PER_HOLD * g.st.holds);
	assert_int_equal(g.st.extra_polls, 0);
	print_message("accesses per dword: %.4f (%llu accesses, %zu dwords, %llu holds)\n",
		      (double)(g.st.reads + g.st.writes) / (double)total,
		      (unsigned long long)(g.st.reads + g.st.writes), total,
		      (unsigned long long)g.st.holds);
	free(buf);
	free(r);
	free(e);
}

static void test_busy_cycles(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[64];

	(void)state;
	e->busy_cycles = 7;
	gw_init(&g, e);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x100, buf, 64), 0);
	for (uint32_t k = 0; k < 64; k++)
		assert_int_equal(buf[k], (0x100 + 4 * k) ^ 0xa5a50000u);
	assert_int_equal(g.st.extra_polls, 7 * 64);
	assert_int_equal(g.st.reads + g.st.writes, (3 + 7) * 64 + 8);
	assert_released(e);
	free(e);
}

/* ---- the semaphore ---- */

static void test_sem_held(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[4];

	(void)state;
	e->other_owner = 0x1234;
	gw_init(&g, e);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0, buf, 4), -EBUSY);
	assert_non_null(strstr(g.err, "held by another owner"));
	/* bounded: exactly sem_retries looks, and never a write to SEM */
	assert_int_equal(e->sem_reads, 50);
	assert_int_equal(e->sem_writes, 0);
	assert_int_equal(g.st.dwords, 0);
	/* the other owner still has it; we left nothing of ours */
	assert_int_equal(e->other_owner, 0x1234);
	e->other_owner = 0;
	assert_released(e);
	free(e);
}

static void test_sem_race_lost_once(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[4];

	(void)state;
	/* Another owner writes its ticket just after ours, holds the
	 * semaphore for 3 looks, then releases it. */
	e->steal_once = 1;
	e->thief_looks = 3;
	gw_init(&g, e);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0, buf, 4), 0);
	assert_int_equal(buf[1], 4 ^ 0xa5a50000u);
	assert_int_equal(g.st.sem_busy, 3);  /* lost race + 2 looks while held */
	assert_int_equal(g.st.holds, 1);
	assert_released(e);
	free(e);
}

/* ---- the flag, the space, errors midway ---- */

static void test_flag_never(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[4];

	(void)state;
	e->flag_never = true;
	gw_init(&g, e);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x40, buf, 4), -ETIMEDOUT);
	assert_non_null(strstr(g.err, "0x00000040"));
	assert_int_equal(g.st.extra_polls, 100);
	assert_released(e);
	free(e);
}

static void test_unsupported_space(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[4];

	(void)state;
	gw_init(&g, e);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_ICMD, 0, buf, 4), -EOPNOTSUPP);
	assert_non_null(strstr(g.err, "not supported"));
	assert_int_equal(g.st.dwords, 0);
	assert_released(e);
	free(e);
}

static void test_bad_address(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[4];

	(void)state;
	gw_init(&g, e);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x40000000, buf, 1), -EINVAL);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x3ffffffc, buf, 2), -EINVAL);
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x2, buf, 1), -EINVAL);
	assert_int_equal(e->naccess, 0);
	free(e);
}

/*
 * Fail every single config access of a small read in turn (k = 1 .. all):
 * each run returns an error and leaves the semaphore free.
 */
static void test_error_every_access(void **state)
{
	struct emu *e = emu_new();
	struct mlx_vsec g;
	uint32_t buf[3];
	long total;

	(void)state;
	gw_init(&g, e);
	g.chunk = 2;            /* two holds: failures inside the second too */
	assert_int_equal(mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x10, buf, 3), 0);
	total = e->naccess;
	assert_int_equal(total, 3 * 3 + 8 * 2);
	for (long k = 1; k <= total; k++) {
		int r;

		free(e);
		e = emu_new();
		e->fail_at = k;
		gw_init(&g, e);
		g.chunk = 2;
		r = mlx_vsec_read(&g, MLX_VSC_SPACE_CR, 0x10, buf, 3);
		if (r != -EIO)
			fail_msg("access %ld failed: returned %d", k, r);
		assert_true(g.err[0] != '\0');
		if (e->sem != 0)
			fail_msg("access %ld failed: semaphore left at 0x%x", k, e->sem);
	}
	free(e);
}

/* ---- the block-list parser ---- */

static int parse(const char *s, size_t *n, size_t *bad)
{
	struct mlx_cr_range *r = NULL;
	char err[128];
	int rc = mlx_cr_ranges_parse(s, strlen(s), &r, n, bad, err, sizeof(err));

	if (rc < 0)
		assert_true(err[0] != '\0');
	free(r);
	return rc;
}

static void test_csv_edges(void **state)
{
	static const struct {
		const char *text;
		int rc;
		size_t n, bad_line;
	} cases[] = {
		{ "", 0, 0, 0 },
		{ "#Addr, Size, Enable addr\n", 0, 0, 0 },
		{ "#Addr, Size, Enable addr\r\n0x10,2,\r\n", 0, 1, 0 },
		{ "0x10,2", 0, 1, 0 },                       /* no newline, no 3rd field */
		{ "  0X00AbC0 , 3 , 0x0\n", 0, 1, 0 },        /* spaces, upper-case */
		{ "10,1,\n", 0, 1, 0 },                      /* hex without 0x */
		{ "\n\n# c\n0x0,1,\n\n", 0, 1, 0 },
		{ "0x0,1,\n0x4\n", -EINVAL, 0, 2 },           /* no size */
		{ "0x0,0,\n", -EINVAL, 0, 1 },               /* empty block */
		{ "0x2,1,\n", -EINVAL, 0, 1 },               /* unaligned */
		{ "0x,1,\n", -EINVAL, 0, 1 },
		{ "0x3ffffffc,1,\n", 0, 1, 0 },              /* last dword */
		{ "0x3ffffffc,2,\n", -EINVAL, 0, 1 },        /* past 2^30 */
		{ "0xffffffffffffffffff,1,\n", -EINVAL, 0, 1 },
		{ "0x0,99999999999999999999,\n", -EINVAL, 0, 1 },
		{ "0x0,-1,\n", -EINVAL, 0, 1 },
		{ "0x0,0x10,\n", -EINVAL, 0, 1 },            /* size is decimal */
		{ "0x0,1x,\n", -EINVAL, 0, 1 },
		{ "garbage\n", -EINVAL, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = 99, bad = 99;
		int rc = parse(cases[i].text, &n, &bad);

		if (rc != cases[i].rc || (rc == 0 && n != cases[i].n) ||
		    (rc < 0 && bad != cases[i].bad_line))
			fail_msg("case %zu '%s': rc %d n %zu line %zu", i, cases[i].text, rc, n, bad);
	}
	/* an embedded NUL is an error, not the end of the text */
	{
		static const char t[] = "0x0,1,\n0x4,\0,\n";
		struct mlx_cr_range *r;
		size_t n, bad;
		char err[64];

		assert_int_equal(mlx_cr_ranges_parse(t, sizeof(t) - 1, &r, &n, &bad, err, sizeof(err)),
				 -EINVAL);
		assert_int_equal(bad, 2);
	}
}

/* The embedded tables equal mstflint's lists (from $FIXTURES when present). */
static void test_embedded_tables(void **state)
{
	const char *fx = getenv("FIXTURES");
	size_t nt;
	const struct mlx_cr_ranges_db *t = mlx_cr_ranges_table(&nt);

	(void)state;
	assert_int_equal(nt, 2);
	assert_ptr_equal(mlx_cr_ranges_for(0x1017), &t[0]);
	assert_ptr_equal(mlx_cr_ranges_for(0x1019), &t[0]);
	assert_ptr_equal(mlx_cr_ranges_for(0x101d), &t[1]);
	assert_null(mlx_cr_ranges_for(0x1018));     /* a VF: no gateway */
	assert_int_equal(t[0].r[0].addr, 0);
	assert_int_equal(t[0].r[0].dwords, 16418);
	if (!fx)
		return;
	for (size_t i = 0; i < nt; i++) {
		char path[512], *buf;
		struct mlx_cr_range *r;
		size_t n, bad, len;
		char err[128];
		FILE *f;

		snprintf(path, sizeof(path), "%s/mstdump/%s.csv", fx, t[i].name);
		f = fopen(path, "r");
		if (!f) {
			print_message("skip: %s absent\n", path);
			continue;
		}
		buf = malloc(1 << 20);
		len = fread(buf, 1, 1 << 20, f);
		fclose(f);
		assert_int_equal(mlx_cr_ranges_parse(buf, len, &r, &n, &bad, err, sizeof(err)), 0);
		assert_int_equal(n, t[i].n);
		assert_memory_equal(r, t[i].r, n * sizeof(*r));
		print_message("%s: %zu blocks, equal to %s\n", t[i].name, n, path);
		free(r);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_ranges),
		cmocka_unit_test(test_busy_cycles),
		cmocka_unit_test(test_sem_held),
		cmocka_unit_test(test_sem_race_lost_once),
		cmocka_unit_test(test_flag_never),
		cmocka_unit_test(test_unsupported_space),
		cmocka_unit_test(test_bad_address),
		cmocka_unit_test(test_error_every_access),
		cmocka_unit_test(test_csv_edges),
		cmocka_unit_test(test_embedded_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
