/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The output layer: one call per field serves text and JSON, so the two
 * cannot drift (DESIGN.md "Output").  In JSON mode the calls go to the one
 * JSON writer (lib/json-writer.h), which holds the document in memory
 * until out_finish() writes it whole, so the output is valid JSON or
 * nothing.  In text mode tables are buffered row by row and aligned at
 * the end; everything else prints as it comes.
 *
 * key   the JSON key (snake_case, an interface: never renamed)
 * label the text label or column header; NULL means JSON only
 */
#ifndef MLX_OUTPUT_H
#define MLX_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OUT_SCHEMA_VERSION 3

struct out;

struct out *out_new(bool json, bool pretty, FILE *fp);
/* Dump the JSON tree (JSON mode); returns 0 or -errno.  Frees nothing. */
int out_finish(struct out *o);
void out_free(struct out *o);
bool out_is_json(const struct out *o);

/* Objects and lists.  In text mode an object with a label prints a
 * "label:" line and indents its fields. */
void out_obj_begin(struct out *o, const char *key, const char *label);
void out_obj_end(struct out *o);
void out_list_begin(struct out *o, const char *key, const char *label);
void out_list_end(struct out *o);

/* Tables: JSON array of objects; text: one aligned row per object. */
void out_table_begin(struct out *o, const char *key);
void out_row_begin(struct out *o);
void out_row_end(struct out *o);
void out_table_end(struct out *o);

/*
 * Tables keyed by data: JSON an object whose members are named by the
 * rows (a counter's name: "rx_packets": 123, or an object per name), text
 * the aligned rows of out_table_begin().  A row is out_keyed_row_begin(),
 * its text-only cells (out_text) and its one JSON member, whose key is the
 * row's data (out_u64(o, name, "VALUE", v), or out_obj_begin(o, name, NULL)
 * ... out_obj_end()), then out_keyed_row_end(); JSON-only objects between
 * rows (out_obj_begin(o, "ethtool", NULL)) group the members.
 */
void out_keyed_begin(struct out *o, const char *key);
void out_keyed_row_begin(struct out *o);
void out_keyed_row_end(struct out *o);
void out_keyed_end(struct out *o);

/* Fields.  A NULL string is JSON null and "-" in text. */
void out_str(struct out *o, const char *key, const char *label, const char *val);
void out_u64(struct out *o, const char *key, const char *label, uint64_t v);
void out_s64(struct out *o, const char *key, const char *label, int64_t v);
void out_bool(struct out *o, const char *key, const char *label, bool v);
void out_null(struct out *o, const char *key, const char *label);
/* A number in JSON, shown in text as @text (e.g. 100000 -> "100G"). */
void out_u64_as(struct out *o, const char *key, const char *label, uint64_t v, const char *text);
/* A list of strings: JSON array; text joined with ",". */
void out_strv(struct out *o, const char *key, const char *label, const char *const *v, size_t n);
/* A text-only cell or line that summarises fields JSON carries in
 * structured form elsewhere in the same object. */
void out_text(struct out *o, const char *label, const char *val);

/*
 * Fields in a layout of the renderer's own (iproute2's print_*(PRINT_ANY,
 * key, fmt, value)), for text that follows another tool's format (show
 * qos is mlnx_qos's): the field is still one call, so text and JSON cannot
 * drift.  @to says where it goes; in text @fmt is printed with one "%s",
 * the value as text (decimal, "yes"/"no", "-" for null), with no label,
 * indentation or line end of its own.  Not inside a text table row.
 */
enum out_to {
	OUT_ANY,        /* both */
	OUT_JSON,       /* JSON only: the text shows it another way */
	OUT_TEXT,       /* text only: the JSON has it in structured form */
};
void out_fmt_str(struct out *o, enum out_to to, const char *key, const char *fmt, const char *val);
void out_fmt_u64(struct out *o, enum out_to to, const char *key, const char *fmt, uint64_t v);
void out_fmt_bool(struct out *o, enum out_to to, const char *key, const char *fmt, bool v);
void out_fmt_null(struct out *o, enum out_to to, const char *key, const char *fmt);
/* Text only: the layout around fmt fields (line ends, headings). */
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A terminal control sequence of the renderer's own (counters watch
 * clearing the screen), text only, written as it is: out_printf() and
 * every field escape control characters (a capture's values may hold
 * them). */
void out_ctl(struct out *o, const char *seq);
/* @s to @fp with its control characters escaped (\xHH; C1 as \u00HH),
 * the one escaping of text output, also used for messages on stderr;
 * @keep_nl keeps newlines and tabs. */
void out_escape(FILE *fp, const char *s, bool keep_nl);

#endif
