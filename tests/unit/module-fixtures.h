/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The module EEPROM fixtures ($FIXTURES/module) as the unit tests read
 * them: ethtool `hex on` tables, xxd of `raw on` files and Junos page
 * tables, into flat or paged dumps (test-module-eeprom, test-module-ioctl).
 */
#ifndef MLX_TEST_MODULE_FIXTURES_H
#define MLX_TEST_MODULE_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "module-eeprom.h"

#define NPAGES 24

/* A dump: either flat (page -1, as the ioctl returns it) or paged
 * (one 256-byte space per page; offsets 0-127 are the lower page). */
struct dump {
	bool flat;
	size_t flat_len;
	uint8_t flatbuf[1024];
	int npages;
	struct {
		int page;
		uint8_t b[256];
		bool have[256];
	} pg[NPAGES];
	/* heap copies handed to the decoder, freed by dump_free */
	uint8_t *heap[2 * NPAGES + 8];
	int nheap;
};

char *fixture_path(const char *rel);
FILE *open_fixture(const char *rel);
bool load_dump(const char *rel, const char *from, const char *to, struct dump *d);
const uint8_t *heap_copy(struct dump *d, const uint8_t *src, size_t n);
void dump_free(struct dump *d);
void to_eeprom(struct dump *d, size_t flat_len, struct mlx_mod_eeprom *e);
const char *ethtool_line(const char *rel, const char *from, const char *key);
void expect_line(const char *rel, const char *from, const char *key, const char *fmt, ...);
void expect_near(double got, double want, double eps);

#endif
