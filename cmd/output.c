/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json-writer.h"
#include "output.h"

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
	/* JSON: the one writer (lib/json-writer.h), the top-level object open */
	struct mlx_json *j;
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
		o->j = mlx_json_new(pretty);
		if (!o->j) {
			free(o);
			return NULL;
		}
		mlx_json_obj_begin(o->j, NULL);
		mlx_json_int(o->j, "schema_version", OUT_SCHEMA_VERSION);
	}
	return o;
}

bool out_is_json(const struct out *o)
{
	return o->json;
}

/* JSON is written whole by one call here: valid JSON or nothing on stdout. */
int out_finish(struct out *o)
{
	int r;

	if (!o->json)
		return fflush(o->fp) == 0 ? 0 : -errno;
	r = mlx_json_finish(o->j);
	if (r == 0)
		r = mlx_json_fwrite(o->j, o->fp);
	if (r == 0 && fflush(o->fp) != 0)
		r = -errno;
	return r;
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
	mlx_json_free(o->j);
	table_free(o->tab);
	free(o);
}

/* ---- JSON plumbing ---- */

static void j_pop(struct out *o)
{
	if (mlx_json_depth(o->j) > 1)   /* never the top-level object: out_finish() closes it */
		mlx_json_end(o->j);
}

/* ---- text plumbing ---- */

/*
 * Every byte of text output passes here.  What a capture or the kernel
 * hands us (an interface's address, a counter's name, a firmware string)
 * may hold terminal controls: ESC [ 2 J clears the screen, OSC sequences
 * retitle it or write files in some terminals.  So a control character
 * (C0, DEL, and C1 as UTF-8 U+0080..U+009F) is written as \xHH, as JSON
 * writes \u00HH; a value never ends a line or indents one (@keep_nl only
 * for out_printf(), whose newlines and tabs are the renderer's own).
 */
static size_t t_esc_len(const unsigned char *c, bool keep_nl)
{
	if (keep_nl && (*c == '\n' || *c == '\t'))
		return 0;
	if (*c < 0x20 || *c == 0x7f)
		return 1;
	if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f)
		return 2;
	return 0;
}

void out_escape(FILE *fp, const char *s, bool keep_nl)
{
	const unsigned char *c = (const unsigned char *)s;

	while (*c) {
		size_t run = 0, e;

		while (c[run] && !t_esc_len(c + run, keep_nl))
			run++;
		if (run)
			fwrite(c, 1, run, fp);
		c += run;
		if (!*c)
			break;
		e = t_esc_len(c, keep_nl);
		if (e == 2)
			fprintf(fp, "\\u%04x", c[1]);
		else
			fprintf(fp, "\\x%02x", *c);
		c += e;
	}
}

/* A value escaped (malloc'ed; NULL for NULL or out of memory). */
static char *t_escdup(const char *s, bool keep_nl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!s)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	out_escape(m, s, keep_nl);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

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
	t->cells[(t->nrows - 1) * MAX_COLS + col] = t_escdup(val ? val : "-", false);
}

static void t_line(struct out *o, const char *label, const char *val)
{
	if (o->tab && o->tab->in_row) {
		t_cell(o, label, val);
		return;
	}
	fprintf(o->fp, "%*s", o->indent * 2, "");
	out_escape(o->fp, label, false);
	fputs(": ", o->fp);
	out_escape(o->fp, val ? val : "-", false);
	fputc('\n', o->fp);
}

/* "LABEL:" opening an object or a list */
static void t_heading(struct out *o, const char *label)
{
	fprintf(o->fp, "%*s", o->indent * 2, "");
	out_escape(o->fp, label, false);
	fputs(":\n", o->fp);
}

void out_obj_begin(struct out *o, const char *key, const char *label)
{
	if (o->json) {
		mlx_json_obj_begin(o->j, key);
		return;
	}
	if (label && !(o->tab && o->tab->in_row)) {
		t_heading(o, label);
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
		mlx_json_arr_begin(o->j, key);
	else if (label && !(o->tab && o->tab->in_row)) {
		t_heading(o, label);
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
		mlx_json_arr_begin(o->j, key);
		return;
	}
	table_free(o->tab);
	o->tab = calloc(1, sizeof(*o->tab));
}

void out_row_begin(struct out *o)
{
	struct text_table *t = o->tab;

	if (o->json) {
		mlx_json_obj_begin(o->j, NULL);
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
	/* A table whose fields are all JSON only has no text: no empty rows. */
	if (!t->ncols)
		t->nrows = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		char *h = t_escdup(t->hdr[c], false);

		w[c] = h ? strlen(h) : 0;
		free(h);
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

			char *h = r == 0 ? t_escdup(s, false) : NULL;

			if (h)
				s = h;  /* a header; the cells were escaped when stored */
			if (!s)
				s = "-";
			if (c + 1 == t->ncols)
				fprintf(o->fp, "%s", s);
			else
				fprintf(o->fp, "%-*s  ", (int)w[c], s);
			free(h);
		}
		fputc('\n', o->fp);
	}
	table_free(t);
	o->tab = NULL;
}

void out_keyed_begin(struct out *o, const char *key)
{
	if (o->json)
		mlx_json_obj_begin(o->j, key);
	else
		out_table_begin(o, key);
}

void out_keyed_row_begin(struct out *o)
{
	if (!o->json)
		out_row_begin(o);
}

void out_keyed_row_end(struct out *o)
{
	if (!o->json)
		out_row_end(o);
}

void out_keyed_end(struct out *o)
{
	if (o->json)
		j_pop(o);
	else
		out_table_end(o);
}

/* ---- fields ---- */

void out_str(struct out *o, const char *key, const char *label, const char *val)
{
	if (o->json) {
		mlx_json_str(o->j, key, val);
	} else if (label)
		t_line(o, label, val && *val ? val : "-");
}

void out_u64(struct out *o, const char *key, const char *label, uint64_t v)
{
	char buf[32];

	if (!o->json && label)
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	else
		buf[0] = '\0';
	out_u64_as(o, key, label, v, buf);
}

void out_u64_as(struct out *o, const char *key, const char *label, uint64_t v, const char *text)
{
	if (o->json) {
		/* above INT64_MAX a decimal string (mlxcli(8), JSON OUTPUT) */
		mlx_json_u64(o->j, key, v);
	} else if (label) {
		t_line(o, label, text);
	}
}

void out_s64(struct out *o, const char *key, const char *label, int64_t v)
{
	char buf[32];

	if (o->json)
		mlx_json_int(o->j, key, v);
	else if (label) {
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		t_line(o, label, buf);
	}
}

void out_bool(struct out *o, const char *key, const char *label, bool v)
{
	if (o->json) {
		mlx_json_bool(o->j, key, v);
	} else if (label)
		t_line(o, label, v ? "yes" : "no");
}

void out_null(struct out *o, const char *key, const char *label)
{
	out_str(o, key, label, NULL);
}

void out_strv(struct out *o, const char *key, const char *label, const char *const *v, size_t n)
{
	if (o->json) {
		mlx_json_arr_begin(o->j, key);
		for (size_t i = 0; i < n; i++)
			mlx_json_str(o->j, NULL, v[i]);
		mlx_json_end(o->j);
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

/* ---- fields in the renderer's own text layout ---- */

/* Text of a fmt field: @fmt with its one "%s" (the format is the
 * caller's literal; the value is never a format). */
static void t_fmt(struct out *o, enum out_to to, const char *fmt, const char *val)
{
	char *e;

	if (o->json || to == OUT_JSON || !fmt)
		return;
	e = t_escdup(val, false);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	fprintf(o->fp, fmt, e ? e : "-");
#pragma GCC diagnostic pop
	free(e);
}

void out_fmt_str(struct out *o, enum out_to to, const char *key, const char *fmt, const char *val)
{
	if (o->json && to != OUT_TEXT)
		out_str(o, key, NULL, val);
	t_fmt(o, to, fmt, val && *val ? val : "-");
}

void out_fmt_u64(struct out *o, enum out_to to, const char *key, const char *fmt, uint64_t v)
{
	char buf[24];

	if (o->json && to != OUT_TEXT)
		out_u64(o, key, NULL, v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	t_fmt(o, to, fmt, buf);
}

void out_fmt_bool(struct out *o, enum out_to to, const char *key, const char *fmt, bool v)
{
	if (o->json && to != OUT_TEXT)
		out_bool(o, key, NULL, v);
	t_fmt(o, to, fmt, v ? "yes" : "no");
}

void out_fmt_null(struct out *o, enum out_to to, const char *key, const char *fmt)
{
	out_fmt_str(o, to, key, fmt, NULL);
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	char *buf = NULL;
	int n;

	if (o->json)
		return;
	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* the format's newlines and tabs stay; a value's controls do not */
	out_escape(o->fp, buf, true);
	free(buf);
}

void out_ctl(struct out *o, const char *seq)
{
	if (!o->json)
		fputs(seq, o->fp);
}
