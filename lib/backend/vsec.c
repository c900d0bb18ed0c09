/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CR-space gateway (see vsec.h for the registers and the sources).
 *
 * Every hold of the semaphore goes through one function with a single
 * exit that releases it, so no error path can leave the device locked for
 * the firmware tools and the driver (the kernel's crdump takes the same
 * semaphore, pci_vsc.c mlx5_vsc_gw_lock()).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vsec.h"

void mlx_vsec_init(struct mlx_vsec *g, const struct mlx_cfg_ops *ops, void *h, uint16_t cap)
{
	memset(g, 0, sizeof(*g));
	g->ops = ops;
	g->h = h;
	g->cap = cap;
	g->sem_retries = MLX_VSC_SEM_RETRIES;
	g->flag_polls = MLX_VSC_FLAG_POLLS;
	g->chunk = MLX_VSC_CHUNK;
	g->sem_sleep_us = 1000;
	g->flag_sleep_us = 1000;
}

static void pause_us(unsigned us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	if (us)
		nanosleep(&ts, NULL);
}

static int rd(struct mlx_vsec *g, uint16_t reg, uint32_t *v)
{
	int r = g->ops->read32(g->h, (uint16_t)(g->cap + reg), v);

	g->st.reads++;
	if (r < 0)
		snprintf(g->err, sizeof(g->err), "config read at 0x%x (gateway register 0x%02x) failed: %s",
			 g->cap + reg, reg, strerror(-r));
	return r < 0 ? -EIO : 0;
}

static int wr(struct mlx_vsec *g, uint16_t reg, uint32_t v)
{
	int r = g->ops->write32(g->h, (uint16_t)(g->cap + reg), v);

	g->st.writes++;
	if (r < 0)
		snprintf(g->err, sizeof(g->err), "config write at 0x%x (gateway register 0x%02x) failed: %s",
			 g->cap + reg, reg, strerror(-r));
	return r < 0 ? -EIO : 0;
}

/*
 * Take the semaphore: read it; if taken, wait and retry (bounded); else
 * take a ticket from COUNTER, write it to SEM and read SEM back: ours iff
 * it holds our ticket.  *owned tells the caller whether a release is due,
 * also when an access failed after our ticket was written.
 */
static int sem_lock(struct mlx_vsec *g, bool *owned)
{
	uint32_t v = 0, ticket;
	int r;

	*owned = false;
	for (unsigned i = 0; i < g->sem_retries; i++) {
		r = rd(g, MLX_VSC_SEMAPHORE, &v);
		if (r < 0)
			return r;
		if (v) {
			g->st.sem_busy++;
			pause_us(g->sem_sleep_us);
			continue;
		}
		r = rd(g, MLX_VSC_COUNTER, &ticket);
		if (r < 0)
			return r;
		if (!ticket)
			continue;       /* 0 means "free": not a usable ticket */
		r = wr(g, MLX_VSC_SEMAPHORE, ticket);
		if (r < 0)
			return r;
		*owned = true;
		r = rd(g, MLX_VSC_SEMAPHORE, &v);
		if (r < 0)
			return r;       /* ours as far as we know: released */
		if (v == ticket)
			return 0;
		*owned = false;         /* another owner won the race */
		g->st.sem_busy++;
		pause_us(g->sem_sleep_us);
	}
	snprintf(g->err, sizeof(g->err),
		 "the CR-space gateway semaphore is held by another owner (value 0x%x after %u tries); "
		 "another tool (mstflint, mstdump) or the driver's crdump may be using it",
		 v, g->sem_retries);
	return -EBUSY;
}

static int set_space(struct mlx_vsec *g, uint16_t space)
{
	uint32_t v;
	int r;

	r = rd(g, MLX_VSC_CTRL, &v);
	if (r < 0)
		return r;
	v = (v & ~MLX_VSC_SPACE_MASK) | space;
	r = wr(g, MLX_VSC_CTRL, v);
	if (r < 0)
		return r;
	r = rd(g, MLX_VSC_CTRL, &v);
	if (r < 0)
		return r;
	if ((v & MLX_VSC_SPACE_MASK) != space || !(v >> MLX_VSC_STATUS_SHIFT)) {
		snprintf(g->err, sizeof(g->err),
			 "address space 0x%x is not supported by this function (CTRL 0x%08x)", space, v);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int read_dword(struct mlx_vsec *g, uint32_t addr, uint32_t *data)
{
	uint32_t v = 0;
	int r;

	r = wr(g, MLX_VSC_ADDR, addr);          /* FLAG (bit 31) 0: a read */
	if (r < 0)
		return r;
	for (unsigned p = 0;; p++) {
		if (p == g->flag_polls) {
			snprintf(g->err, sizeof(g->err),
				 "the gateway did not complete the read of CR 0x%08x (flag still clear after %u polls)",
				 addr, g->flag_polls);
			return -ETIMEDOUT;
		}
		r = rd(g, MLX_VSC_ADDR, &v);
		if (r < 0)
			return r;
		if (v & MLX_VSC_FLAG)
			break;
		g->st.extra_polls++;
		if ((p + 1) % 16 == 0)
			pause_us(g->flag_sleep_us);
	}
	r = rd(g, MLX_VSC_DATA, data);
	if (r < 0)
		return r;
	g->st.dwords++;
	return 0;
}

/* One semaphore hold: lock, select the space, read n dwords, release. */
static int read_hold(struct mlx_vsec *g, uint16_t space, uint32_t addr, uint32_t *out, size_t n)
{
	bool owned;
	int r, r2;

	r = sem_lock(g, &owned);
	if (r < 0)
		goto out;
	g->st.holds++;
	r = set_space(g, space);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = read_dword(g, addr + (uint32_t)(4 * i), &out[i]);
out:
	/* Release, retrying a failed write a few times: a semaphore left
	 * taken would lock the firmware tools and the driver out. */
	for (int k = 0; owned && k < 3; k++) {
		r2 = wr(g, MLX_VSC_SEMAPHORE, 0);
		if (r2 == 0)
			owned = false;
		else if (r == 0)
			r = r2;
	}
	return r;
}

int mlx_vsec_read(struct mlx_vsec *g, uint16_t space, uint32_t addr, uint32_t *out, size_t n)
{
	uint64_t end = (uint64_t)addr + 4 * (uint64_t)n;
	size_t chunk = g->chunk ? g->chunk : MLX_VSC_CHUNK;
	int r = 0;

	g->err[0] = '\0';
	if ((addr & 3) || end > (uint64_t)MLX_VSC_ADDR_MASK + 1) {
		snprintf(g->err, sizeof(g->err), "CR address 0x%08x (+%zu dwords) is outside the gateway's 30 bits",
			 addr, n);
		return -EINVAL;
	}
	for (size_t done = 0; r == 0 && done < n; done += chunk) {
		size_t k = n - done < chunk ? n - done : chunk;

		r = read_hold(g, space, addr + (uint32_t)(4 * done), out + done, k);
	}
	return r;
}

/* ---- block lists ---- */

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* Parse a number of base 16 (optional 0x) or 10 from [p, e); *p moved. */
static int parse_num(const char **pp, const char *e, int base, uint64_t *v)
{
	const char *p = skip_ws(*pp, e);
	uint64_t x = 0;
	int digits = 0;

	if (base == 16 && e - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < e; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base || ++digits > 16)
			return -ERANGE;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (!digits)
		return -EINVAL;
	*pp = skip_ws(p, e);
	*v = x;
	return 0;
}

int mlx_cr_ranges_parse(const char *text, size_t len, struct mlx_cr_range **out, size_t *n,
			size_t *bad_line, char *err, size_t errlen)
{
	struct mlx_cr_range *v = NULL, *nv;
	size_t cnt = 0, cap = 0, line = 0;
	const char *p = text, *end = text + len;
	int r = 0;

	*out = NULL;
	*n = 0;
	*bad_line = 0;
	if (errlen)
		err[0] = '\0';
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *q;
		uint64_t addr, size;

		if (!e)
			e = end;
		line++;
		q = skip_ws(p, e);
		p = e + (e < end);
		if (q == e || *q == '#')
			continue;
		if (memchr(q, '\0', (size_t)(e - q))) {
			snprintf(err, errlen, "a NUL byte in the line");
			r = -EINVAL;
			break;
		}
		if (parse_num(&q, e, 16, &addr) < 0 || q >= e || *q != ',') {
			snprintf(err, errlen, "expected 'ADDR,SIZE[,ENABLE]' with a hex address");
			r = -EINVAL;
			break;
		}
		q++;
		if (parse_num(&q, e, 10, &size) < 0 || (q < e && *q != ',')) {
			snprintf(err, errlen, "the size is not a decimal number of dwords");
			r = -EINVAL;
			break;
		}
		/* The third field (an enable address) is not used by mstdump
		 * for the lists we read; anything after the comma is ignored. */
		/* addr is checked alone first: up to 16 hex digits are taken, and
		 * addr + 4 * size would wrap for an address near 2^64. */
		if (!size || (addr & 3) || addr > MLX_VSC_ADDR_MASK ||
		    addr + 4 * size > (uint64_t)MLX_VSC_ADDR_MASK + 1) {
			snprintf(err, errlen, "%s", !size ? "a block of 0 dwords" :
				 (addr & 3) ? "the address is not dword aligned" :
				 "the block ends beyond the 30-bit CR address space");
			r = -EINVAL;
			break;
		}
		if (cnt == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				r = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[cnt].addr = (uint32_t)addr;
		v[cnt].dwords = (uint32_t)size;
		cnt++;
	}
	if (r < 0) {
		if (r == -EINVAL)
			*bad_line = line;
		free(v);
		return r;
	}
	*out = v;
	*n = cnt;
	return 0;
}
