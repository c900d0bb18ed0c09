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
#include "pcicfg.h"

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

/* Functions in address order within a domain: bus, then devfn. */
static uint32_t raw_rid(const struct mlx_pci_raw *r)
{
	return (uint32_t)r->domain << 16 | r->bus << 8 | r->dev << 3 | r->func;
}

static int cmp_pending(const void *a, const void *b, void *arg)
{
	const struct mlx_pci_raw *v = arg;
	uint32_t x = raw_rid(&v[*(const size_t *)a]), y = raw_rid(&v[*(const size_t *)b]);

	return x < y ? -1 : x > y;
}

/*
 * A VF's header reads FFFFh for its vendor and device IDs (SR-IOV 3.4.1);
 * the kernel gives it its PF's vendor and the VF Device ID of the PF's
 * SR-IOV capability, at the routing ID First VF Offset + k * VF Stride
 * past the PF's (pci_iov_virtfn_bus/devfn).  Reading that from the PF's
 * config space we already hold saves the two sysfs files per VF that
 * libpci would open; a function no PF accounts for is asked as before.
 * pending[] holds the indices of the FFFFh functions, sorted by address.
 */
static void derive_vfs(struct mlx_pci_raw *v, size_t cnt, size_t *pending, size_t npend)
{
	struct mlx_pci_config *cfg = malloc(sizeof(*cfg));

	if (!cfg || !npend)
		goto out;
	qsort_r(pending, npend, sizeof(*pending), cmp_pending, v);
	for (size_t i = 0; i < cnt; i++) {
		const struct mlx_pci_raw *pf = &v[i];
		uint32_t first;

		if (pf->vf_index >= 0 || pf->vendor == 0xffff || pf->cfg_len < 0x200 ||
		    mlx_pci_config_decode(pf->cfg, pf->cfg_len, cfg) < 0 || !cfg->sriov.present ||
		    !cfg->sriov.num_vfs || !cfg->sriov.vf_device || cfg->sriov.vf_device == 0xffff)
			continue;
		first = (uint32_t)pf->bus << 8 | pf->dev << 3 | pf->func;
		for (unsigned k = 0; k < cfg->sriov.num_vfs; k++) {
			uint32_t rid = first + cfg->sriov.vf_offset + k * cfg->sriov.vf_stride;
			size_t lo = 0, hi = npend;

			if (rid > 0xffff)
				break;
			rid |= (uint32_t)pf->domain << 16;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				uint32_t m = raw_rid(&v[pending[mid]]);

				if (m == rid) {
					struct mlx_pci_raw *vf = &v[pending[mid]];

					if (vf->vf_index < 0) {
						vf->vendor = pf->vendor;
						vf->device = cfg->sriov.vf_device;
						vf->vf_index = (int)k;
						vf->pf_bus = pf->bus;
						vf->pf_dev = pf->dev;
						vf->pf_func = pf->func;
					}
					break;
				}
				if (m < rid)
					lo = mid + 1;
				else
					hi = mid;
			}
		}
	}
out:
	free(cfg);
}

int mlx_pci_scan(struct mlx_ctx *ctx, uint16_t vendor, struct mlx_pci_raw **out,
		 size_t *n, unsigned *others)
{
	/* volatile: these change between setjmp() and a possible longjmp(). */
	struct mlx_pci_raw *volatile v = NULL;
	struct pci_dev **volatile devs = NULL;
	size_t *volatile pending = NULL;
	struct mlx_pci_raw *nv;
	struct pci_dev **nd;
	struct pci_access *pacc;
	char path[PATH_MAX];
	jmp_buf jmp;
	volatile size_t cnt = 0, cap = 0, npend = 0, kept = 0;
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

	/*
	 * The config header first: its vendor and device IDs spare libpci
	 * the sysfs vendor and device files (one file per function where
	 * lspci reads three).  Those files only for a function whose header
	 * reads FFFFh or could not be read, and no PF's SR-IOV capability
	 * names it (derive_vfs).
	 */
	for (d = pacc->devices; d; d = d->next) {
		struct mlx_pci_raw *raw;

		if (cnt == cap) {
			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				r = -ENOMEM;
				goto out;
			}
			v = nv;
			nd = realloc(devs, cap * sizeof(*devs));
			if (!nd) {
				r = -ENOMEM;
				goto out;
			}
			devs = nd;
		}
		raw = &v[cnt];
		raw->domain = (unsigned)d->domain;
		raw->bus = d->bus;
		raw->dev = d->dev;
		raw->func = d->func;
		raw->vf_index = -1;
		raw->cfg_len = read_config(d, raw->cfg);
		raw->vendor = raw->cfg_len >= 4 ? (uint16_t)(raw->cfg[0] | raw->cfg[1] << 8) : 0xffff;
		raw->device = raw->cfg_len >= 4 ? (uint16_t)(raw->cfg[2] | raw->cfg[3] << 8) : 0xffff;
		if (raw->vendor != 0xffff && raw->vendor != vendor) {
			if (others)
				(*others)++;
			continue;
		}
		devs[cnt] = d;
		cnt++;
	}
	if (cnt) {
		pending = malloc(cnt * sizeof(*pending));
		if (!pending) {
			r = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; i < cnt; i++)
		if (v[i].vendor == 0xffff)
			pending[npend++] = i;
	derive_vfs(v, cnt, pending, npend);

	for (size_t i = 0; i < cnt; i++) {
		struct mlx_pci_raw *raw = &v[i];

		d = devs[i];
		if (raw->vendor == 0xffff) {
			pci_fill_info(d, PCI_FILL_IDENT);
			raw->vendor = d->vendor_id;
			raw->device = d->device_id;
			if (raw->vendor != vendor) {
				if (others)
					(*others)++;
				continue;
			}
		}
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
		if (kept != i)
			memcpy(&v[kept], raw, sizeof(*raw));
		kept++;
	}
out:
	pci_guard.jmp = NULL;
	pci_guard.ctx = NULL;
	pci_cleanup(pacc);
	free(devs);
	free(pending);
	if (r < 0) {
		free(v);
		return r;
	}
	*out = v;
	*n = kept;
	return 0;
}
