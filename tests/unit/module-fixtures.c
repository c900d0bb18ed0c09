/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The module EEPROM fixtures as the unit tests read them (module-fixtures.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "module-fixtures.h"

char *fixture_path(const char *rel)
{
	static char path[1024];
	const char *fx = getenv("FIXTURES");

	if (!fx || !*fx)
		return NULL;
	snprintf(path, sizeof(path), "%s/module/%s", fx, rel);
	return path;
}

FILE *open_fixture(const char *rel)
{
	char *p = fixture_path(rel);
	FILE *f = p ? fopen(p, "r") : NULL;

	if (!f)
		fprintf(stderr, "# module fixture %s absent: skipped\n", rel);
	return f;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* The page a Junos header names: "Lower Page"/"Low Page 00h" = -2 (lower
 * half of page 0), "Upper Page 03h" = 3; -3 when the line is no header. */
static int page_header(const char *line)
{
	const char *p = strstr(line, "Page ");

	if (!p)
		return -3;
	if (strstr(line, "Lower Page") || strstr(line, "Low Page"))
		return -2;
	if (strstr(line, "Upper Page") && isxdigit((unsigned char)p[5]) && isxdigit((unsigned char)p[6]) &&
	    (p[7] == 'h' || p[7] == 'H'))
		return hexval(p[5]) * 16 + hexval(p[6]);
	return -3;
}

static int page_slot(struct dump *d, int page)
{
	for (int i = 0; i < d->npages; i++)
		if (d->pg[i].page == page)
			return i;
	assert_true(d->npages < NPAGES);
	d->pg[d->npages].page = page;
	return d->npages++;
}

/*
 * Read the hex rows of @rel from the first line containing @from (NULL:
 * the start) up to the first line containing @to (NULL: the end).  Rows
 * are "0x0000:  03 04 ..." (ethtool), "00000000: 0304 0700 ..." (xxd),
 * "Address 0x80: 11 fc ..." and "0x80   18   40 ..." (Junos, under page
 * headers).  Returns false when the fixture is absent.
 */
bool load_dump(const char *rel, const char *from, const char *to, struct dump *d)
{
	FILE *f = open_fixture(rel);
	char line[1024];
	bool on = !from, paged = false;
	int page = -1;

	memset(d, 0, sizeof(*d));
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		unsigned long off;
		int h = page_header(line);
		bool xxd = false;
		size_t n = 0;

		if (!on) {
			on = strstr(line, from) != NULL;
			if (!on || page_header(line) == -3)
				continue;
		} else if (to && strstr(line, to)) {
			break;
		}
		if (h != -3) {
			paged = true;
			page = h == -2 ? 0 : h;
			continue;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "Address ", 8))
			p += 8;
		if (!strncmp(p, "0x", 2)) {
			off = strtoul(p + 2, &end, 16);
		} else {
			off = strtoul(p, &end, 16);
			xxd = end - p == 8 && *end == ':';
			if (!xxd)
				continue;
		}
		if (end == p || (*end != ':' && *end != ' ' && *end != '\t'))
			continue;
		p = end + (*end == ':');
		if (xxd) {
			/* "0304 0700 ...  ascii": 39 columns of 4-digit groups */
			char cols[48] = { 0 };

			strncpy(cols, p + 1, 39);
			p = cols;
			for (char *q = cols; *q; q++) {
				if (isxdigit((unsigned char)q[0]) && isxdigit((unsigned char)q[1])) {
					uint8_t v = (uint8_t)(hexval(q[0]) * 16 + hexval(q[1]));

					if (off + n < sizeof(d->flatbuf))
						d->flatbuf[off + n] = v;
					n++;
					q++;
				}
			}
			d->flat = true;
			if (off + n > d->flat_len)
				d->flat_len = off + n;
			continue;
		}
		for (;;) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
			    (p[2] && !isspace((unsigned char)p[2])))
				break;
			uint8_t v = (uint8_t)(hexval(p[0]) * 16 + hexval(p[1]));

			if (paged) {
				int s = page_slot(d, page);

				if (off + n < 256) {
					d->pg[s].b[off + n] = v;
					d->pg[s].have[off + n] = true;
				}
			} else {
				d->flat = true;
				if (off + n < sizeof(d->flatbuf))
					d->flatbuf[off + n] = v;
				if (off + n + 1 > d->flat_len)
					d->flat_len = off + n + 1;
			}
			n++;
			p += 2;
		}
	}
	fclose(f);
	assert_true(d->flat || d->npages > 0);
	return true;
}

const uint8_t *heap_copy(struct dump *d, const uint8_t *src, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	assert_non_null(c);
	memcpy(c, src, n);
	assert_true(d->nheap < (int)(sizeof(d->heap) / sizeof(d->heap[0])));
	d->heap[d->nheap++] = c;
	return c;
}

void dump_free(struct dump *d)
{
	for (int i = 0; i < d->nheap; i++)
		free(d->heap[i]);
	d->nheap = 0;
}

/* The pages of @d as the decoder takes them; @flat_len cuts a flat dump. */
void to_eeprom(struct dump *d, size_t flat_len, struct mlx_mod_eeprom *e)
{
	memset(e, 0, sizeof(*e));
	if (d->flat) {
		const uint8_t *c = heap_copy(d, d->flatbuf, flat_len);

		assert_int_equal(mlx_mod_from_flat(e, c, flat_len), flat_len ? 0 : -ENODATA);
		return;
	}
	for (int i = 0; i < d->npages; i++) {
		for (unsigned half = 0; half < 2; half++) {
			unsigned a = half * 128, n = 0;

			while (n < 128 && d->pg[i].have[a + n])
				n++;
			if (!n)
				continue;
			assert_int_equal(mlx_mod_add(e, MLX_MOD_I2C_A0, 0, (uint8_t)d->pg[i].page, (uint16_t)a,
						     (uint16_t)n, heap_copy(d, d->pg[i].b + a, n)),
					 0);
		}
	}
}

/* The value of ethtool's "Key    : value" line @key in @rel, from the
 * first line containing @from; NULL when absent. */
const char *ethtool_line(const char *rel, const char *from, const char *key)
{
	static char val[256];
	FILE *f = open_fixture(rel);
	char line[512];
	bool on = !from;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *colon;
		size_t kl = strlen(key);

		if (!on) {
			on = strstr(line, from) != NULL;
			continue;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, kl) || (p[kl] != ' ' && p[kl] != ':'))
			continue;
		colon = strchr(p + kl, ':');
		if (!colon)
			continue;
		for (char *q = p + kl; q < colon; q++)
			if (*q != ' ' && *q != '\t')
				goto next;
		p = colon + 1;
		while (*p == ' ')
			p++;
		snprintf(val, sizeof(val), "%s", p);
		val[strcspn(val, "\r\n")] = '\0';
		fclose(f);
		return val;
next:;
	}
	fclose(f);
	return NULL;
}

/* Assert ethtool printed @key as @fmt of our value (the same format
 * string ethtool uses, so rounding is compared, not re-derived). */
void expect_line(const char *rel, const char *from, const char *key, const char *fmt, ...)
{
	const char *want = ethtool_line(rel, from, key);
	char got[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(got, sizeof(got), fmt, ap);
	va_end(ap);
	if (!want)
		fail_msg("ethtool's decode in %s has no line '%s'", rel, key);
	if (strcmp(want, got))
		fail_msg("%s: ethtool says '%s', mlxcli decodes '%s'", key, want, got);
}

void expect_near(double got, double want, double eps)
{
	if (fabs(got - want) > eps)
		fail_msg("decoded %.6f, expected %.6f", got, want);
}

