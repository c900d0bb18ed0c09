/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the incident manifest reader (cmd/dmn-list.c
 * dmn_manifest_parse: a manifest.json of an incident folder someone sent,
 * read by `dump-me-now show` and `verify`) and lib/incident.h's test of
 * a manifest's format.  Every string it keeps must be terminated within
 * its field; the one renderer must take what it kept.
 */
#include <stdio.h>

#include "dmn-cmd.h"
#include "fuzz-util.h"
#include "incident.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = (char *)fuzz_copy(data, size);
	struct dmn_manifest *m;
	char err[200];

	if (!buf)
		return 0;
	(void)mlx_incident_manifest_is(buf, size);
	m = dmn_manifest_parse(buf, size, err, sizeof(err));
	if (m) {
		FILE *null = fopen("/dev/null", "w");
		struct out *o = null ? out_new(true, false, null) : NULL;

		if (strnlen(m->name, sizeof(m->name)) == sizeof(m->name) ||
		    strnlen(m->system, sizeof(m->system)) == sizeof(m->system))
			abort();
		for (size_t i = 0; i < m->nitems; i++)
			if (strnlen(m->items[i].sha256, 65) == 65 ||
			    strnlen(m->items[i].name, sizeof(m->items[i].name)) == sizeof(m->items[i].name))
				abort();
		if (o) {
			dmn_manifest_out(o, m, true);
			out_finish(o);
			out_free(o);
		}
		if (null)
			fclose(null);
		dmn_manifest_free(m);
	} else if (!memchr(err, '\0', sizeof(err))) {
		abort();
	}
	free(buf);
	return 0;
}
