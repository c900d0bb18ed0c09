/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Config-space access to one live PCI function through libpci, for the
 * CR-space gateway (vsec.h).  Reads and writes go through
 * pci_read_block()/pci_write_block() rather than pci_read_long(): the
 * block calls return the method's status, where pci_read_long() turns a
 * failed read into 0xffffffff that the gateway would take for data.
 *
 * Root only: the kernel lets other users read the first 64 bytes of
 * config space and write none of it.  The live kernel boundary's
 * (struct mlx_kops.cfg_open): a captured system has no CR space behind
 * its config file, and says so itself (lib/core/boundary-captured.c).
 *
 * libpci's error callback must not return (see pci.c); this file keeps
 * its own thread-local jump buffer for the two calls that may raise it.
 */
#include "config.h"

#include <errno.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx-private.h"
#include "vsec.h"

struct mlx_cfgio {
	struct pci_access *pacc;
	struct pci_dev *dev;
};

static __thread struct {
	jmp_buf *jmp;
	char msg[256];
} cfgio_guard;

static void __attribute__((noreturn)) cfgio_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(cfgio_guard.msg, sizeof(cfgio_guard.msg), msg, ap);
	va_end(ap);
	longjmp(*cfgio_guard.jmp, 1);
}

static void cfgio_quiet(char *msg, ...)
{
	(void)msg;
}

int mlx_cfgio_open(struct mlx_ctx *ctx, unsigned domain, unsigned bus, unsigned dev,
		   unsigned func, struct mlx_cfgio **out)
{
	struct mlx_cfgio *volatile io = NULL;
	char cfg[128];
	jmp_buf jmp;
	volatile int r = 0;

	*out = NULL;
	if (geteuid() != 0)
		return mlx_err(ctx, EACCES,
			       "reading the CR space of %04x:%02x:%02x.%x needs root (config-space writes)",
			       domain, bus, dev, func);
	snprintf(cfg, sizeof(cfg), "/sys/bus/pci/devices/%04x:%02x:%02x.%x/config", domain, bus, dev, func);
	if (access(cfg, R_OK | W_OK) < 0)
		return mlx_err(ctx, errno == ENOENT ? ENODEV : errno, "cannot open %s: %s", cfg,
			       strerror(errno));
	io = calloc(1, sizeof(*io));
	if (!io)
		return -ENOMEM;
	io->pacc = pci_alloc();
	if (!io->pacc) {
		free(io);
		return -ENOMEM;
	}
	io->pacc->method = PCI_ACCESS_SYS_BUS_PCI;
	io->pacc->error = cfgio_error;
	io->pacc->warning = cfgio_quiet;
	io->pacc->debug = cfgio_quiet;
	cfgio_guard.jmp = &jmp;
	if (setjmp(jmp)) {
		r = mlx_err(ctx, EIO, "libpci: %s", cfgio_guard.msg);
		goto out;
	}
	pci_init(io->pacc);
	io->dev = pci_get_dev(io->pacc, (int)domain, (int)bus, (int)dev, (int)func);
	if (!io->dev)
		r = mlx_err(ctx, ENODEV, "no PCI function %04x:%02x:%02x.%x", domain, bus, dev, func);
out:
	cfgio_guard.jmp = NULL;
	if (r < 0) {
		mlx_cfgio_close(io);
		return r;
	}
	*out = io;
	return 0;
}

void mlx_cfgio_close(struct mlx_cfgio *io)
{
	if (!io)
		return;
	if (io->dev)
		pci_free_dev(io->dev);
	if (io->pacc)
		pci_cleanup(io->pacc);
	free(io);
}

/* Config space is little-endian (PCI Local Bus Specification). */
static int cfgio_read32(void *h, uint16_t off, uint32_t *v)
{
	struct mlx_cfgio *io = h;
	uint8_t b[4];

	if (!pci_read_block(io->dev, off, b, 4))
		return -EIO;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return 0;
}

static int cfgio_write32(void *h, uint16_t off, uint32_t v)
{
	struct mlx_cfgio *io = h;
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	return pci_write_block(io->dev, off, b, 4) ? 0 : -EIO;
}

const struct mlx_cfg_ops mlx_cfgio_ops = { cfgio_read32, cfgio_write32 };
