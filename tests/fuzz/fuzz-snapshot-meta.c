/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the snapshot manifest reader (lib/core/
 * boundary-captured.c mlx_snapshot_meta_value: the mlxcli-snapshot.json of a
 * capture someone sent, whose hostname and kernel every read command of
 * that capture shows).  A value must come back terminated within the
 * buffer, whatever the escapes, at every buffer size.
 */
#include "fuzz-util.h"
#include "mlx-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "hostname", "kernel", "format", "tool_version", "" };
	static const size_t sizes[] = { 1, 2, 8, 65 };
	char *text = fuzz_str(data, size);

	if (!text)
		return 0;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			char *buf = malloc(sizes[s]);

			if (!buf)
				continue;
			if (mlx_snapshot_meta_value(text, keys[k], buf, sizes[s]) &&
			    !memchr(buf, '\0', sizes[s]))
				abort();
			free(buf);
		}
	free(text);
	return 0;
}
