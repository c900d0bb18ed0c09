/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PCI scan: every function under ROOT/sys/bus/pci/devices, its IDs,
 * class and config space.  Each file is opened through the root-prefixed
 * access (mlx_open: openat2 RESOLVE_IN_ROOT under a sysroot), so a
 * captured system's links resolve inside it, as mlxcli(8) promises; the
 * bytes are decoded by mlx_pci_config_decode(), the fuzzed decoder.
 *
 * libpci's sysfs method did this until issue 29: it opened
 * ".../devices/<BDF>/config" and the vendor, device and class files
 * itself, following a capture's absolute or "../" links to files outside
 * it (a capture could show any file's device).  What libpci read is what
 * a config file holds, which needs no library; libpci stays for live
 * config-space writes (pci-cfgio.c, the CR-space gateway), which never
 * run under a sysroot.
 *
 * The syscalls a function costs are what lspci pays for the same file:
 * open, one read (4 bytes: the IDs; 4 KiB for a function of ours, on the
 * same descriptor) and close.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx-private.h"
#include "pcicfg.h"

/*
 * Read as much config space as we are allowed to, from @off on: root
 * reads 4 KiB of a PCIe function (256 bytes of a conventional one), any
 * other user the first 64 bytes (the kernel's pci_read_config() stops
 * there).  The length is counted in the sizes a config space has, 4096,
 * 256 or 64 (a capture's file of another length counts as the next size
 * down), as libpci's block reads of those sizes did.
 */
static size_t read_config(int fd, uint8_t *buf, size_t have)
{
	static const size_t sizes[] = { 4096, 256, 64 };
	size_t n = have;

	while (n < 4096) {
		ssize_t r = pread(fd, buf + n, 4096 - n, (off_t)n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (n >= sizes[i])
			return sizes[i];
	return 0;
}

/* "DDDD:BB:DD.F" (sysfs names a function so; the domain may be wider):
 * 0, or -EINVAL for a name that is no function (skipped). */
static int parse_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
	unsigned long v[3];
	char *end;

	for (int i = 0; i < 3; i++) {
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
			return -EINVAL;
		v[i] = strtoul(s, &end, 16);
		if (*end != (i < 2 ? ':' : '.') || end - s > 8)
			return -EINVAL;
		s = end + 1;
	}
	if (s[0] < '0' || s[0] > '7' || s[1] || v[1] > 0xff || v[2] > 0x1f)
		return -EINVAL;
	*dom = (unsigned)v[0];
	*bus = (unsigned)v[1];
	*dev = (unsigned)v[2];
	*fn = (unsigned)(s[0] - '0');
	return 0;
}

/* A sysfs attribute of the function as a number ("0x15b3\n"): the IDs
 * and class when the header cannot be read. */
static int read_attr(struct mlx_ctx *ctx, const char *name, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", name, attr) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return mlx_read_u64(ctx, path, v);
}

/* A function's place: domain, bus, device, function, in address order;
 * @name is its entry in sys/bus/pci/devices. */
struct fn_entry {
	uint64_t key;
	unsigned domain, bus, dev, func;
	const char *name;
};

static int cmp_entry(const void *a, const void *b)
{
	uint64_t x = ((const struct fn_entry *)a)->key, y = ((const struct fn_entry *)b)->key;

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
	struct mlx_pci_raw *v = NULL, *nv;
	struct vf_places places = { 0 };
	struct fn_entry *fe = NULL;
	char **names = NULL, path[PATH_MAX];
	uint8_t *buf = NULL;
	size_t cnt = 0, cap = 0, nnames = 0, nfe = 0;
	int r = 0;

	*out = NULL;
	*n = 0;
	if (others)
		*others = 0;
	if (!mlx_is_dir(ctx, "/sys/bus/pci/devices")) {
		mlx_path(ctx, path, sizeof(path), "/sys/bus/pci");
		return mlx_err(ctx, ENOENT, "cannot read the PCI bus: %s/devices is missing", path);
	}
	r = mlx_list_dir(ctx, "/sys/bus/pci/devices", &names, &nnames);
	if (r < 0) {
		mlx_path(ctx, path, sizeof(path), "/sys/bus/pci/devices");
		return mlx_err(ctx, -r, "cannot list %s: %s", path, strerror(-r));
	}
	fe = calloc(nnames + 1, sizeof(*fe));
	buf = malloc(4096);
	if (!fe || !buf) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nnames; i++) {
		struct fn_entry *e = &fe[nfe];

		if (parse_bdf(names[i], &e->domain, &e->bus, &e->dev, &e->func) < 0) {
			mlx_log(ctx, MLX_LOG_DEBUG, "sys/bus/pci/devices/%s: not a PCI function, skipped",
				names[i]);
			continue;
		}
		e->key = (uint64_t)e->domain << 16 | e->bus << 8 | e->dev << 3 | e->func;
		e->name = names[i];
		nfe++;
	}
	/* In address order, so that a PF comes before its VFs (First VF
	 * Offset is never 0). */
	if (nfe)
		qsort(fe, nfe, sizeof(*fe), cmp_entry);

	for (size_t i = 0; i < nfe; i++) {
		const struct vf_place *pl;
		struct mlx_pci_raw *raw;
		size_t have = 0;
		int fd;

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
		memset(raw, 0, sizeof(*raw));
		raw->domain = fe[i].domain;
		raw->bus = fe[i].bus;
		raw->dev = fe[i].dev;
		raw->func = fe[i].func;
		raw->vf_index = -1;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", fe[i].name);
		fd = mlx_open(ctx, path, O_RDONLY, 0);
		pl = find_place(&places, fe[i].key);
		if (pl) {
			raw->vendor = v[pl->pf].vendor;
			raw->device = pl->device;
			raw->vf_index = pl->index;
			raw->pf_bus = v[pl->pf].bus;
			raw->pf_dev = v[pl->pf].dev;
			raw->pf_func = v[pl->pf].func;
		} else {
			uint64_t ven = 0, dev = 0;
			ssize_t got = 0;

			/* The IDs from the header's first dword; a VF no PF
			 * placed, or a header that cannot be read or reads
			 * all ones (a function that stopped answering), from
			 * the sysfs vendor and device files. */
			if (fd >= 0) {
				do
					got = pread(fd, buf, 4, 0);
				while (got < 0 && errno == EINTR);
			}
			if (got == 4 && (buf[0] & buf[1]) != 0xff) {
				raw->vendor = (uint16_t)(buf[0] | buf[1] << 8);
				raw->device = (uint16_t)(buf[2] | buf[3] << 8);
				have = 4;
			} else if (read_attr(ctx, fe[i].name, "vendor", &ven) == 0 &&
				   read_attr(ctx, fe[i].name, "device", &dev) == 0) {
				raw->vendor = (uint16_t)ven;
				raw->device = (uint16_t)dev;
			} else {
				/* neither header nor IDs: nothing to know it by */
				mlx_log(ctx, MLX_LOG_DEBUG, "%s: no readable IDs, skipped", fe[i].name);
				if (fd >= 0)
					close(fd);
				if (others)
					(*others)++;
				continue;
			}
			if (raw->vendor != vendor) {
				if (fd >= 0)
					close(fd);
				if (others)
					(*others)++;
				continue;
			}
		}
		raw->cfg_len = fd >= 0 ? read_config(fd, buf, have) : 0;
		if (fd >= 0)
			close(fd);
		raw->cfg_decoded = raw->cfg_len >= 64 &&
				   mlx_pci_config_decode(buf, raw->cfg_len, &raw->cfg) == 0;
		/* Class, subclass and prog-if at 0x09-0x0b of the header (any
		 * user reads the first 64 bytes); the sysfs "class" file only
		 * when the header could not be read or reads all ones. */
		if (raw->cfg_len >= 0x0c && (buf[0x09] & buf[0x0a] & buf[0x0b]) != 0xff) {
			raw->class_code = (uint32_t)buf[0x0b] << 16 | (uint32_t)buf[0x0a] << 8 | buf[0x09];
		} else {
			uint64_t cls = 0;

			/* class and subclass: libpci kept no prog-if from it */
			if (read_attr(ctx, fe[i].name, "class", &cls) == 0)
				raw->class_code = (uint32_t)cls & 0xffff00;
		}
		if (!pl && add_places(&places, raw, cnt) < 0) {
			r = -ENOMEM;
			goto out;
		}
		cnt++;
	}
	mlx_err_clear(ctx);     /* a function's missing file is no error of the scan */
out:
	mlx_strv_free(names);
	free(fe);
	free(buf);
	free(places.v);
	if (r < 0) {
		free(v);
		return r;
	}
	*out = v;
	*n = cnt;
	return 0;
}
