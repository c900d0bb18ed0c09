/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the splitters of recorded event streams
 * (lib/monitor/stream-split.c: mlx_kmsg_split, mlx_nl_split; issue 29
 * item 13): any bytes are a recorded /dev/kmsg (a capture's dev/kmsg, or a
 * FIFO fed in pieces) and a recorded netlink subscription.  Checked:
 *   - a split never claims more bytes than it was given, and at the end
 *     of the stream takes what is left (no byte is ever stuck);
 *   - splitting the bytes as they arrive, in pieces whose sizes the first
 *     input byte chooses, gives exactly the records of splitting them
 *     whole: a record boundary does not depend on how reads cut the bytes;
 *   - each record is classified within its length (ASan: exact-size
 *     copies).
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/types.h>

#include "monitor.h"
#include "fuzz-util.h"

#define MAXREC 4096

/* The record ends of @buf split whole (eof), into @ends; their count. */
static size_t split_whole(const char *buf, size_t len, size_t *ends, size_t max)
{
	size_t off = 0, n = 0;

	while (off < len && n < max) {
		size_t k = mlx_kmsg_split(buf + off, len - off, true);

		if (k == 0 || k > len - off)
			abort();        /* at the end, the rest is a record */
		off += k;
		ends[n++] = off;
	}
	return n;
}

static void kmsg(const uint8_t *data, size_t size)
{
	static size_t whole[MAXREC], piecewise[MAXREC];
	const char *buf = (const char *)data + 1;
	size_t len = size - 1, nw, np = 0, avail = 0, off = 0;
	unsigned step = data[0] % 17 + 1;

	nw = split_whole(buf, len, whole, MAXREC);
	if (nw == MAXREC)
		return;
	/* the bytes arrive @step at a time; what a split takes is gone */
	while (off < len) {
		bool eof = avail == len;
		size_t k = mlx_kmsg_split(buf + off, avail - off, eof);

		if (k > avail - off)
			abort();
		if (k) {
			uint8_t *rec = fuzz_copy((const uint8_t *)buf + off, k);
			struct mlx_event ev;

			if (np == MAXREC)
				abort();
			piecewise[np++] = off + k;
			if (rec) {
				(void)mlx_kmsg_classify((const char *)rec, k, MLX_KMSG_ACCEPT_USER, &ev);
				free(rec);
			}
			off += k;
			continue;
		}
		if (eof)
			abort();        /* the end of the stream left bytes unsplit */
		avail = avail + step < len ? avail + step : len;
	}
	if (np != nw)
		abort();
	for (size_t i = 0; i < nw; i++)
		if (piecewise[i] != whole[i])
			abort();
}

static void nl(const uint8_t *data, size_t size)
{
	size_t off = 0;

	while (off < size) {
		ssize_t k = mlx_nl_split(data + off, size - off, true);

		if (k == -EBADMSG)
			return;
		if (k <= 0 || (size_t)k > size - off)
			abort();
		/* not at the end: a message is there only when all of it is */
		if (mlx_nl_split(data + off, (size_t)k - 1, false) > 0)
			abort();
		off += (size_t)k;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fuzz_copy(data, size);

	if (!copy)
		return 0;
	if (size >= 1)
		kmsg(copy, size);
	nl(copy, size);
	free(copy);
	return 0;
}
