/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz-*.c): exact
 * size heap copies of the input, so that AddressSanitizer reports any read
 * one byte past the end, and a NUL-terminated copy for the text parsers.
 */
#ifndef MLX_FUZZ_UTIL_H
#define MLX_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* malloc(0) may return NULL; one byte keeps the pointer valid, and a
 * decoder given size 0 must not touch it. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size ? size : 1);

	if (p && size)
		memcpy(p, data, size);
	return p;
}

/* The input as a C string: cut at its first NUL, terminated exactly. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	size_t n = strnlen((const char *)data, size);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, data, n);
		s[n] = '\0';
	}
	return s;
}

#endif
