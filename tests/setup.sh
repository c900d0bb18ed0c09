#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Set-up shared by the README's two commands and CI: install what is
# missing (Debian 12, apt-get, as root), then configure and build into
# $BUILD (default: build/ in the source tree).  Sourced, not run.
set -e
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}

# Build and test dependencies, all Debian packages.  A minimal Debian 12
# (debootstrap --variant=minbase, containers, cloud images) has almost
# nothing, and --no-install-recommends below adds nothing unasked: every
# tool a test or the bench runs is named here.  What calls what:
#   clang libclang-rt-14-dev  make fuzz (libFuzzer and the sanitizer runtimes)
#   iproute2         ip, ip netns, dcb, devlink (kernel tier, bench)
#   util-linux       setpriv, unshare (tests that drop to nobody, kernel tier)
#   procps           ps, sysctl: for whoever debugs a test on a fresh machine
#                    (the tests write /proc/sys themselves)
#   pciutils         lspci (kernel tier, bench, tests/cli/devices-syscalls.sh)
#                    ethtool: bench, counters-netns
#   man-db bsdextrautils  man, col (tests/cli/meta.sh)
#   time strace      the bench (peak RSS; syscalls a function, a netdev) and
#                    tests/kernel/counters-netns.sh (netlink requests),
#                    tests/cli/devices-syscalls.sh (devices against lspci);
#                    strace also delivers a signal at the k-th write
#                    (tests/cli/write-signal.sh)
#   hyperfine        tests/bench/compare-cpu.sh, tests/bench/rdma-lab.sh
#                    prometheus: promtool (tests/cli/counters.sh)
#   build-essential dpkg-dev debhelper fakeroot lintian bash-completion
#                    the Debian package and its test (tests/pkg/deb.sh)
#   qemu-system-x86 busybox-static cpio kmod xz-utils gcc-12
#                    the kernel lab (tests/vm/lab.sh): QEMU, the initramfs,
#                    depmod, linux-source's tarball, netdevsim built against
#                    the kernel's headers (their Makefile names gcc-12); the
#                    kernel, its headers and linux-source are fetched by
#                    lab.sh itself (apt-get download, never installed)
#   ibverbs-utils rdmacm-utils ibverbs-providers python3-pyverbs
#                    ibv_rc_pingpong, rping and rxe's verbs provider, run in
#                    the lab's guest on rdma_rxe; rdma-core's Python binding
#                    for the QP driven to ERR and the benchmark's 10,000 QPs
#                    (tests/vm/guest/rdma-verbs.py)
PKGS="gcc make autoconf automake pkg-config libpci-dev libnl-3-dev libnl-genl-3-dev
libjansson-dev libedit-dev libcmocka-dev pciutils iproute2 jq
util-linux procps ethtool man-db bsdextrautils clang libclang-rt-14-dev valgrind
hyperfine strace time python3 tmux zsh prometheus ansible-core
build-essential dpkg-dev debhelper fakeroot lintian bash-completion
qemu-system-x86 busybox-static cpio kmod xz-utils gcc-12 ibverbs-utils rdmacm-utils ibverbs-providers
python3-pyverbs"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
		echo "setup: need root to install:$missing" >&2; exit 1
	fi
	$SUDO apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

cd "$SRC"
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
	autoreconf -fi >/dev/null
fi
mkdir -p "$BUILD"
cd "$BUILD"
if [ ! -f Makefile ] || [ "$SRC/configure" -nt Makefile ]; then
	"$SRC/configure" -q $CONFIGURE_FLAGS
fi
make -s -j"$(nproc)" >/dev/null
