/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "output.h"

#define MAX_DEPTH 32
#define MAX_COLS 24

struct text_table {
	const char *hdr[MAX_COLS];
	size_t ncols;
	char **cells;       /* nrows * MAX_COLS */
	size_t nrows, cap;
	bool in_row;
};

/*
 * JSON is written as the calls come into one growing buffer, which
 * out_finish() writes with one fwrite: no tree of objects (at 2,000
 * interfaces x 40 counters a jansson tree cost 1.3 million allocations
 * and 140 MB), and still valid JSON or nothing on stdout.  The bytes are
 * those jansson's json_dumpf gave with JSON_PRESERVE_ORDER and
 * JSON_COMPACT or JSON_INDENT(2), which the tests and users' parsers
 * already saw.
 */
struct jchunk {
	struct jchunk *next;
	size_t len, cap;
	char data[];
};

/* A list of chunks, each twice the last up to 4 MiB: growing never
 * copies what was written (a realloc'ed 12 MB buffer did, twice over). */
struct jbuf {
	struct jchunk *head, *tail;
	bool oom;           /* an allocation failed: out_finish() reports it */
};

struct out {
	bool json, pretty;
	FILE *fp;
	/* JSON: open containers; [0] is the top-level object. */
	struct jbuf jb;
	struct {
		bool array;
		size_t members;
	} stack[MAX_DEPTH];
	int depth;
	bool overflow;      /* nesting beyond MAX_DEPTH (a bug): fail, never emit */
	/* text */
	int indent;
	int tdepth;         /* open objects/lists in text mode */
	uint64_t tind;      /* bit n: level n printed a label and indented */
	struct text_table *tab;
};

static void j_raw(struct out *o, const char *s, size_t n);
static void j_int(struct out *o, const char *key, int64_t v);
static void j_close(struct out *o);

struct out *out_new(bool json, bool pretty, FILE *fp)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->json = json;
	o->pretty = pretty;
	o->fp = fp;
	if (json) {
		j_raw(o, "{", 1);
		j_int(o, "schema_version", OUT_SCHEMA_VERSION);
	}
	return o;
}

bool out_is_json(const struct out *o)
{
	return o->json;
}

int out_finish(struct out *o)
{
	if (!o->json)
		return fflush(o->fp) == 0 ? 0 : -errno;
	errno = 0;
	while (o->depth > 0)       /* a handler that left one open */
		j_close(o);
	j_close(o);
	j_raw(o, "\n", 1);
	if (o->jb.oom)
		return -ENOMEM;
	if (o->overflow)
		return -EOVERFLOW;
	for (struct jchunk *c = o->jb.head; c; c = c->next)
		if (fwrite(c->data, 1, c->len, o->fp) != c->len)
			return errno ? -errno : -EIO;     /* EPIPE, ENOSPC */
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
	for (struct jchunk *c = o->jb.head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	table_free(o->tab);
	free(o);
}

/* ---- JSON plumbing ---- */

/*
 * Fault a large chunk in with one call rather than a page fault per 4 KiB
 * as it fills (12 MB of counters JSON is 3,000 faults; on a virtual
 * machine each costs microseconds).  Advice only: an older kernel without
 * MADV_POPULATE_WRITE (5.14) faults as before.
 */
static void populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + pg - 1) & ~(pg - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(pg - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

/* Room for @n contiguous bytes at the tail; NULL when out of memory. */
static char *j_room(struct out *o, size_t n)
{
	struct jbuf *b = &o->jb;
	struct jchunk *c = b->tail;

	if (b->oom)
		return NULL;
	if (!c || c->cap - c->len < n) {
		size_t cap = c ? c->cap * 2 : 16384;

		if (cap > ((size_t)4 << 20))
			cap = (size_t)4 << 20;
		if (cap < n)
			cap = n;
		c = malloc(sizeof(*c) + cap);
		if (!c) {
			b->oom = true;
			return NULL;
		}
		if (cap >= ((size_t)1 << 20))
			populate(c, sizeof(*c) + cap);
		c->next = NULL;
		c->len = 0;
		c->cap = cap;
		if (b->tail)
			b->tail->next = c;
		else
			b->head = c;
		b->tail = c;
	}
	return c->data + c->len;
}

static void j_raw(struct out *o, const char *s, size_t n)
{
	char *p = j_room(o, n);

	if (p) {
		memcpy(p, s, n);
		o->jb.tail->len += n;
	}
}

static void j_newline(struct out *o, int level)
{
	size_t n = 1 + 2 * (size_t)level;
	char *p = j_room(o, n);

	if (p) {
		p[0] = '\n';
		memset(p + 1, ' ', n - 1);
		o->jb.tail->len += n;
	}
}

/* The length of the valid UTF-8 sequence at @s (1-4), or 0. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A JSON string.  Escapes as jansson does (\" \\ \b \f \n \r \t, other
 * controls as \u00XX; "/" and non-ASCII as they are).  A byte that is not
 * valid UTF-8 (a driver's counter name, a VPD field) becomes U+FFFD, so
 * the document stays valid; jansson refused such a string and the key
 * vanished.
 */
static void j_string(struct out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0;
	char *p;

	/* The usual case, nothing to escape: one copy with its quotes. */
	while (s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' && s[run] != '\\')
		run++;
	if (!s[run] && (p = j_room(o, run + 2))) {
		p[0] = '"';
		memcpy(p + 1, s, run);
		p[run + 1] = '"';
		o->jb.tail->len += run + 2;
		return;
	}
	j_raw(o, "\"", 1);
	for (;;) {
		unsigned char c = s[run];
		char esc[8];
		const char *e = NULL;
		size_t elen = 2, n;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			run++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_seq(s + run)) > 0) {
			run += n;
			continue;
		}
		j_raw(o, (const char *)s, run);
		if (!c)
			break;
		switch (c) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		default:
			if (c < 0x20) {
				snprintf(esc, sizeof(esc), "\\u%04X", c);
				e = esc;
				elen = 6;
			} else {
				e = "\xef\xbf\xbd";      /* U+FFFD for an invalid byte */
				elen = 3;
			}
		}
		j_raw(o, e, elen);
		s += run + 1;
		run = 0;
	}
	j_raw(o, "\"", 1);
}

/* Start a member of the open container: separator, indentation, key. */
static void j_member(struct out *o, const char *key)
{
	bool array = o->stack[o->depth].array;

	if (o->stack[o->depth].members++)
		j_raw(o, ",", 1);
	if (o->pretty)
		j_newline(o, o->depth + 1);
	if (array)
		return;
	j_string(o, key ? key : "?");
	j_raw(o, ": ", o->pretty ? 2 : 1);
}

/* Decimal digits of @v, written backwards ending at @end; returns the start. */
static char *u64_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void j_int(struct out *o, const char *key, int64_t v)
{
	char buf[24], *p;

	/* counters are most of a large document: no printf per number */
	p = u64_digits(buf + sizeof(buf), v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--p = '-';
	j_member(o, key);
	j_raw(o, p, (size_t)(buf + sizeof(buf) - p));
}

static void j_open(struct out *o, const char *key, bool array)
{
	j_member(o, key);
	j_raw(o, array ? "[" : "{", 1);
	if (o->depth + 1 >= MAX_DEPTH) {
		o->overflow = true;
		return;
	}
	o->depth++;
	o->stack[o->depth].array = array;
	o->stack[o->depth].members = 0;
}

static void j_close(struct out *o)
{
	if (o->overflow)
		return;
	if (o->pretty && o->stack[o->depth].members)
		j_newline(o, o->depth);
	j_raw(o, o->stack[o->depth].array ? "]" : "}", 1);
	if (o->depth > 0)
		o->depth--;
}

static void j_pop(struct out *o)
{
	if (o->depth > 0)       /* never the top-level object: out_finish() closes it */
		j_close(o);
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
		j_open(o, key, false);
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
		j_open(o, key, true);
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
		j_open(o, key, true);
		return;
	}
	table_free(o->tab);
	o->tab = calloc(1, sizeof(*o->tab));
}

void out_row_begin(struct out *o)
{
	struct text_table *t = o->tab;

	if (o->json) {
		j_open(o, NULL, false);
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
	if (o->json) {
		j_member(o, key);
		if (val)
			j_string(o, val);
		else
			j_raw(o, "null", 4);
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
		char buf[32];

		/* json_int_t is signed 64-bit: a larger u64 goes out as a decimal
		 * string (documented in mlxcli(8), JSON OUTPUT). */
		if (v > (uint64_t)INT64_MAX) {
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
			j_member(o, key);
			j_string(o, buf);
		} else {
			j_int(o, key, (int64_t)v);
		}
	} else if (label) {
		t_line(o, label, text);
	}
}

void out_s64(struct out *o, const char *key, const char *label, int64_t v)
{
	char buf[32];

	if (o->json)
		j_int(o, key, v);
	else if (label) {
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		t_line(o, label, buf);
	}
}

void out_bool(struct out *o, const char *key, const char *label, bool v)
{
	if (o->json) {
		j_member(o, key);
		j_raw(o, v ? "true" : "false", v ? 4 : 5);
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
		j_open(o, key, true);
		for (size_t i = 0; i < n; i++) {
			j_member(o, NULL);
			j_string(o, v[i]);
		}
		j_close(o);
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
	if (o->json || to == OUT_JSON || !fmt)
		return;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	fprintf(o->fp, fmt, val);
#pragma GCC diagnostic pop
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

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->fp, fmt, ap);
	va_end(ap);
}
