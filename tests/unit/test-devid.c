/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/device/devid.c: the table is sorted, lookups find PFs and
 * VFs, and every pciids string is the name pci.ids gives that ID
 * ($FIXTURES/pciids, the vendor 15b3 section of pciutils' pci.ids).
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "devid.h"

static void test_table_sorted(void **state)
{
	size_t n = 0;
	const struct mlx_devid *t = mlx_devid_table(&n);

	(void)state;
	assert_non_null(t);
	assert_true(n >= 25);
	for (size_t i = 1; i < n; i++)
		assert_true(t[i - 1].device < t[i].device);
	/* Every entry must be reachable through the bisection. */
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(mlx_devid_lookup(t[i].device), &t[i]);
}

static void test_table_consistent(void **state)
{
	size_t n = 0;
	const struct mlx_devid *t = mlx_devid_table(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct mlx_devid *vf;

		assert_non_null(t[i].product);
		assert_non_null(t[i].pciids);
		assert_true(t[i].product[0] != '\0');
		assert_true(t[i].family == MLX_FAM_MLX4 || t[i].family == MLX_FAM_MLX5);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(t[i].product, t[j].product);
		if (t[i].is_vf) {
			/* A VF spawns nothing; its short name says VF. */
			assert_int_equal(t[i].vf_device, 0);
			assert_non_null(strstr(t[i].product, "VF"));
			continue;
		}
		assert_null(strstr(t[i].product, "VF"));
		if (!t[i].vf_device)
			continue;
		vf = mlx_devid_lookup(t[i].vf_device);
		assert_non_null(vf);
		assert_true(vf->is_vf);
		assert_int_equal(vf->family, t[i].family);
	}
}

static void test_lookup_pf_vf(void **state)
{
	const struct mlx_devid *d;

	(void)state;
	d = mlx_devid_lookup(0x1017);
	assert_non_null(d);
	assert_int_equal(d->device, 0x1017);
	assert_string_equal(d->product, "ConnectX-5");
	assert_string_equal(d->pciids, "MT27800 Family [ConnectX-5]");
	assert_false(d->is_vf);
	assert_int_equal(d->vf_device, 0x1018);
	assert_int_equal(d->family, MLX_FAM_MLX5);

	d = mlx_devid_lookup(0x1018);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-5 VF");
	assert_true(d->is_vf);

	d = mlx_devid_lookup(0x1019);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-5 Ex");
	assert_int_equal(d->vf_device, 0x101a);

	d = mlx_devid_lookup(0x101d);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-6 Dx");
	assert_int_equal(d->vf_device, 0x101e);

	d = mlx_devid_lookup(0x101e);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX mlx5Gen VF");
	assert_string_equal(d->pciids, "ConnectX Family mlx5Gen Virtual Function");
	assert_true(d->is_vf);

	d = mlx_devid_lookup(0x1021);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-7");
	assert_int_equal(d->vf_device, 0x101e);

	d = mlx_devid_lookup(0x1003);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-3");
	assert_int_equal(d->family, MLX_FAM_MLX4);
	assert_int_equal(d->vf_device, 0x1004);

	d = mlx_devid_lookup(0x1007);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-3 Pro");
	assert_int_equal(d->vf_device, 0x1004);

	d = mlx_devid_lookup(0x1004);
	assert_non_null(d);
	assert_string_equal(d->product, "ConnectX-3/ConnectX-3 Pro VF");
	assert_true(d->is_vf);
	assert_int_equal(d->family, MLX_FAM_MLX4);

	d = mlx_devid_lookup(0x1011);
	assert_non_null(d);
	assert_string_equal(d->product, "Connect-IB");
	assert_int_equal(d->vf_device, 0x1012);

	d = mlx_devid_lookup(0xa2d6);
	assert_non_null(d);
	assert_string_equal(d->product, "BlueField-2");
	assert_int_equal(d->vf_device, 0x101e);

	d = mlx_devid_lookup(0xa2dc);
	assert_non_null(d);
	assert_string_equal(d->product, "BlueField-3");

	d = mlx_devid_lookup(0xa2d3);
	assert_non_null(d);
	assert_true(d->is_vf);
}

static void test_lookup_unknown(void **state)
{
	(void)state;
	assert_null(mlx_devid_lookup(0x0000));
	assert_null(mlx_devid_lookup(0xffff));
	assert_null(mlx_devid_lookup(0x1002));   /* below the first entry */
	assert_null(mlx_devid_lookup(0x1005));   /* MT27510, not a NIC function */
	assert_null(mlx_devid_lookup(0x1020));   /* gap between CX6 Lx and CX7 */
	assert_null(mlx_devid_lookup(0x01f6));   /* CX3 flash recovery */
	assert_null(mlx_devid_lookup(0x197c));   /* internal PCIe bridge */
	assert_null(mlx_devid_lookup(0xa2d4));   /* BlueField-2 SoC, not the NIC */
	assert_null(mlx_devid_lookup(0xcf6c));   /* switch ASIC */
}

/* ---- names against $FIXTURES/pciids ---- */

struct pciid_name {
	uint16_t id;
	char name[256];
};

/*
 * pci.ids format: a vendor line "15b3  Mellanox Technologies", then device
 * lines "\tXXXX  Name" and subsystem lines "\t\tVVVV DDDD  Name".
 */
static size_t read_pciids(const char *path, struct pciid_name *out, size_t max)
{
	char line[1024];
	bool in_vendor = false;
	size_t n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned int id;
		char *nl;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (line[0] != '\t') {
			in_vendor = strncmp(line, "15b3  ", 6) == 0;
			continue;
		}
		if (!in_vendor || line[1] == '\t')
			continue;
		if (sscanf(line + 1, "%4x", &id) != 1 || strncmp(line + 5, "  ", 2) != 0)
			continue;
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (n < max) {
			out[n].id = (uint16_t)id;
			snprintf(out[n].name, sizeof(out[n].name), "%.255s", line + 7);
			n++;
		}
	}
	fclose(f);
	return n;
}

static void test_pciids_names(void **state)
{
	static struct pciid_name names[1024];
	const char *fx = getenv("FIXTURES");
	char dir[4096], path[8192];
	const struct mlx_devid *t;
	size_t n = 0, nt = 0;
	struct dirent *de;
	DIR *dp;

	(void)state;
	if (!fx || !*fx) {
		print_message("FIXTURES not set: skipping the pci.ids name check\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/pciids", fx);
	dp = opendir(dir);
	if (!dp) {
		print_message("cannot open '%s': %s: skipping\n", dir, strerror(errno));
		skip();
	}
	while ((de = readdir(dp))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || (l > 7 && strcmp(de->d_name + l - 7, ".source") == 0))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n += read_pciids(path, names + n, sizeof(names) / sizeof(names[0]) - n);
	}
	closedir(dp);
	assert_true(n > 100);

	t = mlx_devid_table(&nt);
	for (size_t i = 0; i < nt; i++) {
		const char *found = NULL;

		for (size_t j = 0; j < n; j++)
			if (names[j].id == t[i].device)
				found = names[j].name;
		if (!found)
			print_message("0x%04x not in pci.ids\n", t[i].device);
		assert_non_null(found);
		assert_string_equal(t[i].pciids, found);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted),
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_lookup_pf_vf),
		cmocka_unit_test(test_lookup_unknown),
		cmocka_unit_test(test_pciids_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
