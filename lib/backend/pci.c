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

/* A function's place: domain, bus, device, function, in address order. */
static uint64_t dev_key(const struct pci_dev *d)
{
	return (uint64_t)(unsigned)d->domain << 16 | (unsigned)d->bus << 8 |
	       (unsigned)d->dev << 3 | d->func;
}

static int cmp_dev(const void *a, const void *b)
{
	uint64_t x = dev_key(*(struct pci_dev *const *)a), y = dev_key(*(struct pci_dev *const *)b);

	return x < y ? -1 : x > y;
}

/*
 * Where a PF's SR-IOV capability puts its VFs.  A VF's header reads FFFFh
 * for its vendor and device IDs (SR-IOV 3.4.1); the kernel gives it its
 * PF's vendor and the VF Device ID of the PF's SR-IOV capability, at the
 * routing ID First VF Offset + k * VF Stride past the PF's
 * (pci_iov_virtfn_bus/devfn).  Known from the PF's config space, which we
 * read anyway, that spares the two sysfs files per VF libpci would open.
 */
struct vf_place {
	uint64_t key;                 /* as dev_key() */
	size_t pf;                    /* the PF's index in the scan's result */
	uint16_t device;
	int index;
};

struct vf_places {
	struct vf_place *v;
	size_t n, cap;
	bool sorted;
};

static int cmp_place(const void *a, const void *b)
{
	uint64_t x = ((const struct vf_place *)a)->key, y = ((const struct vf_place *)b)->key;

	return x < y ? -1 : x > y;
}

static int add_places(struct vf_places *pl, const struct mlx_pci_raw *pf, size_t pfi)
{
	const struct mlx_pci_config *c = &pf->cfg;
	uint32_t first;

	if (!pf->cfg_decoded || !c->sriov.present || !c->sriov.num_vfs || !c->sriov.vf_device ||
	    c->sriov.vf_device == 0xffff)
		return 0;
	first = (uint32_t)pf->bus << 8 | pf->dev << 3 | pf->func;
	for (unsigned k = 0; k < c->sriov.num_vfs; k++) {
		uint32_t rid = first + c->sriov.vf_offset + k * c->sriov.vf_stride;

		if (rid > 0xffff || rid <= first)
			break;
		if (pl->n == pl->cap) {
			size_t nc = pl->cap ? pl->cap * 2 : 256;
			struct vf_place *nv = realloc(pl->v, nc * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			pl->v = nv;
			pl->cap = nc;
		}
		pl->v[pl->n++] = (struct vf_place){ (uint64_t)pf->domain << 16 | rid, pfi,
						    c->sriov.vf_device, (int)k };
		pl->sorted = false;
	}
	return 0;
}

static const struct vf_place *find_place(struct vf_places *pl, uint64_t key)
{
	struct vf_place k = { .key = key };

	if (!pl->n)
		return NULL;
	if (!pl->sorted) {
		qsort(pl->v, pl->n, sizeof(*pl->v), cmp_place);
		pl->sorted = true;
	}
	return bsearch(&k, pl->v, pl->n, sizeof(*pl->v), cmp_place);
}

int mlx_pci_scan(struct mlx_ctx *ctx, uint16_t vendor, struct mlx_pci_raw **out,
		 size_t *n, unsigned *others)
{
	/* volatile: these change between setjmp() and a possible longjmp(). */
	struct mlx_pci_raw *volatile v = NULL;
	struct pci_dev **volatile all = NULL;
	/* in memory, not a local the compiler may keep in registers: a
	 * longjmp() from libpci's error handler lands in "out" after the
	 * list grew, and it was lost there (valgrind, hostile-capture.sh) */
	struct vf_places places_mem = { 0 }, *volatile places = &places_mem;
	uint8_t *volatile buf = NULL;
	struct mlx_pci_raw *nv;
	struct pci_access *pacc;
	char path[PATH_MAX];
	jmp_buf jmp;
	volatile size_t cnt = 0, cap = 0, ndev = 0;
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

	buf = malloc(4096);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	/* In address order, so that a PF comes before its VFs (First VF
	 * Offset is never 0). */
	for (d = pacc->devices; d; d = d->next)
		ndev++;
	if (ndev) {
		all = malloc(ndev * sizeof(*all));
		if (!all) {
			r = -ENOMEM;
			goto out;
		}
	}
	ndev = 0;
	for (d = pacc->devices; d; d = d->next)
		all[ndev++] = d;
	if (ndev)
		qsort(all, ndev, sizeof(*all), cmp_dev);

	for (size_t i = 0; i < ndev; i++) {
		const struct vf_place *pl;
		struct mlx_pci_raw *raw;
		uint8_t id[4];

		d = all[i];
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
		raw->domain = (unsigned)d->domain;
		raw->bus = d->bus;
		raw->dev = d->dev;
		raw->func = d->func;
		raw->vf_index = -1;
		pl = find_place(places, dev_key(d));
		if (pl) {
			raw->vendor = v[pl->pf].vendor;
			raw->device = pl->device;
			raw->vf_index = pl->index;
			raw->pf_bus = v[pl->pf].bus;
			raw->pf_dev = v[pl->pf].dev;
			raw->pf_func = v[pl->pf].func;
		} else {
			/* The IDs from the header's first dword (no sysfs
			 * file); a VF no PF placed, or a header that cannot be
			 * read, from libpci's sysfs vendor and device files. */
			if (pci_read_block(d, 0, id, sizeof(id)) && (id[0] & id[1]) != 0xff) {
				raw->vendor = (uint16_t)(id[0] | id[1] << 8);
				raw->device = (uint16_t)(id[2] | id[3] << 8);
			} else {
				pci_fill_info(d, PCI_FILL_IDENT);
				raw->vendor = d->vendor_id;
				raw->device = d->device_id;
			}
			if (raw->vendor != vendor) {
				if (others)
					(*others)++;
				continue;
			}
		}
		raw->cfg_len = read_config(d, buf);
		memset(&raw->cfg, 0, sizeof(raw->cfg));
		raw->cfg_decoded = raw->cfg_len >= 64 &&
				   mlx_pci_config_decode(buf, raw->cfg_len, &raw->cfg) == 0;
		/* Class, subclass and prog-if at 0x09-0x0b of the header (any
		 * user reads the first 64 bytes); libpci's sysfs "class" only
		 * when the header could not be read or reads all ones (a
		 * function that stopped answering). */
		if (raw->cfg_len >= 0x0c && (buf[0x09] & buf[0x0a] & buf[0x0b]) != 0xff) {
			raw->class_code = (uint32_t)buf[0x0b] << 16 | (uint32_t)buf[0x0a] << 8 | buf[0x09];
		} else {
			pci_fill_info(d, PCI_FILL_CLASS);
			raw->class_code = (uint32_t)d->device_class << 8;
		}
		if (!pl && add_places(places, raw, cnt) < 0) {
			r = -ENOMEM;
			goto out;
		}
		cnt++;
	}
out:
	pci_guard.jmp = NULL;
	pci_guard.ctx = NULL;
	pci_cleanup(pacc);
	free(all);
	free(buf);
	free(places->v);
	if (r < 0) {
		free(v);
		return r;
	}
	*out = v;
	*n = cnt;
	return 0;
}
