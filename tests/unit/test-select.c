/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/core/select.c: mlx_selector_parse() over the spellings
 * mlxcli(8) "DEVICE SELECTION" documents (good and bad), then mlx_select()
 * on a hand-built device model: every selector kind, no match, and an
 * address present in two PCI domains.
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

#include "device.h"

struct good {
	const char *text;
	enum mlx_sel_kind kind;
	bool has_domain;
	unsigned domain, bus, dev, func;
	const char *name;   /* MLX_SEL_NAME */
	const char *norm;   /* sel->text after parsing */
};

static const struct good goods[] = {
	{ "0000:5e:00.0", MLX_SEL_PCI, true, 0, 0x5e, 0, 0, NULL, "0000:5e:00.0" },
	{ "5e:00.0", MLX_SEL_PCI, false, 0, 0x5e, 0, 0, NULL, "5e:00.0" },
	{ "5E:00.0", MLX_SEL_PCI, false, 0, 0x5e, 0, 0, NULL, "5e:00.0" },
	{ "94 0 0", MLX_SEL_PCI, false, 0, 0x5e, 0, 0, NULL, "5e:00.0" },
	{ "  94  0 0 ", MLX_SEL_PCI, false, 0, 0x5e, 0, 0, NULL, "5e:00.0" },
	/* a colon form is hex however many digits it has (lspci's meaning,
	 * issue 25): 59:0.1 is bus 0x59, never mlxtool's decimal 59 */
	{ "94:0.0", MLX_SEL_PCI, false, 0, 0x94, 0, 0, NULL, "94:00.0" },
	{ "59:0.1", MLX_SEL_PCI, false, 0, 0x59, 0, 1, NULL, "59:00.1" },
	{ "8:0.0", MLX_SEL_PCI, false, 0, 0x08, 0, 0, NULL, "08:00.0" },
	{ "5e:0.0", MLX_SEL_PCI, false, 0, 0x5e, 0, 0, NULL, "5e:00.0" },
	/* devlink's handle */
	{ "pci/0000:5e:00.0", MLX_SEL_PCI, true, 0, 0x5e, 0, 0, NULL, "0000:5e:00.0" },
	{ "pci/0001:3b:1f.7", MLX_SEL_PCI, true, 1, 0x3b, 0x1f, 7, NULL, "0001:3b:1f.7" },
	{ "08:00.0", MLX_SEL_PCI, false, 0, 0x08, 0, 0, NULL, "08:00.0" },
	{ "10:00.0", MLX_SEL_PCI, false, 0, 0x10, 0, 0, NULL, "10:00.0" }, /* canonical: hex */
	{ "1:2.3", MLX_SEL_PCI, false, 0, 1, 2, 3, NULL, "01:02.3" },
	{ "0001:3b:1f.7", MLX_SEL_PCI, true, 1, 0x3b, 0x1f, 7, NULL, "0001:3b:1f.7" },
	{ "255 31 7", MLX_SEL_PCI, false, 0, 0xff, 31, 7, NULL, "ff:1f.7" },
	{ "enp94s0f0np0", MLX_SEL_NAME, false, 0, 0, 0, 0, "enp94s0f0np0", "enp94s0f0np0" },
	{ "mlx5_0", MLX_SEL_NAME, false, 0, 0, 0, 0, "mlx5_0", "mlx5_0" },
};

static const char *const bads[] = {
	"", "../x", "a/b", "..", ".", "0000:5e:00.8", "300 0 0", "94 32 0", "94 0 8",
	"5e:00.", "1 2", "1 2 3 4", "1 2 x", "eth\x01", "eth\n0", "a\x7f",
	"0000:5e:00.0 ",
	/* hex: no bus 0x255 (mlxtool's decimal 255 is "255 0 0") */
	"255:0.0", "1:32.0",
	/* a devlink handle is pci/ and an address */
	"pci/", "pci/eth0", "pci/0000:5e:00.0/1", "pci/94 0 0", "pci/5e:00.8",
};

static int setup(void **state)
{
	struct mlx_ctx *ctx = NULL;

	assert_int_equal(mlx_ctx_new("/", &ctx, NULL), 0);
	*state = ctx;
	return 0;
}

static int teardown(void **state)
{
	mlx_ctx_free(*state);
	return 0;
}

static void test_parse_good(void **state)
{
	struct mlx_ctx *ctx = *state;

	for (size_t i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		const struct good *g = &goods[i];
		struct mlx_selector sel;
		int r = mlx_selector_parse(ctx, g->text, &sel);

		print_message("parse '%s' -> %d '%s'\n", g->text, r, r ? mlx_errmsg(ctx) : sel.text);
		assert_int_equal(r, 0);
		assert_int_equal(sel.kind, g->kind);
		assert_string_equal(sel.text, g->norm);
		if (g->kind == MLX_SEL_NAME) {
			assert_string_equal(sel.name, g->name);
			continue;
		}
		assert_int_equal(sel.has_domain, g->has_domain);
		assert_int_equal(sel.domain, g->domain);
		assert_int_equal(sel.bus, g->bus);
		assert_int_equal(sel.dev, g->dev);
		assert_int_equal(sel.func, g->func);
	}
}

static void test_parse_bad(void **state)
{
	struct mlx_ctx *ctx = *state;
	char longname[80];

	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct mlx_selector sel;
		int r = mlx_selector_parse(ctx, bads[i], &sel);

		print_message("parse bad [%zu] -> %d '%s'\n", i, r, mlx_errmsg(ctx));
		assert_int_equal(r, -EINVAL);
		assert_true(mlx_errmsg(ctx)[0] != '\0');
	}
	/* NULL is refused too, not dereferenced. */
	{
		struct mlx_selector sel;

		assert_int_equal(mlx_selector_parse(ctx, NULL, &sel), -EINVAL);
	}
	/* Names: 63 characters fit MLX_NAME_LEN, 64 and more do not. */
	for (size_t n = 63; n < sizeof(longname); n++) {
		struct mlx_selector sel;

		memset(longname, 'a', n);
		longname[n] = '\0';
		if (n == 63) {
			assert_int_equal(mlx_selector_parse(ctx, longname, &sel), 0);
			assert_string_equal(sel.name, longname);
		} else {
			assert_int_equal(mlx_selector_parse(ctx, longname, &sel), -EINVAL);
		}
	}
}

/* ---- how a spelling was read, and the other reading (issue 15) ---- */

/* "94:00.0" is hex bus 0x94, but an mlxtool user may have meant decimal
 * bus 94: the selector says how it read the text and what the digits
 * give read the other way, so cmd/ can say so. */
static const struct reading {
	const char *text;
	enum mlx_sel_reading reading;
	const char *other;      /* the other reading's sel.text; NULL: none */
	enum mlx_sel_reading other_reading;
} readings[] = {
	{ "94:00.0", MLX_READ_PCI, "5e:00.0", MLX_READ_DECIMAL },
	{ "94:0.0", MLX_READ_PCI, "5e:00.0", MLX_READ_DECIMAL },
	{ "59:0.1", MLX_READ_PCI, "3b:00.1", MLX_READ_DECIMAL },
	{ "10:10.1", MLX_READ_PCI, "0a:0a.1", MLX_READ_DECIMAL },
	{ "12:3.0", MLX_READ_PCI, "0c:03.0", MLX_READ_DECIMAL },
	{ "5e:00.0", MLX_READ_PCI, NULL, 0 },           /* a hex digit: hex only */
	{ "08:00.0", MLX_READ_PCI, NULL, 0 },           /* both readings agree */
	{ "8:0.0", MLX_READ_PCI, NULL, 0 },
	{ "94 0 0", MLX_READ_DECIMAL, NULL, 0 },        /* blanks: mlxtool only */
	{ "0000:94:00.0", MLX_READ_PCI, NULL, 0 },      /* a domain: lspci's form */
	{ "pci/0000:94:00.0", MLX_READ_PCI, NULL, 0 },  /* devlink's: hex */
	{ "99:0.0", MLX_READ_PCI, "63:00.0", MLX_READ_DECIMAL },
	{ "enp94s0f0np0", MLX_READ_NAME, NULL, 0 },
};

static void test_parse_reading(void **state)
{
	struct mlx_ctx *ctx = *state;

	for (size_t i = 0; i < sizeof(readings) / sizeof(readings[0]); i++) {
		const struct reading *g = &readings[i];
		struct mlx_selector sel, alt;
		bool has;

		assert_int_equal(mlx_selector_parse(ctx, g->text, &sel), 0);
		has = mlx_selector_other_reading(&sel, &alt);
		print_message("'%s': reading %d, other %s\n", g->text, sel.reading,
			      has ? alt.text : "none");
		assert_int_equal(sel.reading, g->reading);
		assert_int_equal(has, g->other != NULL);
		if (!has)
			continue;
		assert_string_equal(alt.text, g->other);
		assert_int_equal(alt.reading, g->other_reading);
		assert_int_equal(alt.kind, MLX_SEL_PCI);
		assert_int_equal(alt.func, sel.func);
	}
}

/* ---- mlx_select on a hand-built model ---- */

struct model {
	struct mlx_function fn[4];
	struct mlx_port ports[4];
	struct mlx_rdma rdma[4];
	struct mlx_devices devs;
};

static void add_fn(struct model *m, size_t i, unsigned domain, unsigned bus, unsigned dev,
		   unsigned func, const char *ifname, const char *rdma)
{
	struct mlx_function *fn = &m->fn[i];

	memset(fn, 0, sizeof(*fn));
	snprintf(fn->bdf, sizeof(fn->bdf), "%04x:%02x:%02x.%u", domain, bus, dev, func);
	fn->domain = domain;
	fn->bus = bus;
	fn->dev = dev;
	fn->func = func;
	fn->vendor = 0x15b3;
	fn->device = 0x1017;
	fn->vf_index = -1;
	fn->numa_node = -1;
	if (ifname) {
		memset(&m->ports[i], 0, sizeof(m->ports[i]));
		snprintf(m->ports[i].ifname, sizeof(m->ports[i].ifname), "%s", ifname);
		m->ports[i].fn = fn;
		if (rdma) {
			snprintf(m->ports[i].rdma_dev, sizeof(m->ports[i].rdma_dev), "%s", rdma);
			m->ports[i].rdma_port = 1;
		}
		fn->ports = &m->ports[i];
		fn->nports = 1;
	}
	if (rdma) {
		memset(&m->rdma[i], 0, sizeof(m->rdma[i]));
		snprintf(m->rdma[i].name, sizeof(m->rdma[i].name), "%s", rdma);
		m->rdma[i].nports = 1;
		fn->rdma = &m->rdma[i];
		fn->nrdma = 1;
	}
}

static void build(struct model *m, bool two_domains)
{
	memset(m, 0, sizeof(*m));
	add_fn(m, 0, 0, 0x5e, 0, 0, "enp94s0f0np0", "mlx5_0");
	add_fn(m, 1, 0, 0x5e, 0, 1, "enp94s0f1np1", "mlx5_1");
	/* an RDMA device without a netdev (an IB-only function) */
	add_fn(m, 2, 0, 0x08, 0, 0, NULL, "mlx5_2");
	if (two_domains)
		add_fn(m, 3, 1, 0x5e, 0, 0, "enP1p94s0f0np0", "mlx5_3");
	else
		add_fn(m, 3, 0, 0x3b, 0, 0, "enp59s0f0np0", NULL);
	m->devs.fn = m->fn;
	m->devs.nfn = 4;
}

static int sel(struct mlx_ctx *ctx, const struct mlx_devices *devs, const char *text,
	       struct mlx_function **fn, struct mlx_port **port)
{
	struct mlx_selector s;

	assert_int_equal(mlx_selector_parse(ctx, text, &s), 0);
	return mlx_select(ctx, devs, &s, fn, port);
}

static void test_select_kinds(void **state)
{
	struct mlx_ctx *ctx = *state;
	struct model m;
	struct mlx_function *fn;
	struct mlx_port *port;
	static const char *const pf0[] = { "0000:5e:00.0", "5e:00.0", "5E:00.0", "94 0 0", "5e:0.0",
					   "pci/0000:5e:00.0" };

	build(&m, false);
	for (size_t i = 0; i < sizeof(pf0) / sizeof(pf0[0]); i++) {
		assert_int_equal(sel(ctx, &m.devs, pf0[i], &fn, &port), 0);
		assert_ptr_equal(fn, &m.fn[0]);
		assert_null(port);      /* an address names a function, not a port */
	}
	/* a netdev selects its function and that port */
	assert_int_equal(sel(ctx, &m.devs, "enp94s0f1np1", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[1]);
	assert_ptr_equal(port, &m.ports[1]);
	/* an RDMA device selects its function and its port */
	assert_int_equal(sel(ctx, &m.devs, "mlx5_1", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[1]);
	assert_ptr_equal(port, &m.ports[1]);
	/* an RDMA device with no netdev: the function, no port */
	assert_int_equal(sel(ctx, &m.devs, "mlx5_2", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[2]);
	assert_null(port);
	/* 8:0.0 is 08:00.0 (hex and decimal agree) */
	assert_int_equal(sel(ctx, &m.devs, "8:0.0", &fn, NULL), 0);
	assert_ptr_equal(fn, &m.fn[2]);
	/* the last function, by netdev */
	assert_int_equal(sel(ctx, &m.devs, "enp59s0f0np0", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[3]);
	assert_ptr_equal(port, &m.ports[3]);
	/* the decimal triple 59 0 0 is 3b:00.0 */
	assert_int_equal(sel(ctx, &m.devs, "59 0 0", &fn, NULL), 0);
	assert_ptr_equal(fn, &m.fn[3]);
}

static void test_select_nomatch(void **state)
{
	struct mlx_ctx *ctx = *state;
	static const char *const none[] = {
		"5e:00.7", "0001:5e:00.0", "10:00.0", "eth0", "mlx5_9", "enp94s0f0", "94 0 7",
		/* hex 0x59 and 0x94: not mlxtool's decimal 59 (3b) or 94 (5e) */
		"59:0.0", "94:0.0", "94:00.1", "pci/0000:59:00.0",
	};
	struct model m;

	build(&m, false);
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		struct mlx_function *fn = (void *)1;
		struct mlx_port *port = (void *)1;

		assert_int_equal(sel(ctx, &m.devs, none[i], &fn, &port), -ENODEV);
		assert_null(fn);
		assert_null(port);
		assert_non_null(strstr(mlx_errmsg(ctx), "no ConnectX device"));
	}
	/* an empty model */
	{
		struct mlx_devices empty = { NULL, 0, 0 };
		struct mlx_function *fn;

		assert_int_equal(sel(ctx, &empty, "5e:00.0", &fn, NULL), -ENODEV);
	}
}

static void test_select_two_domains(void **state)
{
	struct mlx_ctx *ctx = *state;
	struct mlx_function *fn;
	struct mlx_port *port;
	struct model m;

	build(&m, true);
	/* without the domain: ambiguous, refused, nothing returned */
	assert_int_equal(sel(ctx, &m.devs, "5e:00.0", &fn, &port), -EINVAL);
	assert_null(fn);
	assert_non_null(strstr(mlx_errmsg(ctx), "2 PCI domains"));
	assert_int_equal(sel(ctx, &m.devs, "94 0 0", &fn, &port), -EINVAL);
	/* with the domain: each one */
	assert_int_equal(sel(ctx, &m.devs, "0000:5e:00.0", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[0]);
	assert_int_equal(sel(ctx, &m.devs, "0001:5e:00.0", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[3]);
	/* names are unique across domains */
	assert_int_equal(sel(ctx, &m.devs, "mlx5_3", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[3]);
	assert_ptr_equal(port, &m.ports[3]);
	/* the other functions are not ambiguous */
	assert_int_equal(sel(ctx, &m.devs, "5e:00.1", &fn, &port), 0);
	assert_ptr_equal(fn, &m.fn[1]);
}

/* ---- every function a text can name (issue 25) ---- */

static void test_candidates(void **state)
{
	struct mlx_ctx *ctx = *state;
	struct mlx_sel_candidate c[2];
	struct mlx_selector s;
	struct mlx_function *fn;
	struct model m;

	build(&m, false);
	/* fn[3] becomes 94:00.0, beside 5e:00.0 (mlxtool's decimal 94) */
	m.fn[3].bus = 0x94;
	assert_int_equal(mlx_selector_parse(ctx, "94:0.0", &s), 0);
	assert_int_equal(mlx_select(ctx, &m.devs, &s, &fn, NULL), 0);
	assert_ptr_equal(fn, &m.fn[3]);         /* hex: 94:00.0 */
	assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 2), 2);
	assert_ptr_equal(c[0].fn, &m.fn[3]);
	assert_int_equal(c[0].reading, MLX_READ_PCI);
	assert_ptr_equal(c[1].fn, &m.fn[0]);
	assert_int_equal(c[1].reading, MLX_READ_DECIMAL);
	/* at most @max */
	assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 1), 1);
	assert_ptr_equal(c[0].fn, &m.fn[3]);
	/* the forms that name one only */
	for (size_t i = 0; i < 4; i++) {
		static const char *const one[] = { "94 0 0", "0000:94:00.0", "pci/0000:94:00.0",
						   "5e:00.0" };

		assert_int_equal(mlx_selector_parse(ctx, one[i], &s), 0);
		assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 2), 1);
	}
	/* the decimal reading alone matches: one candidate, and mlx_select
	 * does not take it (59:0.1 must not write to 3b:00.1) */
	m.fn[3].bus = 0x3b;
	assert_int_equal(mlx_selector_parse(ctx, "59:0.0", &s), 0);
	assert_int_equal(mlx_select(ctx, &m.devs, &s, &fn, NULL), -ENODEV);
	assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 2), 1);
	assert_ptr_equal(c[0].fn, &m.fn[3]);
	assert_int_equal(c[0].reading, MLX_READ_DECIMAL);
	/* a netdev named like another function's RDMA device: the netdev is
	 * selected, both are candidates */
	snprintf(m.ports[0].ifname, sizeof(m.ports[0].ifname), "mlx5_1");
	assert_int_equal(mlx_selector_parse(ctx, "mlx5_1", &s), 0);
	assert_int_equal(mlx_select(ctx, &m.devs, &s, &fn, NULL), 0);
	assert_ptr_equal(fn, &m.fn[0]);
	assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 2), 2);
	assert_ptr_equal(c[0].fn, &m.fn[0]);
	assert_int_equal(c[0].reading, MLX_READ_NETDEV);
	assert_ptr_equal(c[1].fn, &m.fn[1]);
	assert_int_equal(c[1].reading, MLX_READ_RDMA);
	/* a netdev and the RDMA device of the same function: one */
	assert_int_equal(mlx_selector_parse(ctx, "mlx5_0", &s), 0);
	assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 2), 1);
	/* nothing */
	assert_int_equal(mlx_selector_parse(ctx, "eth9", &s), 0);
	assert_int_equal(mlx_select_candidates(&m.devs, &s, c, 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_parse_good, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_reading, setup, teardown),
		cmocka_unit_test_setup_teardown(test_select_kinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_select_nomatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_select_two_domains, setup, teardown),
		cmocka_unit_test_setup_teardown(test_candidates, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
