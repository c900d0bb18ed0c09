/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON writer: see lib/json-writer.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json-writer.h"

struct jchunk {
	struct jchunk *next;
	size_t len, cap;
	size_t ready;       /* data faulted in ahead of len (large chunks) */
	char data[];
};

struct mlx_json {
	bool pretty;
	/* A list of chunks, each twice the last up to 4 MiB: growing never
	 * copies what was written (a realloc'ed 12 MB buffer did, twice over). */
	struct jchunk *head, *tail;
	bool oom;           /* an allocation failed: finish reports it */
	bool overflow;      /* nesting beyond MLX_JSON_MAX_DEPTH (a bug): fail, never emit */
	/* [0] is the document itself (one value, no separator); [1..depth]
	 * the open containers */
	struct {
		bool array;
		size_t members;
	} stack[MLX_JSON_MAX_DEPTH + 1];
	int depth;
};

struct mlx_json *mlx_json_new(bool pretty)
{
	struct mlx_json *j = calloc(1, sizeof(*j));

	if (j)
		j->pretty = pretty;
	return j;
}

void mlx_json_free(struct mlx_json *j)
{
	if (!j)
		return;
	for (struct jchunk *c = j->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(j);
}

int mlx_json_depth(const struct mlx_json *j)
{
	return j->depth;
}

/*
 * Fault a large chunk in with one call per 256 KiB rather than a page
 * fault per 4 KiB as it fills (12 MB of counters JSON was 3,000 faults; on
 * a virtual machine each costs microseconds), and only as far as it is
 * filled: a whole 2 MiB chunk faulted in for the last 100 KB of a
 * document was peak memory for nothing.  Advice only: an older kernel
 * without MADV_POPULATE_WRITE (5.14) faults as before.
 */
#define POPULATE_STEP ((size_t)256 << 10)
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
static char *room(struct mlx_json *j, size_t n)
{
	struct jchunk *c = j->tail;

	if (j->oom)
		return NULL;
	if (!c || c->cap - c->len < n) {
		size_t cap = c ? c->cap * 2 : 16384;

		if (cap > ((size_t)4 << 20))
			cap = (size_t)4 << 20;
		if (cap < n)
			cap = n;
		c = malloc(sizeof(*c) + cap);
		if (!c) {
			j->oom = true;
			return NULL;
		}
		c->next = NULL;
		c->len = 0;
		c->cap = cap;
		/* small chunks fault as they fill: not worth a call */
		c->ready = cap >= ((size_t)1 << 20) ? 0 : cap;
		if (j->tail)
			j->tail->next = c;
		else
			j->head = c;
		j->tail = c;
	}
	if (c->len + n > c->ready) {
		size_t step = n > POPULATE_STEP ? n : POPULATE_STEP;

		if (step > c->cap - c->ready)
			step = c->cap - c->ready;
		populate(c->data + c->ready, step);
		c->ready += step;
	}
	return c->data + c->len;
}

static void raw(struct mlx_json *j, const char *s, size_t n)
{
	char *p = room(j, n);

	if (p) {
		memcpy(p, s, n);
		j->tail->len += n;
	}
}

static void newline(struct mlx_json *j, int level)
{
	size_t n = 1 + 2 * (size_t)level;
	char *p = room(j, n);

	if (p) {
		p[0] = '\n';
		memset(p + 1, ' ', n - 1);
		j->tail->len += n;
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

/* The bytes a JSON string holds as they are: printable ASCII but '"' and
 * '\\' (one table lookup a byte: a large document is mostly strings). */
#define P8 true, true, true, true, true, true, true, true
static const bool plain[256] = {
	/* 0x00-0x1f: controls */
	[0x20] = true, true, false /* " */, true, true, true, true, true,
	[0x28] = P8, P8, P8, P8, P8,
	[0x50] = P8, true, true, true, true, false /* \\ */, true, true, true,
	[0x60] = P8, P8, P8, P8,
	/* 0x80-0xff: UTF-8, checked apart */
};
#undef P8

/*
 * A JSON string.  Escapes as jansson does (\" \\ \b \f \n \r \t, other
 * controls as \u00XX; "/" and non-ASCII as they are); a byte that is not
 * valid UTF-8 becomes U+FFFD.
 */
static void string(struct mlx_json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0;
	char *p;

	/* The usual case, nothing to escape: one copy with its quotes. */
	while (plain[s[run]])
		run++;
	if (!s[run] && (p = room(j, run + 2))) {
		p[0] = '"';
		memcpy(p + 1, s, run);
		p[run + 1] = '"';
		j->tail->len += run + 2;
		return;
	}
	raw(j, "\"", 1);
	for (;;) {
		unsigned char c = s[run];
		char esc[8];
		const char *e = NULL;
		size_t elen = 2, n;

		if (plain[c]) {
			run++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_seq(s + run)) > 0) {
			run += n;
			continue;
		}
		raw(j, (const char *)s, run);
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
		raw(j, e, elen);
		s += run + 1;
		run = 0;
	}
	raw(j, "\"", 1);
}

/* Start a member of the open container: separator, indentation, key. */
static void member(struct mlx_json *j, const char *key)
{
	bool sep;

	if (j->depth == 0)
		return;         /* the document's one value */
	sep = j->stack[j->depth].members++ != 0;
	if (!j->pretty && !j->stack[j->depth].array && key) {
		/* compact, a key with nothing to escape: ,"key": in one go
		 * (most of a large document is members) */
		const unsigned char *k = (const unsigned char *)key;
		size_t n = 0;
		char *p;

		while (plain[k[n]])
			n++;
		if (!k[n] && (p = room(j, n + 4))) {
			if (sep)
				*p++ = ',';
			*p++ = '"';
			memcpy(p, k, n);
			p[n] = '"';
			p[n + 1] = ':';
			j->tail->len += n + 3 + sep;
			return;
		}
	}
	if (sep)
		raw(j, ",", 1);
	if (j->pretty)
		newline(j, j->depth);
	if (j->stack[j->depth].array)
		return;
	string(j, key ? key : "?");
	raw(j, ": ", j->pretty ? 2 : 1);
}

static void open_(struct mlx_json *j, const char *key, bool array)
{
	member(j, key);
	raw(j, array ? "[" : "{", 1);
	if (j->depth >= MLX_JSON_MAX_DEPTH) {
		j->overflow = true;
		return;
	}
	j->depth++;
	j->stack[j->depth].array = array;
	j->stack[j->depth].members = 0;
}

void mlx_json_obj_begin(struct mlx_json *j, const char *key)
{
	open_(j, key, false);
}

void mlx_json_arr_begin(struct mlx_json *j, const char *key)
{
	open_(j, key, true);
}

void mlx_json_end(struct mlx_json *j)
{
	if (j->overflow || j->depth == 0)
		return;
	if (j->pretty && j->stack[j->depth].members)
		newline(j, j->depth - 1);
	raw(j, j->stack[j->depth].array ? "]" : "}", 1);
	j->depth--;
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

void mlx_json_int(struct mlx_json *j, const char *key, int64_t v)
{
	char buf[24], *p;

	/* counters are most of a large document: no printf per number */
	p = u64_digits(buf + sizeof(buf), v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--p = '-';
	member(j, key);
	raw(j, p, (size_t)(buf + sizeof(buf) - p));
}

void mlx_json_u64(struct mlx_json *j, const char *key, uint64_t v)
{
	char buf[24], *p;

	if (v <= (uint64_t)INT64_MAX) {
		mlx_json_int(j, key, (int64_t)v);
		return;
	}
	p = u64_digits(buf + sizeof(buf) - 1, v);
	buf[sizeof(buf) - 1] = '\0';
	member(j, key);
	string(j, p);
}

void mlx_json_str(struct mlx_json *j, const char *key, const char *s)
{
	member(j, key);
	if (s)
		string(j, s);
	else
		raw(j, "null", 4);
}

void mlx_json_bool(struct mlx_json *j, const char *key, bool v)
{
	member(j, key);
	raw(j, v ? "true" : "false", v ? 4 : 5);
}

void mlx_json_null(struct mlx_json *j, const char *key)
{
	member(j, key);
	raw(j, "null", 4);
}

void mlx_json_hex(struct mlx_json *j, const char *key, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *q;

	member(j, key);
	q = room(j, 2 * len + 2);
	if (!q)
		return;
	*q++ = '"';
	for (size_t i = 0; i < len; i++) {
		*q++ = digits[p[i] >> 4];
		*q++ = digits[p[i] & 15];
	}
	*q = '"';
	j->tail->len += 2 * len + 2;
}

int mlx_json_finish(struct mlx_json *j)
{
	while (j->depth > 0 && !j->overflow)       /* a writer that left one open */
		mlx_json_end(j);
	raw(j, "\n", 1);
	if (j->oom)
		return -ENOMEM;
	if (j->overflow)
		return -EOVERFLOW;
	return 0;
}

int mlx_json_fwrite(const struct mlx_json *j, FILE *fp)
{
	errno = 0;
	for (const struct jchunk *c = j->head; c; c = c->next)
		if (fwrite(c->data, 1, c->len, fp) != c->len)
			return errno ? -errno : -EIO;
	return 0;
}

char *mlx_json_take(const struct mlx_json *j, size_t *len)
{
	size_t n = 0;
	char *s, *p;

	for (const struct jchunk *c = j->head; c; c = c->next)
		n += c->len;
	s = p = malloc(n + 1);
	if (!s)
		return NULL;
	for (const struct jchunk *c = j->head; c; c = c->next) {
		memcpy(p, c->data, c->len);
		p += c->len;
	}
	*p = '\0';
	if (len)
		*len = n;
	return s;
}
