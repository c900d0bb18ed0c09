/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PCI backend: libpci's sysfs method pointed at ROOT/sys/bus/pci, so
 * a captured system is scanned by the same code as the live one.
 *
 * libpci reports fatal errors (a device directory without its 'vendor'
 * file, say) through pacc->error, which must not return.  A tool that
 * never exits from a helper cannot let that call exit(), so the handler
 * longjmp()s back here.  libpci's callback has no user pointer, hence
 * the one thread-local below: the only piece of global state in lib/.
 */
#include "config.h"

#include <errno.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"

static __thread struct {
	jmp_buf *jmp;
	char msg[256];
	struct mlx_ctx *ctx;
} pci_guard;

static void __attribute__((noreturn)) pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_guard.msg, sizeof(pci_guard.msg), msg, ap);
	va_end(ap);
	longjmp(*pci_guard.jmp, 1);
}

static void pci_warning(char *msg, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, msg);
	vsnprintf(buf, sizeof(buf), msg, ap);
	va_end(ap);
	if (pci_guard.ctx)
		mlx_log(pci_guard.ctx, MLX_LOG_DEBUG, "libpci: %s", buf);
}

static void pci_debug(char *msg, ...)
{
	(void)msg;
}

/*
 * Read as much config space as we are allowed to.  Unprivileged readers
 * get only the first 64 bytes from sysfs (the kernel's pci_read_config());
 * try the full 4 KiB, then the 256-byte standard space, then the header.
 */
static size_t read_config(struct pci_dev *d, uint8_t *buf)
{
	static const int sizes[] = { 4096, 256, 64 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(buf, 0, 4096);
		if (pci_read_block(d, 0, buf, sizes[i]))
			return (size_t)sizes[i];
	}
	return 0;
}

int mlx_pci_scan(struct mlx_ctx *ctx, uint16_t vendor, struct mlx_pci_raw **out,
		 size_t *n, unsigned *others)
{
	/* volatile: these change between setjmp() and a possible longjmp(). */
	struct mlx_pci_raw *volatile v = NULL;
	struct mlx_pci_raw *nv;
	struct pci_access *pacc;
	char path[PATH_MAX];
	jmp_buf jmp;
	volatile size_t cnt = 0, cap = 0;
	struct pci_dev *d;
	volatile int r = 0;

	*out = NULL;
	*n = 0;
	if (others)
		*others = 0;
	if (mlx_path(ctx, path, sizeof(path), "/sys/bus/pci") < 0)
		return mlx_err(ctx, ENAMETOOLONG, "system root path too long");
	if (!mlx_is_dir(ctx, "/sys/bus/pci/devices"))
		return mlx_err(ctx, ENOENT, "cannot read the PCI bus: %s/devices is missing", path);

	pacc = pci_alloc();
	if (!pacc)
		return -ENOMEM;
	pacc->method = PCI_ACCESS_SYS_BUS_PCI;
	pacc->error = pci_error;
	pacc->warning = pci_warning;
	pacc->debug = pci_debug;
	pci_guard.jmp = &jmp;
	pci_guard.ctx = ctx;
	pci_guard.msg[0] = '\0';

	if (setjmp(jmp)) {
		r = mlx_err(ctx, EIO, "cannot scan the PCI bus under %s: %s", path, pci_guard.msg);
		goto out;
	}
	if (pci_set_param(pacc, "sysfs.path", path) < 0) {
		r = mlx_err(ctx, EINVAL, "libpci has no sysfs method");
		goto out;
	}
	pci_init(pacc);
	pci_scan_bus(pacc);

	for (d = pacc->devices; d; d = d->next) {
		struct mlx_pci_raw *raw;

		/* The IDs only: the class comes from the config header
		 * below, one sysfs file fewer per function. */
		pci_fill_info(d, PCI_FILL_IDENT);
		if (d->vendor_id != vendor) {
			if (others)
				(*others)++;
			continue;
		}
		if (cnt == cap) {
			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				r = -ENOMEM;
				goto out;
			}
			v = nv;
		}
		raw = &v[cnt];
		cnt++;
		raw->domain = (unsigned)d->domain;
		raw->bus = d->bus;
		raw->dev = d->dev;
		raw->func = d->func;
		raw->vendor = d->vendor_id;
		raw->device = d->device_id;
		raw->cfg_len = read_config(d, raw->cfg);
		/* Class, subclass and prog-if at 0x09-0x0b of the header (any
		 * user reads the first 64 bytes); libpci's sysfs "class" only
		 * when the header could not be read or reads all ones (a
		 * function that stopped answering). */
		if (raw->cfg_len >= 0x0c && (raw->cfg[0x09] & raw->cfg[0x0a] & raw->cfg[0x0b]) != 0xff) {
			raw->class_code = (uint32_t)raw->cfg[0x0b] << 16 |
					  (uint32_t)raw->cfg[0x0a] << 8 | raw->cfg[0x09];
		} else {
			pci_fill_info(d, PCI_FILL_CLASS);
			raw->class_code = (uint32_t)d->device_class << 8;
		}
	}
out:
	pci_guard.jmp = NULL;
	pci_guard.ctx = NULL;
	pci_cleanup(pacc);
	if (r < 0) {
		free(v);
		return r;
	}
	*out = v;
	*n = cnt;
	return 0;
}
