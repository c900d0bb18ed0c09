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
 * The syscalls a function costs are at most what lspci pays for the same
 * file: live, open, one read (4 bytes: the IDs; 4 KiB for a function of
 * ours, 256 bytes and a fstat for a placed VF, on the same descriptor);
 * captured, open and one read (a placed VF's a fstat more, which gives
 * the file's size); the close joins the function's one close_range
 * (mlx_batch_end).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
static size_t read_config(struct mlx_ctx *ctx, int fd, uint8_t *buf, size_t have)
{
	static const size_t sizes[] = { 4096, 256, 64 };
	size_t n = have;

	while (n < 4096) {
		ssize_t r = mlx_attr_pread(ctx, fd, buf + n, 4096 - n, (off_t)n, "config");

		if (r <= 0)
			break;
		n += (size_t)r;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (n >= sizes[i])
			return sizes[i];
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* By hand: every function's name is parsed, some several times. */
int mlx_pci_parse_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
	static const char sep[3] = { ':', ':', '.' };
	uint32_t v[3];

	for (int i = 0; i < 3; i++) {
		int n = 0, h;

		v[i] = 0;
		while ((h = hexval(*s)) >= 0) {
			if (++n > 8)
				return -EINVAL;
			v[i] = v[i] << 4 | (uint32_t)h;
			s++;
		}
		if (!n || *s++ != sep[i])
			return -EINVAL;
	}
	if (s[0] < '0' || s[0] > '7' || s[1] || v[1] > 0xff || v[2] > 0x1f)
		return -EINVAL;
	*dom = v[0];
	*bus = v[1];
	*dev = v[2];
	*fn = (unsigned)(s[0] - '0');
	return 0;
}

static int cmp_fn(const void *a, const void *b)
{
	uint64_t x = ((const struct mlx_pci_fn *)a)->key, y = ((const struct mlx_pci_fn *)b)->key;

	return x < y ? -1 : x > y;
}

/*
 * Where a PF's SR-IOV capability puts its VFs.  A VF's header reads FFFFh
 * for its vendor and device IDs (SR-IOV 3.4.1); the kernel gives it its
 * PF's vendor and the VF Device ID of the PF's SR-IOV capability, at the
 * routing ID First VF Offset + k * VF Stride past the PF's
 * (pci_iov_virtfn_bus/devfn).  Known from the PF's config space, which we
 * read anyway, that spares the two sysfs files per VF a scan would open.
 */
struct vf_place {
	uint64_t key;                 /* as mlx_pci_fn.key */
	uint16_t vendor, device;
	unsigned pf_bus, pf_dev, pf_func;
	int index;
};

struct mlx_vf_places {
	struct vf_place *v;
	size_t n, cap;
	bool sorted;
};

static int cmp_place(const void *a, const void *b)
{
	uint64_t x = ((const struct vf_place *)a)->key, y = ((const struct vf_place *)b)->key;

	return x < y ? -1 : x > y;
}

static int add_places(struct mlx_vf_places *pl, const struct mlx_pci_raw *pf)
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
		pl->v[pl->n++] = (struct vf_place){ (uint64_t)pf->domain << 16 | rid, pf->vendor,
						    c->sriov.vf_device, pf->bus, pf->dev, pf->func,
						    (int)k };
		pl->sorted = false;
	}
	return 0;
}

static const struct vf_place *find_place(struct mlx_vf_places *pl, uint64_t key)
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

int mlx_pci_bus_list(struct mlx_ctx *ctx, struct mlx_pci_bus *b)
{
	char path[PATH_MAX];
	size_t nnames = 0;
	int r;

	memset(b, 0, sizeof(*b));
	if (!mlx_is_dir(ctx, "/sys/bus/pci/devices")) {
		mlx_path(ctx, path, sizeof(path), "/sys/bus/pci");
		return mlx_err(ctx, ENOENT, "cannot read the PCI bus: %s/devices is missing", path);
	}
	r = mlx_list_dir(ctx, "/sys/bus/pci/devices", &b->names, &nnames);
	if (r < 0) {
		mlx_path(ctx, path, sizeof(path), "/sys/bus/pci/devices");
		return mlx_err(ctx, -r, "cannot list %s: %s", path, strerror(-r));
	}
	b->fn = calloc(nnames + 1, sizeof(*b->fn));
	b->places = calloc(1, sizeof(*b->places));
	b->buf = malloc(4097);      /* a captured config file and a byte past it */
	if (!b->fn || !b->places || !b->buf) {
		mlx_pci_bus_free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nnames; i++) {
		struct mlx_pci_fn *f = &b->fn[b->n];

		if (mlx_pci_parse_bdf(b->names[i], &f->domain, &f->bus, &f->dev, &f->func) < 0) {
			mlx_log(ctx, MLX_LOG_DEBUG, "sys/bus/pci/devices/%s: not a PCI function, skipped",
				b->names[i]);
			continue;
		}
		f->key = (uint64_t)f->domain << 16 | f->bus << 8 | f->dev << 3 | f->func;
		f->name = b->names[i];
		b->n++;
	}
	/* In address order, so that a PF comes before its VFs (First VF
	 * Offset is never 0). */
	if (b->n)
		qsort(b->fn, b->n, sizeof(*b->fn), cmp_fn);
	return 0;
}

void mlx_pci_bus_free(struct mlx_pci_bus *b)
{
	mlx_strv_free(b->names);
	free(b->fn);
	if (b->places)
		free(b->places->v);
	free(b->places);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

ssize_t mlx_pci_bus_find(const struct mlx_pci_bus *b, const char *bdf)
{
	struct mlx_pci_fn k, *f;

	if (!b->n || mlx_pci_parse_bdf(bdf, &k.domain, &k.bus, &k.dev, &k.func) < 0)
		return -1;
	k.key = (uint64_t)k.domain << 16 | k.bus << 8 | k.dev << 3 | k.func;
	f = bsearch(&k, b->fn, b->n, sizeof(*b->fn), cmp_fn);
	return f ? f - b->fn : -1;
}

/*
 * A placed VF's standard config space only (256 bytes: header, PCIe
 * capability), its length from the file's size: a 4 KiB file root can
 * read is read whole by root.  A VF's extended capabilities (AER, ARI...)
 * are for `pci`; copying 4 KiB of every VF out of the kernel was the
 * largest single cost of `devices` after path lookups.  0 when the short
 * read says nothing (the caller reads the whole).
 */
static size_t read_std_config(struct mlx_ctx *ctx, int fd, uint8_t *buf, size_t *decode_len)
{
	struct stat st;
	size_t n = 0;

	while (n < 256) {
		ssize_t r = mlx_attr_pread(ctx, fd, buf + n, 256 - n, (off_t)n, "config");

		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (n < 256 || fstat(fd, &st) < 0 || st.st_size < 4096)
		return 0;
	*decode_len = 256;
	return 4096;
}

int mlx_pci_bus_read(struct mlx_ctx *ctx, struct mlx_pci_bus *b, size_t i, uint16_t vendor,
		     bool vf_std_only, struct mlx_pci_raw *raw)
{
	const struct mlx_pci_fn *f = &b->fn[i];
	const struct vf_place *pl = find_place(b->places, f->key);
	uint8_t *buf = b->buf;
	char path[PATH_MAX];
	size_t have = 0, decode_len = 0;
	bool copy = mlx_root_is_copy(ctx);
	off_t size = -1;
	int fd = -1;

	memset(raw, 0, sizeof(*raw));
	raw->domain = f->domain;
	raw->bus = f->bus;
	raw->dev = f->dev;
	raw->func = f->func;
	raw->vf_index = -1;
	/* by hand, not printf: every function of the bus comes here */
	memcpy(path, "/sys/bus/pci/devices/", sizeof("/sys/bus/pci/devices/"));
	strncat(path, f->name, sizeof(path) - sizeof("/sys/bus/pci/devices/"));
	raw->dir = mlx_chdir(ctx, path) == 0;
	if (raw->dir)
		fd = mlx_open_attr(ctx, "config");
	/* A captured config file is a copy (no device access a dword): read
	 * at once, with one byte more than is needed, whose absence says the
	 * file ended (mlx_attr_pread: a short read of a captured file is a
	 * regular file's end, no fstat).  A placed VF wants 256 bytes and the
	 * file's size, which the one fstat of a full read gives (copying its
	 * 4 KiB from cold memory cost more than that syscall); anything else
	 * all of it.  Live, the IDs first (a function of another vendor is
	 * not read further), a placed VF's 256 bytes (read_std_config). */
	if (fd >= 0 && copy) {
		size_t upto = pl && vf_std_only ? 257 : 4097;

		while (have < upto) {
			size_t want = upto - have;
			ssize_t r = mlx_attr_pread_size(ctx, fd, buf + have, want, (off_t)have,
							"config", &size);

			if (r <= 0)
				break;
			have += (size_t)r;
			if ((size_t)r < want)
				break;          /* a regular file's end (mlx_attr_pread) */
		}
	}
	if (pl) {
		raw->vendor = pl->vendor;
		raw->device = pl->device;
		raw->vf_index = pl->index;
		raw->pf_bus = pl->pf_bus;
		raw->pf_dev = pl->pf_dev;
		raw->pf_func = pl->pf_func;
	} else {
		uint64_t ven = 0, dev = 0;
		ssize_t got = (ssize_t)have;

		/* The IDs from the header's first dword; a VF no PF placed,
		 * or a header that cannot be read or reads all ones (a
		 * function that stopped answering), from the sysfs vendor
		 * and device files. */
		if (fd >= 0 && !copy)
			got = mlx_attr_pread(ctx, fd, buf, 4, 0, "config");
		if (got >= 4 && (buf[0] & buf[1]) != 0xff) {
			raw->vendor = (uint16_t)(buf[0] | buf[1] << 8);
			raw->device = (uint16_t)(buf[2] | buf[3] << 8);
			if (!copy)
				have = 4;
		} else if (raw->dir && mlx_read_u64(ctx, "vendor", &ven) == 0 &&
			   mlx_read_u64(ctx, "device", &dev) == 0) {
			raw->vendor = (uint16_t)ven;
			raw->device = (uint16_t)dev;
		} else {
			/* neither header nor IDs: nothing to know it by */
			mlx_log(ctx, MLX_LOG_DEBUG, "%s: no readable IDs, skipped", f->name);
			raw->vendor = 0xffff;
		}
		if (raw->vendor != vendor) {
			mlx_fd_done(ctx, fd);
			mlx_chdir(ctx, NULL);
			mlx_err_clear(ctx);
			raw->dir = false;
			return 0;
		}
	}
	raw->cfg_len = 0;
	if (fd >= 0 && pl && vf_std_only) {
		if (!copy)
			raw->cfg_len = read_std_config(ctx, fd, buf, &decode_len);
		else if (have >= 256 && size >= 4096)
			raw->cfg_len = 4096, decode_len = 256;
	}
	if (fd >= 0 && !raw->cfg_len) {
		raw->cfg_len = read_config(ctx, fd, buf, have);
		decode_len = raw->cfg_len;
	}
	mlx_fd_done(ctx, fd);
	raw->cfg_decoded = raw->cfg_len >= 64 &&
			   mlx_pci_config_decode(buf, decode_len, &raw->cfg) == 0;
	/* Class, subclass and prog-if at 0x09-0x0b of the header (any user
	 * reads the first 64 bytes); the sysfs "class" file only when the
	 * header could not be read or reads all ones. */
	if (raw->cfg_len >= 0x0c && (buf[0x09] & buf[0x0a] & buf[0x0b]) != 0xff) {
		raw->class_code = (uint32_t)buf[0x0b] << 16 | (uint32_t)buf[0x0a] << 8 | buf[0x09];
	} else {
		uint64_t cls = 0;

		/* class and subclass: libpci kept no prog-if from the file */
		if (raw->dir && mlx_read_u64(ctx, "class", &cls) == 0)
			raw->class_code = (uint32_t)cls & 0xffff00;
	}
	mlx_err_clear(ctx);     /* a function's missing file is no error of the scan */
	if (!pl && add_places(b->places, raw) < 0)
		return -ENOMEM;
	return 1;
}
