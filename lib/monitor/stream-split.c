/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the next unit of a recorded event stream ends (pure): a kernel-log
 * record of a recorded /dev/kmsg (<root>/dev/kmsg, which may be a FIFO fed
 * in pieces), or a netlink message of a recorded subscription
 * (<root>/monitor/rtnl.nl).  The live streams need none of this: the
 * kernel gives one record per read(2), whole datagrams per recv(2).
 *
 * A record (Documentation/ABI/testing/dev-kmsg) is its "PRIO,SEQ,USEC,
 * FLAGS;TEXT\n" line followed by dictionary lines " KEY=VALUE\n", so it
 * ends at a newline that no line starting with a space follows; whether
 * one does is known only once the next byte is there (or the stream
 * ended).  A netlink message says its length in its header
 * (include/uapi/linux/netlink.h: nlmsg_len, then NLMSG_ALIGN padding).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <linux/netlink.h>

#include "monitor.h"

size_t mlx_kmsg_split(const char *buf, size_t len, bool eof)
{
	const char *p = buf, *end = buf + len, *nl;

	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (nl + 1 == end)
			return eof ? len : 0;
		if (nl[1] != ' ')
			return (size_t)(nl + 1 - buf);
		p = nl + 1;
	}
	return eof ? len : 0;
}

ssize_t mlx_nl_split(const void *buf, size_t len, bool eof)
{
	struct nlmsghdr h;
	size_t n;

	if (len < sizeof(h))
		return eof && len ? -EBADMSG : 0;
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len < sizeof(h))
		return -EBADMSG;
	/* aligned in size_t: NLMSG_ALIGN's mask is an unsigned int, which
	 * turned a length near 4 GiB into 0 (found by fuzz-kmsg-split) */
	n = ((size_t)h.nlmsg_len + NLMSG_ALIGNTO - 1) & ~(size_t)(NLMSG_ALIGNTO - 1);
	if (n > len) {
		/* the last message of a file needs no padding after it */
		if (eof && h.nlmsg_len == len)
			return (ssize_t)len;
		return eof ? -EBADMSG : 0;
	}
	return (ssize_t)n;
}
