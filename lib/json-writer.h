/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one JSON writer of mlxcli (issue 14): the output layer (cmd/output.c),
 * the snapshot metadata (lib/capture/snapshot.c), the dump-me-now manifest
 * and items all write through it, so there is one escaper and one layout.
 *
 * A document is written as the calls come, into memory (a list of chunks:
 * growing never copies what was written), and handed out whole by
 * mlx_json_fwrite() or mlx_json_take(): valid JSON or nothing, never half
 * a document on a stream.  No tree of objects (at 2,000 interfaces x 40
 * counters a jansson tree cost 1.3 million allocations and 140 MB).
 *
 * The bytes are those jansson's json_dumps gives with JSON_PRESERVE_ORDER
 * and JSON_COMPACT, or JSON_INDENT(2) when pretty: what users' parsers and
 * the expected files already saw.  A string that is not valid UTF-8 has
 * each bad byte replaced by U+FFFD (jansson refused it and the key
 * vanished).  A u64 above INT64_MAX is a decimal string (jansson's
 * json_int_t is signed; mlxcli(8) JSON OUTPUT says so).
 *
 * @key is the member name inside an object, NULL inside an array and for
 * the top-level value.  Errors (out of memory, nesting deeper than
 * MLX_JSON_MAX_DEPTH) are sticky and reported by mlx_json_finish().
 */
#ifndef MLX_JSON_WRITER_H
#define MLX_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MLX_JSON_MAX_DEPTH 32

struct mlx_json;

struct mlx_json *mlx_json_new(bool pretty);
void mlx_json_free(struct mlx_json *j);

void mlx_json_obj_begin(struct mlx_json *j, const char *key);
void mlx_json_arr_begin(struct mlx_json *j, const char *key);
/* Close the innermost open object or array. */
void mlx_json_end(struct mlx_json *j);
/* Open containers: 0 before the top-level value and after it closes. */
int mlx_json_depth(const struct mlx_json *j);

void mlx_json_str(struct mlx_json *j, const char *key, const char *s);   /* NULL: null */
void mlx_json_int(struct mlx_json *j, const char *key, int64_t v);
void mlx_json_u64(struct mlx_json *j, const char *key, uint64_t v);
void mlx_json_bool(struct mlx_json *j, const char *key, bool v);
void mlx_json_null(struct mlx_json *j, const char *key);
/* Bytes as a lowercase hex string (binary values: devlink fmsg). */
void mlx_json_hex(struct mlx_json *j, const char *key, const uint8_t *p, size_t len);

/* Close what is open and end the document with a newline; 0, -ENOMEM or
 * -EOVERFLOW.  Nothing may be added after. */
int mlx_json_finish(struct mlx_json *j);
/* The finished document onto @fp (0 or -errno: EPIPE, ENOSPC). */
int mlx_json_fwrite(const struct mlx_json *j, FILE *fp);
/* The finished document as one malloc'ed NUL-terminated string (its
 * length in *len); NULL when out of memory. */
char *mlx_json_take(const struct mlx_json *j, size_t *len);

#endif
