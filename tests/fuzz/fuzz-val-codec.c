/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for a journal's values (lib/core/write.c
 * mlx_val_decode: the old values an interrupted transaction's journal
 * holds, read back by `mlxcli recover`): any text is the field.  A value
 * it takes encodes again (one word, no blank) to a text that decodes to
 * the same value and encodes to the same text; what it refuses is
 * -EBADMSG, nothing else.
 */
#include <errno.h>
#include <stdio.h>

#include "fuzz-util.h"
#include "write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_str(data, size), a[400], b[400];
	struct mlx_val v, w;
	int r;

	if (!t)
		return 0;
	r = mlx_val_decode(t, &v);
	if (r != 0 && r != -EBADMSG)
		abort();
	if (r == 0) {
		if (mlx_val_encode(&v, a, sizeof(a)) < 0 || strchr(a, ' ') || strchr(a, '\n'))
			abort();
		if (mlx_val_decode(a, &w) < 0 || !mlx_val_eq(&v, &w))
			abort();
		if (mlx_val_encode(&w, b, sizeof(b)) < 0 || strcmp(a, b))
			abort();
	}
	free(t);
	return 0;
}
