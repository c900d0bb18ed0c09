/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw evidence for dump-me-now: see lib/evidence.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx-private.h"
#include "device.h"
#include "evidence.h"

const char *const mlx_evidence_aer_names[MLX_EVIDENCE_NAER] = {
	"aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal",
};

ssize_t mlx_evidence_pci_config(struct mlx_ctx *ctx, const struct mlx_function *fn, uint8_t *buf,
				size_t len)
{
	char path[200];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", fn->bdf);
	n = mlx_read_bin(ctx, path, buf, len);
	if (n == 0)
		return mlx_err(ctx, EIO, "'%s' is empty", path);
	if (n < 0)
		return mlx_err(ctx, (int)-n, "cannot read '%s': %s", path, strerror((int)-n));
	return n;
}

int mlx_evidence_aer(struct mlx_ctx *ctx, const struct mlx_function *fn, unsigned which, char **text,
		     size_t *len)
{
	char path[200];
	int r;

	if (which >= MLX_EVIDENCE_NAER)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", fn->bdf, mlx_evidence_aer_names[which]);
	r = mlx_read_file(ctx, path, text, len);
	if (r == -ENOENT)
		return mlx_err(ctx, ENOENT, "the kernel has no AER for this function (no AER capability, "
			       "or CONFIG_PCIEAER off)");
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read '%s': %s", path, strerror(-r));
	return 0;
}

/* The names a kernel line about @fn carries. */
struct keys {
	const char *k[24];
	size_t n;
};

static bool line_matches(const char *line, size_t len, const struct keys *keys)
{
	for (size_t k = 0; k < keys->n; k++) {
		size_t kl = strlen(keys->k[k]);

		for (size_t i = 0; kl && i + kl <= len; i++)
			if (!memcmp(line + i, keys->k[k], kl))
				return true;
	}
	return false;
}

/* Keep the lines of [text, text+len) that name the device. */
static void filter_lines(FILE *out, const char *text, size_t len, const struct keys *keys)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));

		if (!e)
			e = end;
		if (line_matches(p, (size_t)(e - p), keys))
			fprintf(out, "%.*s\n", (int)(e - p), p);
		p = e + 1;
	}
}

int mlx_evidence_kernel_log(struct mlx_ctx *ctx, const struct mlx_function *fn, char **text,
			    size_t *len)
{
	char *log = NULL;
	size_t llen;
	const char *source = NULL;
	/* The boundary reads the log (the live kernel's /dev/kmsg, else its
	 * syslog copy; a captured system's kern.log) and says from where. */
	int r = mlx_kmsg_read(ctx, &log, &llen, &source);

	if (r < 0)
		return r;
	r = mlx_evidence_kernel_log_of(fn, log, llen, source, text, len);
	free(log);
	return r;
}

int mlx_evidence_kernel_log_of(const struct mlx_function *fn, const char *log, size_t llen,
			       const char *source, char **text, size_t *len)
{
	struct keys keys = { .n = 0 };
	char *buf = NULL;
	size_t blen = 0;
	FILE *m;

	keys.k[keys.n++] = fn->bdf;
	for (size_t i = 0; i < fn->nports && keys.n < 16; i++)
		if (fn->ports[i].ifname[0])
			keys.k[keys.n++] = fn->ports[i].ifname;
	for (size_t i = 0; i < fn->nrdma && keys.n < 24; i++)
		keys.k[keys.n++] = fn->rdma[i].name;
	m = open_memstream(&buf, &blen);
	if (!m)
		return -ENOMEM;
	fprintf(m, "# source: %s\n", source);
	filter_lines(m, log, llen, &keys);
	if (fclose(m) != 0) {
		free(buf);
		return -ENOMEM;
	}
	*text = buf;
	*len = blen;
	return 0;
}
