/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CR-space gateway in the Mellanox vendor-specific PCI capability
 * (standard capability ID 0x09, "VSC"), read-only.
 *
 * Protocol (reference linux-mlx5-interfaces.md §6.1; mstflint
 * mtcr_ul/mtcr_ul_com.c mtcr_pciconf_cap9_sem / _set_addr_space /
 * _wait_on_flag, and the kernel's mlx5/core/lib/pci_vsc.c use the same
 * offsets).  Registers, dword config accesses at the capability offset +:
 *   0x04 CTRL     [15:0] address space, [31:29] status (0: not supported)
 *   0x08 COUNTER  ticket source for the semaphore
 *   0x0c SEMAPHORE 0 free; the holder writes its ticket
 *   0x10 ADDR     [29:0] address, [31] FLAG (read: 1 when DATA is valid)
 *   0x14 DATA
 *
 * The gateway runs over a config-space access ops struct, so the same code
 * drives a real function (lib/backend/pci-cfgio.c, libpci) and the emulator of the
 * unit tests.  Only reads are implemented: some CR addresses upset the
 * firmware when written, and nothing in mlxcli needs to write CR space.
 */
#ifndef MLX_VSEC_H
#define MLX_VSEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlx.h"

/* Config-space access to one PCI function: 0 or -errno. */
struct mlx_cfg_ops {
	int (*read32)(void *h, uint16_t off, uint32_t *v);
	int (*write32)(void *h, uint16_t off, uint32_t v);
};

/* Register offsets from the capability (pci_vsc.c VSC_*_OFFSET). */
#define MLX_VSC_CTRL      0x04
#define MLX_VSC_COUNTER   0x08
#define MLX_VSC_SEMAPHORE 0x0c
#define MLX_VSC_ADDR      0x10
#define MLX_VSC_DATA      0x14

#define MLX_VSC_FLAG         (1u << 31)
#define MLX_VSC_ADDR_MASK    0x3fffffffu
#define MLX_VSC_STATUS_SHIFT 29
#define MLX_VSC_SPACE_MASK   0xffffu

/* Address spaces (mtcr_com_defs.h AS_*). */
enum mlx_vsc_space {
	MLX_VSC_SPACE_ICMD_EXT = 0x1,
	MLX_VSC_SPACE_CR = 0x2,
	MLX_VSC_SPACE_ICMD = 0x3,
	MLX_VSC_SPACE_SEMAPHORE = 0xa,
	MLX_VSC_SPACE_SCAN_CR = 0x7,
};

/* Bounds: mstflint's IFC_MAX_RETRIES is 2048 for both the semaphore and
 * the flag; it sleeps 1 ms per taken semaphore and every 16 flag polls. */
#define MLX_VSC_SEM_RETRIES 2048
#define MLX_VSC_FLAG_POLLS  2048
/* Dwords read under one semaphore hold before letting others in. */
#define MLX_VSC_CHUNK       1024

/* Config accesses the protocol cannot do with fewer (see vsec.c):
 * per dword: write ADDR, read ADDR (flag already set), read DATA;
 * per hold: read SEM, read COUNTER, write SEM, read SEM back, read CTRL,
 * write CTRL, read CTRL back, write SEM 0. */
#define MLX_VSC_MIN_PER_DWORD 3
#define MLX_VSC_MIN_PER_HOLD  8

struct mlx_vsec_stats {
	uint64_t reads, writes;       /* config accesses */
	uint64_t dwords;              /* CR dwords read */
	uint64_t holds;               /* semaphore acquisitions */
	uint64_t sem_busy;            /* times the semaphore was taken */
	uint64_t extra_polls;         /* ADDR polls beyond the first */
};

struct mlx_vsec {
	const struct mlx_cfg_ops *ops;
	void *h;
	uint16_t cap;                 /* offset of the capability */
	/* Tunables (mlx_vsec_init sets the defaults above). */
	unsigned sem_retries, flag_polls, chunk;
	unsigned sem_sleep_us;        /* between semaphore retries; 0 = none */
	unsigned flag_sleep_us;       /* every 16 flag polls; 0 = none */
	struct mlx_vsec_stats st;
	/* What went wrong, for the caller's message. */
	char err[160];
};

void mlx_vsec_init(struct mlx_vsec *g, const struct mlx_cfg_ops *ops, void *h, uint16_t cap);

/*
 * Read @n dwords from @addr of @space into @out, taking and releasing the
 * semaphore (at most g->chunk dwords per hold).  0, or:
 *   -EBUSY       the semaphore is held by another owner (bounded wait)
 *   -ETIMEDOUT   the read flag never came (bounded polls)
 *   -EOPNOTSUPP  the space is not supported by this function
 *   -EIO         a config access failed midway
 *   -EINVAL      an address with bits 31:30 set
 * The semaphore is released on every path; g->err says what happened.
 */
int mlx_vsec_read(struct mlx_vsec *g, uint16_t space, uint32_t addr, uint32_t *out, size_t n);

/* ---- mstdump block lists -------------------------------------------------
 * mstflint mstdump/mstdump_dbs/<Device>.csv: a "#Addr, Size, Enable addr"
 * header, then "0x010100,10," lines (size in dwords).
 */
struct mlx_cr_range {
	uint32_t addr;
	uint32_t dwords;
};

/*
 * Parse a block list.  Pure.  Comments (#...) and blank lines are
 * skipped; a line is "ADDR,SIZE[,ENABLE]" with ADDR hex (0x optional) and
 * SIZE decimal > 0; the address must be dword aligned and the block must
 * stay below 2^30 (the gateway's address field).  On -EINVAL *bad_line is
 * the 1-based line and @err the reason.  *out is malloc'ed (free()).
 */
int mlx_cr_ranges_parse(const char *text, size_t len, struct mlx_cr_range **out, size_t *n,
			size_t *bad_line, char *err, size_t errlen);

/* The block list embedded for a PCI device ID (lib/debug/mstdump-ranges.c,
 * generated from mstflint's lists); NULL when we have none. */
struct mlx_cr_ranges_db {
	const char *name;             /* "ConnectX5" */
	const uint16_t *pci_ids;      /* 0-terminated */
	const struct mlx_cr_range *r;
	size_t n;
};
const struct mlx_cr_ranges_db *mlx_cr_ranges_for(uint16_t pci_device);
const struct mlx_cr_ranges_db *mlx_cr_ranges_table(size_t *n);

/* ---- the live function -------------------------------------------------- */

/* The config-space access of one function that mlx_kernel_cfg_open
 * (mlx-private.h) opens and mlx_cfgio_close closes: the gateway runs on
 * it with these operations. */
extern const struct mlx_cfg_ops mlx_cfgio_ops;

/*
 * A CR-space dump of a PF through its gateway.  Open first: every reason
 * the dump cannot be taken (a VF, a captured system, not root, no
 * vendor-specific capability or not the functional gateway: -EOPNOTSUPP,
 * -EACCES, ...; mlx_errmsg says which) comes before anything is read, so
 * a caller can refuse before it makes its output.  Then the blocks
 * r[0..n) of the CR space (AS 0x2), @emit called per dword in list order
 * (mstdump's order); errors as mlx_vsec_read's.  *st (may be NULL)
 * receives the counts.  mlx_crdump is the three in one.
 */
typedef int (*mlx_crdump_emit)(void *arg, uint32_t addr, uint32_t val);
struct mlx_function;
struct mlx_crdump;
int mlx_crdump_open(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_crdump **out);
int mlx_crdump_read(struct mlx_crdump *d, const struct mlx_cr_range *r, size_t n,
		    mlx_crdump_emit emit, void *arg, struct mlx_vsec_stats *st);
void mlx_crdump_close(struct mlx_crdump *d);
int mlx_crdump(struct mlx_ctx *ctx, const struct mlx_function *fn, const struct mlx_cr_range *r,
	       size_t n, mlx_crdump_emit emit, void *arg, struct mlx_vsec_stats *st);

#endif /* MLX_VSEC_H */
