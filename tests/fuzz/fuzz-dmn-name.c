/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the incident names (lib/debug/dmn.c): any string is a
 * directory name found in the dump root, for mlx_dmn_name_parse; and the
 * input split at NULs gives device, type, source and reason for
 * mlx_dmn_name, whose result must always parse back (retention relies on
 * finding every incident it made).
 */
#include <time.h>

#include "dmn.h"
#include "fuzz-util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_str(data, size);
	char *copy = (char *)malloc(size + 1);
	const char *part[4] = { "", "", "", "" };
	struct timespec ts = { .tv_sec = 1700000000 + (time_t)size, .tv_nsec = 123456789 };
	struct mlx_dmn_entry e;
	char made[MLX_DMN_NAME_MAX + 1];
	size_t k = 0;

	if (!name || !copy)
		goto out;
	if (mlx_dmn_name_parse(name, &e) == 0) {
		if (strnlen(e.device, sizeof(e.device)) == sizeof(e.device) ||
		    strnlen(e.reason, sizeof(e.reason)) == sizeof(e.reason) ||
		    strlen(e.stamp) != 23 || strcmp(e.name, name) || mlx_dmn_entry_cmp(&e, &e))
			abort();
	}

	memcpy(copy, data, size);
	copy[size] = '\0';
	for (size_t i = 0; i <= size && k < 4; i++)
		if (i == 0 || copy[i - 1] == '\0')
			part[k++] = copy + i;
	if (mlx_dmn_name(made, sizeof(made), part[0], part[1], part[2], part[3], &ts,
			 (pid_t)(size + 1), (unsigned)size) == 0 &&
	    mlx_dmn_name_parse(made, &e) != 0)
		abort();
out:
	free(copy);
	free(name);
	return 0;
}
