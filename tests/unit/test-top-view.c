/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli top`'s screen and keys (cmd/top-view.c) on rows made here: every
 * line is cut at the width asked (escapes aside), never longer, at any
 * width from 1 to 200; the rows that do not fit are counted; the sort
 * puts the largest first, unknown ("-") last in both directions, the
 * name order when the sort is the port; the keys switch views and sorts.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "top-view.h"

/* The text of a frame without its escapes (ESC [ ... final, ESC 7/8),
 * lines split at CR LF. */
static char *strip(const char *f)
{
	char *o = calloc(strlen(f) + 1, 1), *p = o;

	assert_non_null(o);
	while (*f) {
		if (*f == '\033') {
			f++;
			if (*f == '[') {
				f++;
				while (*f && !(*f >= 0x40 && *f <= 0x7e))
					f++;
			}
			if (*f)
				f++;
		} else if (*f == '\r') {
			f++;
		} else {
			*p++ = *f++;
		}
	}
	return o;
}

static char *draw(const struct top_state *s, unsigned rows, unsigned cols)
{
	char *buf = NULL, *text;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	assert_int_equal(top_draw(m, s, rows, cols), 0);
	fclose(m);
	text = strip(buf);
	free(buf);
	return text;
}

static void make(struct top_state *s, size_t n)
{
	assert_int_equal(top_state_init(s, n, 0, 1.0), 0);
	for (size_t i = 0; i < n; i++) {
		struct top_row *w = &s->rows[i];

		snprintf(w->name, sizeof(w->name), "eth%zu", n - i);   /* eth3 eth2 eth1 */
		snprintf(w->link, sizeof(w->link), "up 100G");
		for (int m = 0; m < M_N; m++)
			w->v[m] = NAN;
		w->v[M_RX_BPS] = (double)i * 10;
		w->target = i;
		s->order[i] = i;
	}
	s->rates = true;
	snprintf(s->when, sizeof(s->when), "12:00:00Z");
}

static void test_width(void **state)
{
	struct top_state s;

	(void)state;
	make(&s, 3);
	for (unsigned cols = 1; cols <= 200; cols++) {
		char *t = draw(&s, 24, cols), *save = NULL;
		unsigned lines = 0;

		for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			assert_true(strlen(l) <= cols);
			lines++;
		}
		assert_true(lines <= 24);
		free(t);
	}
	top_state_free(&s);
}

static void test_rows_fit(void **state)
{
	struct top_state s;
	char *t;

	(void)state;
	make(&s, 10);
	/* 3 lines of title, keys and header; 5 left: 4 ports and the count */
	t = draw(&s, 8, 80);
	assert_non_null(strstr(t, "... 6 more ports"));
	assert_non_null(strstr(t, "*PORT"));
	assert_null(strstr(t, "eth1 "));
	free(t);
	t = draw(&s, 24, 80);
	assert_null(strstr(t, "more port"));
	assert_non_null(strstr(t, "eth1 "));
	free(t);
	top_state_free(&s);
}

/* the names of the rows in the order shown */
static void order(const struct top_state *s, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < s->n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "",
			 s->rows[s->order[i]].name);
}

static void test_sort_keys(void **state)
{
	struct top_state s;
	char o[64], *t;

	(void)state;
	make(&s, 3);                 /* eth3 0, eth2 10, eth1 20 Gb/s */
	s.rows[1].v[M_RX_BPS] = NAN; /* eth2 unknown */
	assert_true(top_key(&s, 'r'));  /* by port, descending */
	order(&s, o, sizeof(o));
	assert_string_equal(o, "eth3 eth2 eth1");
	assert_true(top_key(&s, 'r'));
	order(&s, o, sizeof(o));
	assert_string_equal(o, "eth1 eth2 eth3");
	assert_true(top_key(&s, 's'));  /* RX Gb/s, the largest first */
	order(&s, o, sizeof(o));
	assert_string_equal(o, "eth1 eth3 eth2");
	t = draw(&s, 24, 80);
	assert_non_null(strstr(t, "sort RX Gb/s (descending)"));
	assert_non_null(strstr(t, "*RX Gb/s"));
	free(t);
	assert_true(top_key(&s, 'r'));  /* smallest first, unknown still last */
	order(&s, o, sizeof(o));
	assert_string_equal(o, "eth3 eth1 eth2");
	assert_true(top_key(&s, 'S'));  /* back to the port */
	assert_int_equal(s.sort, 0);
	assert_true(top_key(&s, 'S'));  /* the last column, DROP/s */
	assert_int_equal(s.sort, 5);
	assert_true(top_key(&s, '4'));  /* a view starts sorted by port */
	assert_int_equal(s.view, 3);
	assert_int_equal(s.sort, 0);
	assert_false(top_key(&s, '4'));
	assert_true(top_key(&s, 'v'));
	assert_int_equal(s.view, 4);
	assert_true(top_key(&s, '\t'));
	assert_int_equal(s.view, 0);
	assert_false(top_key(&s, 'x'));
	assert_false(top_key(&s, '9'));
	top_state_free(&s);
}

static void test_views(void **state)
{
	(void)state;
	for (int i = 0; top_view_names[i]; i++)
		assert_int_equal(top_view_index(top_view_names[i]), i);
	assert_int_equal(top_view_index("nosuch"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_rows_fit),
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_views),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
