/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the dump-me-now configuration parser (lib/debug/dmn.c
 * mlx_conf_parse, /etc/mlxcli.conf): any bytes are the file.  Each key
 * handed to the callback is a non-empty [a-z0-9_] word, each value a
 * string without surrounding blanks.
 */
#include <ctype.h>
#include <errno.h>

#include "dmn.h"
#include "fuzz-util.h"

static int cb(const char *key, const char *value, void *arg)
{
	size_t n = strlen(value);

	(void)arg;
	if (!*key)
		abort();
	for (const char *c = key; *c; c++)
		if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_'))
			abort();
	if (n && (isspace((unsigned char)value[0]) || isspace((unsigned char)value[n - 1])))
		abort();
	/* Refuse one key, as a caller does for a bad value. */
	return strcmp(key, "bad") == 0 ? -EINVAL : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = (char *)fuzz_copy(data, size);
	size_t line;
	char err[128];

	if (!text)
		return 0;
	if (mlx_conf_parse(text, size, cb, NULL, &line, err, sizeof(err)) < 0 && line == 0)
		abort();
	free(text);
	return 0;
}
