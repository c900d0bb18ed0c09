/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event source (issue 26): everything the monitor listens to, as one
 * object an exporter or a daemon can reuse as well as `mlxcli monitor`:
 * open, one fd to wait on, the next event.  Its streams are the kernel
 * log, rtnetlink (RTNLGRP_LINK and RTNLGRP_DCB on one socket), devlink's
 * "config" group and the ethtool family's "monitor" group, each opened by
 * the kernel boundary's event_stream operation (live: /dev/kmsg and the
 * subscriptions; captured: their recordings, replayed), and the polls
 * (lib/monitor/poll.c) on a timer.  Nothing here asks whether the system
 * is live: a stream is read by what it is (the kernel's records or
 * datagrams, or the bytes of a recording to split), and the source ends
 * when every stream has (a replay).
 *
 * The decoders are pure and elsewhere (kmsg-classify.c, rtnl-link.c,
 * dcb-notify.c, devlink-notify.c, ethtool-notify.c); this file reads,
 * splits, keeps the state between messages (link states, the kernel log's
 * sequence), fills in what the device model knows (the function of a
 * netdev or of an RDMA device) and the time of each event.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "device.h"
#include "mlx-private.h"
#include "monitor-private.h"
#include "sriov.h"

#define NLINKS 1024                /* interfaces whose state is remembered */
#define KMSG_REC_MAX 8192          /* CONSOLE_EXT_LOG_MAX: the longest record /dev/kmsg gives */
#define NL_BUF 65536               /* a datagram; a recording's message at most */
#define LOG_KEEP (256 * 1024)      /* the recent kernel-log records kept for incidents */

/* The state of every link first (RTM_GETLINK dump, answered on the
 * subscribed socket before any notification): each link's first change
 * is then a change. */
static const struct {
	struct nlmsghdr h;
	struct ifinfomsg ifi;
	struct rtattr ext;
	uint32_t mask;
} link_dump = {
	.h = { .nlmsg_len = sizeof(link_dump), .nlmsg_type = RTM_GETLINK,
	       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1 },
	.ifi = { .ifi_family = AF_UNSPEC },
	/* with each PF's VF table: the baseline of vf_changed */
	.ext = { .rta_len = RTA_LENGTH(sizeof(uint32_t)), .rta_type = IFLA_EXT_MASK },
	.mask = RTEXT_FILTER_VF,
};

static const struct mlx_nl_group groups[MLX_EVST_N] = {
	/* DCB notifications (qos_changed) come through the same socket */
	[MLX_EVST_RTNL] = { .proto = NETLINK_ROUTE, .group = RTNLGRP_LINK, .group2 = RTNLGRP_DCB,
			    .what = "rtnetlink link and DCB", .dump_req = &link_dump,
			    .dump_len = sizeof(link_dump), .recording = "/monitor/rtnl.nl" },
	[MLX_EVST_DEVLINK] = { .proto = NETLINK_GENERIC, .genl_family = DEVLINK_GENL_NAME,
			       .genl_group = DEVLINK_GENL_MCGRP_CONFIG_NAME, .what = "devlink health",
			       .recording = "/monitor/devlink.nl" },
	[MLX_EVST_ETHTOOL] = { .proto = NETLINK_GENERIC, .genl_family = ETHTOOL_GENL_NAME,
			       .genl_group = ETHTOOL_MCGRP_MONITOR_NAME, .what = "ethtool settings",
			       .recording = "/monitor/ethtool.nl" },
};

/* The order of one cycle: link state, then the kernel log that explains
 * it, then devlink, then ethtool settings.  Recordings (regular files,
 * which are always readable) are replayed first, the notifications before
 * the kernel log, as a capture keeps them. */
static const enum mlx_evs_stream live_order[] = { MLX_EVST_RTNL, MLX_EVST_KMSG, MLX_EVST_DEVLINK,
						  MLX_EVST_ETHTOOL };
static const enum mlx_evs_stream file_order[] = { MLX_EVST_RTNL, MLX_EVST_DEVLINK, MLX_EVST_ETHTOOL,
						  MLX_EVST_KMSG };

struct stream {
	int fd;                    /* -1: absent or ended */
	int err;                   /* what opening it gave: 0, -ENOENT (none), -errno */
	char why[256];             /* and why, when it failed */
	bool framed;               /* whole records/datagrams per read */
	bool answers;              /* takes requests (a live socket) */
	bool file;                 /* a regular file: always readable, not waited on */
	bool ready;                /* epoll said so, and no EAGAIN since */
	bool eof;
	uint8_t *buf;              /* bytes read and not yet taken */
	size_t len, off, cap;
};

struct mlx_evsrc {
	struct mlx_ctx *ctx;
	struct mlx_evsrc_opts o;
	struct stream st[MLX_EVST_N];
	int epfd, timerfd;
	bool timer_ready;
	/* events decoded and not yet given out (a message or a poll can
	 * make several) */
	struct mlx_event *q;
	size_t qhead, qlen, qcap;
	/* the kernel log */
	struct mlx_kmsg_seq seq;
	bool kmsg_filtered, kmsg_backlog;
	uint64_t boot_time_us;
	uint64_t user_records;
	char *log;                 /* the recent records read, oldest first */
	size_t loglen;
	/* the links */
	struct mlx_link_state *links;
	struct mlx_evpoll *poll;
	unsigned polls;            /* done since the baseline */
};

const char *mlx_evs_stream_name(enum mlx_evs_stream s)
{
	static const char *const names[MLX_EVST_N] = {
		[MLX_EVST_KMSG] = "kernel log", [MLX_EVST_RTNL] = "rtnetlink",
		[MLX_EVST_DEVLINK] = "devlink", [MLX_EVST_ETHTOOL] = "ethtool",
	};

	return (unsigned)s < MLX_EVST_N ? names[s] : "unknown";
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* ---- the queue of decoded events ------------------------------------- */

static int queue(struct mlx_evsrc *s, const struct mlx_event *ev)
{
	if (s->qhead == s->qlen)
		s->qhead = s->qlen = 0;
	if (s->qlen == s->qcap) {
		size_t cap = s->qcap ? s->qcap * 2 : 16;
		struct mlx_event *q = realloc(s->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		s->q = q;
		s->qcap = cap;
	}
	s->q[s->qlen++] = *ev;
	return 0;
}

/* ---- the kernel log ----------------------------------------------------- */

/* Is a line of the RDMA core about an mlx5 device?  mlx5_ib's own formats
 * are; a line every RDMA driver's device gets (ib_core's, one no kind
 * describes) is when the device model places the device on a ConnectX
 * function, or the device has mlx5's own name (mlx5_N, mlx5_bond_N). */
static bool mlx5_rdma(const struct mlx_event *ev)
{
	if (!ev->rdma_device[0] || ev->pci_address[0])
		return true;
	switch (ev->kind) {
	case MLX_EV_RDMA_LOG: case MLX_EV_RDMA_PORT_FAILED: case MLX_EV_GID_ADD_FAILED:
		return !strncmp(ev->rdma_device, "mlx5_", 5);
	default:
		return true;
	}
}

/* The wall-clock time of a record: the kernel's timestamp from the boot
 * time, an estimate; or the time it was read, for a record the kernel
 * just wrote (the live log after its backlog). */
static void kmsg_time(struct mlx_evsrc *s, struct mlx_event *ev, bool framed)
{
	if (framed && !s->kmsg_backlog) {
		ev->realtime_us = now_us();
		return;
	}
	if (s->boot_time_us && ev->usec) {
		ev->realtime_us = s->boot_time_us + ev->usec;
		ev->time_estimated = true;
	}
}

/* Keep @rec (@n bytes) among the recent records: the oldest go when
 * LOG_KEEP would be passed, whole records at a time. */
static void keep_record(struct mlx_evsrc *s, const char *rec, size_t n)
{
	bool nl = n && rec[n - 1] != '\n';

	if (n + nl > LOG_KEEP)
		return;
	if (!s->log && !(s->log = malloc(LOG_KEEP)))
		return;
	if (s->loglen + n + nl > LOG_KEEP) {
		size_t cut = s->loglen + n + nl - LOG_KEEP;

		/* to the start of a record: a newline not followed by " KEY=" */
		while (cut < s->loglen && !(s->log[cut - 1] == '\n' && s->log[cut] != ' '))
			cut++;
		memmove(s->log, s->log + cut, s->loglen - cut);
		s->loglen -= cut;
	}
	memcpy(s->log + s->loglen, rec, n);
	s->loglen += n;
	if (nl)
		s->log[s->loglen++] = '\n';
}

int mlx_evsrc_kernel_log(const struct mlx_evsrc *s, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	if (!s->loglen)
		return -ENOENT;
	if (!(*text = malloc(s->loglen)))
		return -ENOMEM;
	memcpy(*text, s->log, s->loglen);
	*len = s->loglen;
	return 0;
}

/* One record of the kernel log: its events (a gap first) into the queue. */
static int kmsg_record(struct mlx_evsrc *s, const char *rec, size_t n, bool framed)
{
	struct mlx_event ev;
	uint64_t lost;
	int r = mlx_kmsg_classify(rec, n, s->o.kmsg_flags, &ev);

	if (r != -EBADMSG && r != -EPERM)
		keep_record(s, rec, n);

	if (r == -EBADMSG)
		return 0;
	if (ev.seq && !s->kmsg_filtered && (lost = mlx_kmsg_seq_gap(&s->seq, ev.seq)) != 0) {
		struct mlx_event gap;

		mlx_ev_records_lost(&gap, lost, ev.seq);
		kmsg_time(s, &gap, framed);
		if (queue(s, &gap) < 0)
			return -ENOMEM;
	}
	if (r == -EPERM) {
		/* a test line, or a program imitating the driver: said once
		 * (with -v), never an event (DESIGN "Security") */
		if (s->user_records++ == 0)
			mlx_log(s->ctx, MLX_LOG_INFO, "kernel log: records written by user space are not "
				"events (the monitor trusts the kernel's only; a test option takes them): "
				"the first is record %" PRIu64, ev.seq);
		return 0;
	}
	if (r != 1)
		return 0;
	mlx_ev_resolve(s->o.devs, &ev);
	if (!mlx5_rdma(&ev))
		return 0;
	kmsg_time(s, &ev, framed);
	return queue(s, &ev);
}

/* "PRIO,SEQ,..." of a record: its sequence number, 0 when none. */
static uint64_t record_seq(const char *rec)
{
	unsigned long long prio, seq;

	return sscanf(rec, "%llu,%llu,", &prio, &seq) == 2 ? seq : 0;
}

/*
 * A live log from now on: read what it holds (cheap: one record per read,
 * no decoding) to learn where it ends, so that a gap between the start
 * and the first record read later is a gap (issue 29 item 6: records the
 * kernel overwrote before the first read were lost without a word).
 */
static void kmsg_skip_backlog(struct mlx_evsrc *s, struct stream *t)
{
	char rec[KMSG_REC_MAX];
	uint64_t last = 0, q;

	for (;;) {
		ssize_t n = read(t->fd, rec, sizeof(rec) - 1);

		/* EPIPE: overwritten meanwhile, the next read goes on */
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		if ((q = record_seq(rec)) != 0)
			last = q;
	}
	if (last)
		mlx_kmsg_seq_gap(&s->seq, last);
}

/* ---- reading a stream ---------------------------------------------------- */

/*
 * The next unit of stream @t (a kernel-log record, or a netlink datagram
 * of whole messages, or one message of a recording) at *@p, *@n bytes.
 * 1 one is there; 0 nothing now (EAGAIN); -ENODATA the stream ended;
 * -EPIPE the kernel overwrote records not yet read; -ENOBUFS a socket
 * overflowed; -errno.
 */
static int take(struct stream *t, enum mlx_evs_stream id, const uint8_t **p, size_t *n)
{
	ssize_t k;

	if (t->framed) {
		if (id == MLX_EVST_KMSG)
			k = read(t->fd, t->buf, t->cap - 1);
		else
			k = recv(t->fd, t->buf, t->cap, MSG_DONTWAIT);
		if (k < 0 && errno == EINTR)
			return take(t, id, p, n);
		if (k < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (k == 0)
			return -ENODATA;
		if (id == MLX_EVST_KMSG)
			t->buf[k] = '\0';
		*p = t->buf;
		*n = (size_t)k;
		return 1;
	}
	for (;;) {
		ssize_t end;

		if (id == MLX_EVST_KMSG)
			end = (ssize_t)mlx_kmsg_split((const char *)t->buf + t->off, t->len - t->off, t->eof);
		else
			end = mlx_nl_split(t->buf + t->off, t->len - t->off, t->eof);
		if (end < 0)
			return -EBADMSG;        /* a recording that is no netlink messages */
		if (end > 0) {
			*p = t->buf + t->off;
			*n = (size_t)end;
			t->off += (size_t)end;
			return 1;
		}
		if (t->eof)
			return -ENODATA;
		if (t->off) {
			memmove(t->buf, t->buf + t->off, t->len - t->off);
			t->len -= t->off;
			t->off = 0;
		}
		if (t->len == t->cap - 1)
			t->len = 0;     /* longer than any unit the kernel makes: dropped */
		k = read(t->fd, t->buf + t->len, t->cap - 1 - t->len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (k == 0)
			t->eof = true;
		t->len += (size_t)k;
		t->buf[t->len] = 0;
	}
}

/* Ask for the VF table of every link a notification said changed
 * (RTEXT_FILTER_VF; the reply comes on the same socket, a stream that
 * takes requests: the live one). */
static void ask_vfs(struct mlx_evsrc *s, struct stream *t)
{
	for (size_t i = 0; i < NLINKS; i++) {
		uint8_t req[128];
		int n;

		if (!s->links[i].want_vfs)
			continue;
		s->links[i].want_vfs = false;
		n = mlx_rtnl_getlink_vf_build(req, sizeof(req), s->links[i].ifindex, NULL);
		if (t->answers && n > 0)
			(void)send(t->fd, req, (size_t)n, 0);
	}
}

/* The netlink messages of @buf, decoded as those of stream @id. */
static int decode_nl(struct mlx_evsrc *s, enum mlx_evs_stream id, const uint8_t *buf, size_t len)
{
	struct mlx_event ev[16];
	int n = (int)len, r;

	for (const struct nlmsghdr *h = (const void *)buf; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
		int k;

		if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
			continue;
		if (id == MLX_EVST_RTNL && (h->nlmsg_type == RTM_SETDCB || h->nlmsg_type == RTM_GETDCB))
			k = mlx_dcb_notify_event(h, h->nlmsg_len, ev);   /* RTNLGRP_DCB */
		else if (id == MLX_EVST_RTNL)
			k = mlx_rtnl_link_events(h, h->nlmsg_len, s->links, NLINKS, ev, 16);
		else if (id == MLX_EVST_ETHTOOL)
			k = mlx_ethtool_notify_event(h, h->nlmsg_len, ev);
		else
			k = mlx_devlink_notify_event(h, h->nlmsg_len, ev);
		for (int i = 0; i < k; i++) {
			mlx_ev_resolve(s->o.devs, &ev[i]);
			/* a notification is timed when it is read; a recorded
			 * one has no time of its own */
			ev[i].realtime_us = s->st[id].framed ? now_us() : 0;
			if ((r = queue(s, &ev[i])) < 0)
				return r;
		}
	}
	if (id == MLX_EVST_RTNL)
		ask_vfs(s, &s->st[id]);
	return 0;
}

/* A stream overflowed: say so; rtnetlink is asked for every link's state
 * again, so that what changed meanwhile is seen. */
static int overflowed(struct mlx_evsrc *s, enum mlx_evs_stream id)
{
	struct mlx_event lost;

	mlx_ev_records_lost(&lost, 0, 0);
	lost.have = 0;
	lost.realtime_us = now_us();
	snprintf(lost.text, sizeof(lost.text), "%s notifications lost (socket overflow)",
		 id == MLX_EVST_RTNL ? "rtnetlink" : id == MLX_EVST_ETHTOOL ? "ethtool" : "devlink");
	if (id == MLX_EVST_RTNL && groups[id].dump_req)
		(void)send(s->st[id].fd, groups[id].dump_req, groups[id].dump_len, 0);
	return queue(s, &lost);
}

/* Read stream @id until it has queued an event, has nothing now, or
 * ended.  0 nothing more now; 1 something queued; -errno. */
static int pump(struct mlx_evsrc *s, enum mlx_evs_stream id)
{
	struct stream *t = &s->st[id];
	const uint8_t *p = NULL;
	size_t n = 0;
	int r;

	while (s->qhead == s->qlen) {
		r = take(t, id, &p, &n);
		if (r == 0) {
			t->ready = false;
			if (id == MLX_EVST_KMSG)
				s->kmsg_backlog = false;
			return 0;
		}
		if (r == -ENODATA || r == -EBADMSG) {
			if (r == -EBADMSG)
				mlx_log(s->ctx, MLX_LOG_WARN, "the recorded %s is not netlink messages; its "
					"replay stops here", mlx_evs_stream_name(id));
			if (s->epfd >= 0 && !t->file)
				epoll_ctl(s->epfd, EPOLL_CTL_DEL, t->fd, NULL);
			close(t->fd);
			t->fd = -1;
			t->ready = false;
			return 0;
		}
		if (r == -EPIPE && id == MLX_EVST_KMSG) {
			/* overwritten: the next read goes on from the oldest
			 * record, and the sequence gap says how many; before
			 * any record was seen the count is not known */
			if (!s->seq.have) {
				struct mlx_event lost;

				mlx_ev_records_lost(&lost, 0, 0);
				lost.have = 0;
				lost.realtime_us = now_us();
				snprintf(lost.text, sizeof(lost.text), "kernel log records lost before the "
					 "first one read (how many is not known)");
				if ((r = queue(s, &lost)) < 0)
					return r;
			}
			continue;
		}
		if (r == -ENOBUFS) {
			if ((r = overflowed(s, id)) < 0)
				return r;
			continue;
		}
		if (r < 0)
			return mlx_err(s->ctx, -r, "reading the %s: %s", mlx_evs_stream_name(id), strerror(-r));
		r = id == MLX_EVST_KMSG ? kmsg_record(s, (const char *)p, n, t->framed) :
					  decode_nl(s, id, p, n);
		if (r < 0)
			return r;
	}
	return 1;
}

/* ---- the polls ------------------------------------------------------------- */

static int poll_emit(void *arg, struct mlx_event *ev)
{
	struct mlx_evsrc *s = arg;

	mlx_ev_resolve(s->o.devs, ev);
	ev->realtime_us = now_us();
	return queue(s, ev);
}

static int run_poll(struct mlx_evsrc *s)
{
	uint64_t expired;
	int r;

	s->timer_ready = false;
	if (read(s->timerfd, &expired, sizeof(expired)) < 0 && errno == EAGAIN)
		return 0;
	r = mlx_evpoll_run(s->poll, poll_emit, s);
	mlx_log(s->ctx, MLX_LOG_DEBUG, "polls: poll %u read", ++s->polls);
	return r;
}

/* ---- the object ------------------------------------------------------------ */

int mlx_evsrc_fd(const struct mlx_evsrc *s)
{
	return s->epfd;
}

int mlx_evsrc_stream_status(const struct mlx_evsrc *s, enum mlx_evs_stream id, const char **why)
{
	if ((unsigned)id >= MLX_EVST_N)
		return -EINVAL;
	if (why)
		*why = s->st[id].why;
	return s->st[id].err;
}

uint64_t mlx_evsrc_user_records(const struct mlx_evsrc *s)
{
	return s->user_records;
}

void mlx_evsrc_close(struct mlx_evsrc *s)
{
	if (!s)
		return;
	for (int i = 0; i < MLX_EVST_N; i++) {
		if (s->st[i].fd >= 0)
			close(s->st[i].fd);
		free(s->st[i].buf);
	}
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->timerfd >= 0)
		close(s->timerfd);
	mlx_evpoll_free(s->poll);
	free(s->log);
	free(s->links);
	free(s->q);
	free(s);
}

static int open_stream(struct mlx_evsrc *s, enum mlx_evs_stream id)
{
	struct stream *t = &s->st[id];
	struct mlx_event_stream es;
	struct stat st;

	t->err = mlx_kernel_event_stream(s->ctx, id == MLX_EVST_KMSG ? NULL : &groups[id], &es);
	if (t->err < 0) {
		snprintf(t->why, sizeof(t->why), "%s", mlx_errmsg(s->ctx));
		mlx_err_clear(s->ctx);
		return 0;
	}
	t->fd = es.fd;
	t->framed = es.framed;
	t->answers = es.answers;
	t->file = fstat(t->fd, &st) == 0 && S_ISREG(st.st_mode);
	t->ready = t->file;
	t->cap = (id == MLX_EVST_KMSG ? KMSG_REC_MAX : NL_BUF) + 1;
	t->buf = malloc(t->cap);
	if (!t->buf)
		return -ENOMEM;
	if (id == MLX_EVST_KMSG) {
		s->kmsg_filtered = es.filtered;
		s->boot_time_us = es.boot_time_us;
		/* the kernel's log holds its past: from now on, or all of it */
		if (t->framed && !s->o.since_boot)
			kmsg_skip_backlog(s, t);
		s->kmsg_backlog = t->framed && s->o.since_boot;
	}
	if (!t->file) {
		struct epoll_event e = { .events = EPOLLIN, .data.u32 = (uint32_t)id };

		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, t->fd, &e) < 0)
			return mlx_err(s->ctx, errno, "cannot wait on the %s: %s", mlx_evs_stream_name(id),
				       strerror(errno));
	}
	return 0;
}

int mlx_evsrc_open(struct mlx_ctx *ctx, const struct mlx_evsrc_opts *o, struct mlx_evsrc **out)
{
	static const enum mlx_evs_stream open_order[] = {
		/* rtnetlink last: a caller that waits for its subscription
		 * (tests do: /proc/net/netlink) knows every stream is open */
		MLX_EVST_KMSG, MLX_EVST_DEVLINK, MLX_EVST_ETHTOOL, MLX_EVST_RTNL,
	};
	struct mlx_evsrc *s = calloc(1, sizeof(*s));
	int r, failed = 0, first_err = 0;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->ctx = ctx;
	s->o = *o;
	s->timerfd = -1;
	for (int i = 0; i < MLX_EVST_N; i++)
		s->st[i].fd = -1;
	s->links = calloc(NLINKS, sizeof(*s->links));
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!s->links || s->epfd < 0) {
		r = s->links ? mlx_err(ctx, errno, "epoll: %s", strerror(errno)) : -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < sizeof(open_order) / sizeof(open_order[0]); i++) {
		struct stream *t = &s->st[open_order[i]];

		if ((r = open_stream(s, open_order[i])) < 0)
			goto fail;
		if (t->err < 0 && t->err != -ENOENT) {
			failed++;
			if (!first_err)
				first_err = t->err;
		}
	}
	/* nothing at all to listen to, for a reason (not a capture that
	 * recorded nothing): the first reason */
	if (failed && failed + (s->st[MLX_EVST_KMSG].err == -ENOENT) +
	    (s->st[MLX_EVST_RTNL].err == -ENOENT) + (s->st[MLX_EVST_DEVLINK].err == -ENOENT) +
	    (s->st[MLX_EVST_ETHTOOL].err == -ENOENT) == MLX_EVST_N) {
		for (size_t i = 0; i < sizeof(open_order) / sizeof(open_order[0]); i++)
			if (s->st[open_order[i]].err == first_err) {
				r = mlx_err(ctx, -first_err, "%s", s->st[open_order[i]].why);
				break;
			}
		goto fail;
	}
	if (o->poll_ms && o->devs) {
		struct itimerspec its = {
			.it_value = { o->poll_ms / 1000, (long)(o->poll_ms % 1000) * 1000000 },
			.it_interval = { o->poll_ms / 1000, (long)(o->poll_ms % 1000) * 1000000 },
		};
		struct epoll_event e = { .events = EPOLLIN, .data.u32 = MLX_EVST_N };

		if ((r = mlx_evpoll_new(ctx, o->devs, o->vf, &s->poll)) < 0)
			goto fail;
		s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (s->timerfd < 0 || timerfd_settime(s->timerfd, 0, &its, NULL) < 0 ||
		    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->timerfd, &e) < 0) {
			r = mlx_err(ctx, errno, "cannot set the poll timer: %s", strerror(errno));
			goto fail;
		}
		/* the baseline, now (its events, if any, are the first) */
		if ((r = mlx_evpoll_run(s->poll, poll_emit, s)) < 0)
			goto fail;
		mlx_log(ctx, MLX_LOG_INFO, "polls: the baseline is read; the next poll in %u ms", o->poll_ms);
	}
	*out = s;
	return 0;
fail:
	mlx_evsrc_close(s);
	return r;
}

/* Is any event stream still open (a replay ends when none is)? */
static bool any_open(const struct mlx_evsrc *s)
{
	for (int i = 0; i < MLX_EVST_N; i++)
		if (s->st[i].fd >= 0)
			return true;
	return false;
}

int mlx_evsrc_next(struct mlx_evsrc *s, struct mlx_event *ev)
{
	int r;

	for (;;) {
		bool waited = false;

		if (s->qhead < s->qlen) {
			*ev = s->q[s->qhead++];
			return 1;
		}
		/* recordings first, to their end */
		for (size_t i = 0; i < sizeof(file_order) / sizeof(file_order[0]); i++) {
			struct stream *t = &s->st[file_order[i]];

			if (t->fd >= 0 && t->file && (r = pump(s, file_order[i])) != 0)
				goto got;
		}
		if (!any_open(s))
			return -ENODATA;
again:
		for (size_t i = 0; i < sizeof(live_order) / sizeof(live_order[0]); i++) {
			struct stream *t = &s->st[live_order[i]];

			if (t->fd >= 0 && !t->file && t->ready && (r = pump(s, live_order[i])) != 0)
				goto got;
		}
		if (s->timer_ready && (r = run_poll(s)) < 0)
			return r;
		if (s->qhead < s->qlen)
			continue;
		if (waited)
			return any_open(s) ? 0 : -ENODATA;
		/* what is ready now, without waiting: the caller waits on
		 * the fd when we say nothing is */
		{
			struct epoll_event e[MLX_EVST_N + 1];
			int n = epoll_wait(s->epfd, e, MLX_EVST_N + 1, 0);

			for (int i = 0; i < n; i++) {
				if (e[i].data.u32 == MLX_EVST_N)
					s->timer_ready = true;
				else if (e[i].data.u32 < MLX_EVST_N)
					s->st[e[i].data.u32].ready = true;
			}
			waited = true;
			goto again;
		}
got:
		if (r < 0)
			return r;
	}
}
