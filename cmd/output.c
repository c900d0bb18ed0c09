/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

#define MAX_DEPTH 16
#define MAX_COLS 24

struct text_table {
	const char *hdr[MAX_COLS];
	size_t ncols;
	char **cells;       /* nrows * MAX_COLS */
	size_t nrows, cap;
	bool in_row;
};

struct out {
	bool json, pretty;
	FILE *fp;
	/* JSON: the container stack; [0] is the top-level object. */
	json_t *stack[MAX_DEPTH];
	int depth;
	/* text */
	int indent;
	int tdepth;         /* open objects/lists in text mode */
	uint64_t tind;      /* bit n: level n printed a label and indented */
	struct text_table *tab;
};

struct out *out_new(bool json, bool pretty, FILE *fp)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->json = json;
	o->pretty = pretty;
	o->fp = fp;
	if (json) {
		o->stack[0] = json_object();
		json_object_set_new(o->stack[0], "schema_version", json_integer(OUT_SCHEMA_VERSION));
	}
	return o;
}

bool out_is_json(const struct out *o)
{
	return o->json;
}

int out_finish(struct out *o)
{
	size_t flags = JSON_PRESERVE_ORDER | (o->pretty ? JSON_INDENT(2) : JSON_COMPACT);

	if (!o->json)
		return fflush(o->fp) == 0 ? 0 : -errno;
	if (json_dumpf(o->stack[0], o->fp, flags) < 0)
		return -EIO;
	fputc('\n', o->fp);
	return fflush(o->fp) == 0 ? 0 : -errno;
}

static void table_free(struct text_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * MAX_COLS; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

void out_free(struct out *o)
{
	if (!o)
		return;
	if (o->json)
		json_decref(o->stack[0]);
	table_free(o->tab);
	free(o);
}

/* ---- JSON plumbing ---- */

static void j_put(struct out *o, const char *key, json_t *v)
{
	json_t *top = o->stack[o->depth];

	if (json_is_array(top))
		json_array_append_new(top, v);
	else
		json_object_set_new(top, key ? key : "?", v);
}

static void j_push(struct out *o, const char *key, json_t *v)
{
	/* The container owns v; the stack only borrows it. */
	j_put(o, key, v);
	if (o->depth + 1 < MAX_DEPTH)
		o->stack[++o->depth] = v;
}

static void j_pop(struct out *o)
{
	if (o->depth > 0)
		o->depth--;
}

/* ---- text plumbing ---- */

/* Open a text level; only a labelled one indents, and only its end undoes it. */
static void t_push(struct out *o, bool indents)
{
	if (o->tdepth < 64) {
		if (indents)
			o->tind |= UINT64_C(1) << o->tdepth;
		else
			o->tind &= ~(UINT64_C(1) << o->tdepth);
	}
	o->tdepth++;
	if (indents)
		o->indent++;
}

static void t_pop(struct out *o)
{
	if (o->tdepth == 0)
		return;
	o->tdepth--;
	if (o->tdepth < 64 && (o->tind >> o->tdepth) & 1 && o->indent > 0)
		o->indent--;
}

static void t_cell(struct out *o, const char *label, const char *val)
{
	struct text_table *t = o->tab;
	size_t col;

	for (col = 0; col < t->ncols; col++)
		if (!strcmp(t->hdr[col], label))
			break;
	if (col == t->ncols) {
		if (t->ncols == MAX_COLS)
			return;
		t->hdr[t->ncols++] = label;
	}
	free(t->cells[(t->nrows - 1) * MAX_COLS + col]);
	t->cells[(t->nrows - 1) * MAX_COLS + col] = strdup(val ? val : "-");
}

static void t_line(struct out *o, const char *label, const char *val)
{
	if (o->tab && o->tab->in_row) {
		t_cell(o, label, val);
		return;
	}
	fprintf(o->fp, "%*s%s: %s\n", o->indent * 2, "", label, val ? val : "-");
}

void out_obj_begin(struct out *o, const char *key, const char *label)
{
	if (o->json) {
		j_push(o, key, json_object());
		return;
	}
	if (label && !(o->tab && o->tab->in_row)) {
		fprintf(o->fp, "%*s%s:\n", o->indent * 2, "", label);
		t_push(o, true);
	} else {
		t_push(o, false);
	}
}

void out_obj_end(struct out *o)
{
	if (o->json)
		j_pop(o);
	else
		t_pop(o);
}

void out_list_begin(struct out *o, const char *key, const char *label)
{
	if (o->json)
		j_push(o, key, json_array());
	else if (label && !(o->tab && o->tab->in_row)) {
		fprintf(o->fp, "%*s%s:\n", o->indent * 2, "", label);
		t_push(o, true);
	} else {
		t_push(o, false);
	}
}

void out_list_end(struct out *o)
{
	if (o->json)
		j_pop(o);
	else
		t_pop(o);
}

void out_table_begin(struct out *o, const char *key)
{
	if (o->json) {
		j_push(o, key, json_array());
		return;
	}
	table_free(o->tab);
	o->tab = calloc(1, sizeof(*o->tab));
}

void out_row_begin(struct out *o)
{
	struct text_table *t = o->tab;

	if (o->json) {
		j_push(o, NULL, json_object());
		return;
	}
	if (!t)
		return;
	if (t->nrows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		char **nc = realloc(t->cells, ncap * MAX_COLS * sizeof(*nc));

		if (!nc)
			return;
		memset(nc + t->cap * MAX_COLS, 0, (ncap - t->cap) * MAX_COLS * sizeof(*nc));
		t->cells = nc;
		t->cap = ncap;
	}
	t->nrows++;
	t->in_row = true;
}

void out_row_end(struct out *o)
{
	if (o->json)
		j_pop(o);
	else if (o->tab)
		o->tab->in_row = false;
}

void out_table_end(struct out *o)
{
	struct text_table *t = o->tab;
	size_t w[MAX_COLS] = { 0 };

	if (o->json) {
		j_pop(o);
		return;
	}
	if (!t)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->hdr[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			const char *s = t->cells[r * MAX_COLS + c];
			size_t n = s ? strlen(s) : 1;

			if (n > w[c])
				w[c] = n;
		}
	}
	for (size_t r = 0; r <= t->nrows && t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->hdr[c] : t->cells[(r - 1) * MAX_COLS + c];

			if (!s)
				s = "-";
			if (c + 1 == t->ncols)
				fprintf(o->fp, "%s", s);
			else
				fprintf(o->fp, "%-*s  ", (int)w[c], s);
		}
		fputc('\n', o->fp);
	}
	table_free(t);
	o->tab = NULL;
}

/* ---- fields ---- */

void out_str(struct out *o, const char *key, const char *label, const char *val)
{
	if (o->json)
		j_put(o, key, val ? json_string(val) : json_null());
	else if (label)
		t_line(o, label, val && *val ? val : "-");
}

void out_u64(struct out *o, const char *key, const char *label, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	out_u64_as(o, key, label, v, buf);
}

void out_u64_as(struct out *o, const char *key, const char *label, uint64_t v, const char *text)
{
	if (o->json) {
		char buf[32];

		/* json_int_t is signed 64-bit: a larger u64 goes out as a decimal
		 * string (documented in mlxcli(8), JSON OUTPUT). */
		if (v > (uint64_t)INT64_MAX) {
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
			j_put(o, key, json_string(buf));
		} else {
			j_put(o, key, json_integer((json_int_t)v));
		}
	} else if (label) {
		t_line(o, label, text);
	}
}

void out_s64(struct out *o, const char *key, const char *label, int64_t v)
{
	char buf[32];

	if (o->json)
		j_put(o, key, json_integer((json_int_t)v));
	else if (label) {
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		t_line(o, label, buf);
	}
}

void out_bool(struct out *o, const char *key, const char *label, bool v)
{
	if (o->json)
		j_put(o, key, json_boolean(v));
	else if (label)
		t_line(o, label, v ? "yes" : "no");
}

void out_null(struct out *o, const char *key, const char *label)
{
	out_str(o, key, label, NULL);
}

void out_strv(struct out *o, const char *key, const char *label, const char *const *v, size_t n)
{
	if (o->json) {
		json_t *a = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_string(v[i]));
		j_put(o, key, a);
	} else if (label) {
		size_t len = 1;
		char *s;

		for (size_t i = 0; i < n; i++)
			len += strlen(v[i]) + 1;
		s = calloc(1, len);
		if (!s)
			return;
		for (size_t i = 0; i < n; i++) {
			if (i)
				strcat(s, ",");
			strcat(s, v[i]);
		}
		t_line(o, label, n ? s : "-");
		free(s);
	}
}

void out_text(struct out *o, const char *label, const char *val)
{
	if (!o->json)
		t_line(o, label, val);
}
