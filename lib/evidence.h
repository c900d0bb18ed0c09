/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw evidence a dump-me-now incident keeps besides what the read
 * commands render: a function's config space, its AER counter files, the
 * kernel log lines that name it.  Read through the root-prefixed file
 * access, so an incident taken of a captured system reads the capture.
 * Each returns 0 (or a byte count) or -errno with the story in the context.
 */
#ifndef MLX_EVIDENCE_H
#define MLX_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct mlx_ctx;
struct mlx_function;

/* The config space as the kernel shows it (sysfs "config": 64 bytes
 * unprivileged, all of it as root); the bytes read. */
ssize_t mlx_evidence_pci_config(struct mlx_ctx *ctx, const struct mlx_function *fn, uint8_t *buf,
				size_t len);

/* The AER counter files of a function, in this order; -ENOENT when the
 * kernel has none (no AER capability, or CONFIG_PCIEAER off). */
#define MLX_EVIDENCE_NAER 3
extern const char *const mlx_evidence_aer_names[MLX_EVIDENCE_NAER];
int mlx_evidence_aer(struct mlx_ctx *ctx, const struct mlx_function *fn, unsigned which, char **text,
		     size_t *len);

/*
 * The kernel log lines that name @fn (its PCI address, netdevs, RDMA
 * devices), after a "# source: ..." line: /dev/kmsg where the system has
 * one, else its syslog copy /var/log/kern.log (Debian, Ubuntu).  *text
 * malloc'ed.  -errno when neither can be read (the story says why).
 */
int mlx_evidence_kernel_log(struct mlx_ctx *ctx, const struct mlx_function *fn, char **text,
			    size_t *len);
/* The same of the log text @log (@source says where it was read), which
 * the caller has: the records a monitor read from a stream that cannot be
 * read twice (a FIFO).  Pure. */
int mlx_evidence_kernel_log_of(const struct mlx_function *fn, const char *log, size_t llen,
			       const char *source, char **text, size_t *len);

#endif
