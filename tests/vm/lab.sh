#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel lab (DESIGN.md "The kernel lab", tests/vm/README): Debian 12's
# own kernel booted in QEMU, the host's root shared read-only over 9p as the
# guest's root (with a tmpfs over it), so a script in the guest runs the
# freshly built mlxcli and the host's tools against rdma_rxe, netdevsim and
# every other module of that kernel.
#
#     lab.sh prepare            fetch and build what a boot needs (cached);
#                               prints the cache directory of the kernel
#     lab.sh run [-o DIR] [-t SECONDS] [-e FILE] SCRIPT [ARG...]
#                               boot once and run SCRIPT (a path on this host,
#                               run as root in the guest by /bin/sh); its
#                               exit status is lab.sh's.  In the guest,
#                               $LAB_OUT is a writable directory that is DIR
#                               on this host (default: a new directory,
#                               printed); FILE is sourced first (exports).
#     lab.sh version            the kernel the lab would boot
#
# Exit 77 (with "lab: skip: REASON" on stderr) where this machine cannot run
# the lab: no QEMU, no busybox-static, not x86-64, no Debian 6.1 kernel in
# the package lists.  Anything else that goes wrong is exit 1.
#
# The kernel: the newest linux-image-6.1.0-N-amd64 whose headers, kbuild
# and linux-source-6.1 exist at the same version, fetched with `apt-get
# download` and unpacked with `dpkg -x` into the cache; nothing is
# installed on this host.  netdevsim is not built in Debian's config
# (CONFIG_NETDEVSIM is unset), so it is built out of tree from that
# linux-source against those headers.  The cache ($MLXCLI_LAB_CACHE, else
# /var/cache/mlxcli-lab when writable, else ~/.cache/mlxcli-lab) keeps the
# kernel, its modules and netdevsim.ko, one directory per kernel, and is
# shared by every checkout; a second run downloads and builds nothing.
# One VM at a time on this machine: runs take a lock in the cache.
set -e
LAB_DIR=$(cd "$(dirname "$0")" && pwd)
: "${LAB_TIMEOUT:=1800}"

skip() { echo "lab: skip: $*" >&2; exit 77; }
die() { echo "lab: error: $*" >&2; exit 1; }
say() { [ -n "${LAB_QUIET:-}" ] || echo "lab: $*" >&2; }

cache_root() {
	if [ -n "${MLXCLI_LAB_CACHE:-}" ]; then
		echo "$MLXCLI_LAB_CACHE"
	elif mkdir -p /var/cache/mlxcli-lab 2>/dev/null && [ -w /var/cache/mlxcli-lab ]; then
		echo /var/cache/mlxcli-lab
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/mlxcli-lab"
	fi
}
CACHE=$(cache_root)
mkdir -p "$CACHE" || die "cannot create the cache $CACHE"

# The version every package must have: "ABI VERSION", e.g.
# "6.1.0-56-amd64 6.1.192-2", or nothing.
pick_kernel() {
	command -v apt-cache >/dev/null || return 0
	for n in $(apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
		sed -n 's/^linux-image-6\.1\.0-\([0-9][0-9]*\)-amd64$/\1/p' | sort -rn); do
		abi=6.1.0-$n-amd64
		ver=$(apt-cache show "linux-image-$abi" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
		[ -n "$ver" ] || continue
		for p in "linux-headers-$abi" "linux-headers-6.1.0-$n-common" linux-kbuild-6.1 linux-source-6.1; do
			apt-cache madison "$p" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
				grep -qxF "$ver" || continue 2
		done
		echo "$abi $ver"
		return 0
	done
}

# The kernel to boot: the newest complete one the package lists offer, or
# without lists (offline) the newest one already in the cache.
kernel() {
	k=$(pick_kernel)
	if [ -z "$k" ]; then
		abi=$(ls "$CACHE" 2>/dev/null | grep '^6\.1\.0-[0-9]*-amd64$' | sort -V | while read -r a; do
			[ -f "$CACHE/$a/ready" ] && echo "$a"; done | tail -n 1)
		[ -n "$abi" ] || skip "no Debian 6.1 kernel (linux-image-6.1.0-N-amd64 with headers and linux-source-6.1 of its version) in the package lists and none cached; run apt-get update"
		k="$abi $(cat "$CACHE/$abi/version")"
	fi
	echo "$k"
}

# prepare: $KDIR/{vmlinuz,root/lib/modules/ABI,version,ready}
prepare() {
	[ "$(uname -m)" = x86_64 ] || skip "the lab boots Debian's amd64 kernel; this machine is $(uname -m)"
	set -- $(kernel)
	ABI=$1 VER=$2
	KDIR=$CACHE/$ABI
	[ -f "$KDIR/ready" ] && return 0
	exec 8>"$CACHE/.prepare.lock"
	flock 8
	[ -f "$KDIR/ready" ] && { exec 8>&-; return 0; }
	for t in apt-get dpkg dpkg-deb xz make gcc-12 strip depmod cpio gzip; do
		command -v "$t" >/dev/null || command -v "/sbin/$t" >/dev/null ||
			skip "$t not installed (tests/setup.sh installs what the lab needs)"
	done
	say "preparing kernel $ABI ($VER) in $KDIR"
	work=$(mktemp -d "$CACHE/.work.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	mkdir "$work/debs" "$work/root"
	sandbox=
	[ "$(id -u)" -ne 0 ] || sandbox="-o APT::Sandbox::User=root"
	# (package lists older than the mirror name files it no longer has:
	# once more after apt-get update, where this user may run it)
	fetch() {
		# shellcheck disable=SC2086
		(cd "$work/debs" && apt-get -q $sandbox download "linux-image-$ABI=$VER" \
			"linux-headers-$ABI=$VER" "linux-headers-${ABI%-amd64}-common=$VER" \
			"linux-kbuild-6.1=$VER" "linux-source-6.1=$VER") >>"$work/download.log" 2>&1
	}
	fetch || { [ "$(id -u)" -eq 0 ] && apt-get -q update >>"$work/download.log" 2>&1 && fetch; } ||
		{ cat "$work/download.log" >&2; die "apt-get download failed"; }
	for d in "$work"/debs/linux-image-*.deb "$work"/debs/linux-headers-*.deb "$work"/debs/linux-kbuild-*.deb; do
		dpkg -x "$d" "$work/root"
	done
	# linux-source: only drivers/net/netdevsim, streamed out of the tarball
	dpkg-deb --fsys-tarfile "$work"/debs/linux-source-6.1_*.deb |
		tar -xO ./usr/src/linux-source-6.1.tar.xz | xz -dc |
		tar -C "$work" -x linux-source-6.1/drivers/net/netdevsim
	# The headers' Makefile includes the common half by its absolute path
	# in /usr/src; point it at the unpacked copy (the other links are relative).
	hdr=$work/root/usr/src/linux-headers-$ABI
	sed -i "s|/usr/src/|$work/root/usr/src/|" "$hdr/Makefile"
	make -s -C "$hdr" M="$work/linux-source-6.1/drivers/net/netdevsim" CONFIG_NETDEVSIM=m \
		-j"$(nproc)" modules >"$work/netdevsim.log" 2>&1 ||
		{ tail -n 30 "$work/netdevsim.log" >&2; die "netdevsim did not build against linux-headers-$ABI"; }
	mkdir -p "$work/root/lib/modules/$ABI/extra"
	strip --strip-debug -o "$work/root/lib/modules/$ABI/extra/netdevsim.ko" \
		"$work/linux-source-6.1/drivers/net/netdevsim/netdevsim.ko"
	depmod -b "$work/root" "$ABI"
	mkdir "$work/k"
	mv "$work/root/boot/vmlinuz-$ABI" "$work/k/vmlinuz"
	mv "$work/root/boot/config-$ABI" "$work/k/config"
	mkdir -p "$work/k/root/lib/modules"
	mv "$work/root/lib/modules/$ABI" "$work/k/root/lib/modules/"
	rm -f "$work/k/root/lib/modules/$ABI/build" "$work/k/root/lib/modules/$ABI/source"
	echo "$VER" >"$work/k/version"
	: >"$work/k/ready"
	rm -rf "$KDIR"
	mv "$work/k" "$KDIR"
	rm -rf "$work"
	trap - EXIT
	exec 8>&-
	say "kernel $ABI ready"
}

# The initramfs: busybox, /init and the modules needed to reach the host's
# root (virtio PCI, 9p, overlayfs), in dependency order; everything else is
# loaded in the guest from the cache's module tree, shared over 9p.
BOOT_MODULES="virtio_pci 9pnet_virtio 9p overlay"
# Loaded once the module tree is reachable (the rest on demand): rxe asks
# the crypto API for crc32 (crc32_generic); rdma_ucm and ib_uverbs are what
# rping and ibv_rc_pingpong open; netdevsim and veth; configfs (rdma_cm).
LAB_LOAD="configfs veth crc32_generic rdma_rxe ib_uverbs rdma_ucm netdevsim"
initramfs() {   # $1 output file
	bb=/bin/busybox
	[ -x "$bb" ] || skip "busybox not installed (busybox-static)"
	! ldd "$bb" >/dev/null 2>&1 || skip "$bb is not statically linked (install busybox-static)"
	ird=$(mktemp -d)
	mods=$KDIR/root/lib/modules/$ABI
	mkdir -p "$ird/bin" "$ird/mods" "$ird/dev" "$ird/proc" "$ird/sys" "$ird/host" "$ird/new" "$ird/rw" "$ird/lab"
	cp "$bb" "$ird/bin/busybox"
	cp "$LAB_DIR/init" "$ird/init"
	chmod 755 "$ird/init"
	echo "$ABI" >"$ird/abi"
	# depth first over modules.dep: each module after what it needs
	order=$(awk -v want="$BOOT_MODULES" '
		function base(p) { sub(/.*\//, "", p); sub(/\.ko.*$/, "", p); gsub(/-/, "_", p); return p }
		function visit(m,   i, n, d) {
			if (m in seen) return; seen[m] = 1
			n = split(deps[m], d, " ")
			for (i = 1; i <= n; i++) visit(base(d[i]))
			print path[m]
		}
		{ k = $1; sub(/:$/, "", k); m = base(k); path[m] = k; deps[m] = ""
		  for (i = 2; i <= NF; i++) deps[m] = deps[m] " " $i }
		END { n = split(want, w, " "); for (i = 1; i <= n; i++) {
			if (!(w[i] in path)) { print "missing " w[i] > "/dev/stderr"; exit 1 }
			visit(w[i]) } }' "$mods/modules.dep") || die "a boot module is missing from $mods"
	i=10
	for p in $order; do
		cp "$mods/$p" "$ird/mods/$i-$(basename "$p")"
		i=$((i + 1))
	done
	(cd "$ird" && find . | cpio -o -H newc --quiet) | gzip -1 >"$1"
	rm -rf "$ird"
}

cmd_run() {
	out= tmo=$LAB_TIMEOUT envf=
	while getopts o:t:e: o; do
		case $o in
		o) out=$OPTARG ;;
		t) tmo=$OPTARG ;;
		e) envf=$OPTARG ;;
		*) die "usage: lab.sh run [-o DIR] [-t SECONDS] [-e FILE] SCRIPT [ARG...]" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -ge 1 ] || die "usage: lab.sh run [-o DIR] [-t SECONDS] [-e FILE] SCRIPT [ARG...]"
	script=$(realpath "$1") || die "no script $1"
	shift
	qemu=$(command -v qemu-system-x86_64 || true)
	[ -n "$qemu" ] || skip "qemu-system-x86_64 not installed (qemu-system-x86)"
	prepare
	if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/mlxcli-lab.XXXXXX"); say "output in $out"; fi
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	run=$(mktemp -d "${TMPDIR:-/tmp}/mlxcli-lab-run.XXXXXX")
	trap 'rm -rf "$run"' EXIT
	initramfs "$run/initrd"
	# What the guest's /init runs (in the guest, this share is /lab): the
	# script with its arguments and environment, quoted for sh.
	{
		echo "# written by tests/vm/lab.sh for one boot"
		echo "LAB_MODULES='$KDIR/root/lib/modules'"
		echo "LAB_LOAD='$LAB_LOAD'"
		q=$(printf '%s' "$script" | sed "s/'/'\\\\''/g")
		printf "LAB_SCRIPT='%s'\n" "$q"
		printf 'set --'
		for a in "$@"; do printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"; done
		echo
		[ -z "$envf" ] || { echo "# from $envf"; cat "$envf"; }
	} >"$run/job"
	rm -rf "$out/.lab" && mkdir "$out/.lab" && mv "$run/job" "$out/.lab/job"
	# One VM at a time on this machine (other work shares the cores).
	exec 9>"$CACHE/.vm.lock"
	if ! flock -n 9; then say "waiting for the VM another run holds"; flock 9; fi
	say "booting $ABI (TCG, 2 vCPUs, 1 GiB)"
	start=$(date +%s)
	# TCG: nested KVM hangs at kernel entry on the build machines.  No
	# network device; the host's / read-only, the output directory and the
	# job writable.
	rc=0
	timeout -k 10 "$tmo" "$qemu" -accel tcg -cpu ${LAB_CPU:-max} -smp 2 -m 1024 -nodefaults -no-user-config \
		-display none -no-reboot -nic none \
		-chardev file,id=con,path="$out/.lab/console.log" -serial chardev:con \
		-kernel "$KDIR/vmlinuz" -initrd "$run/initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 mitigations=off" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$out",mount_tag=out,security_model=none \
		</dev/null >"$out/.lab/qemu.log" 2>&1 || rc=$?
	exec 9>&-
	secs=$(($(date +%s) - start))
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || die "the VM did not finish within ${tmo}s (console: $out/.lab/console.log)"
	[ "$rc" -eq 0 ] || die "qemu failed ($rc): $(tail -n 5 "$out/.lab/qemu.log")"
	[ -f "$out/.lab/status" ] ||
		die "the guest never ran the script (console: $out/.lab/console.log): $(tail -n 5 "$out/.lab/console.log")"
	st=$(cat "$out/.lab/status")
	say "VM ran ${secs}s (booted in $(cat "$out/.lab/boot-secs" 2>/dev/null || echo '?')s), script exit $st"
	echo "$secs" >"$out/.lab/vm-secs"
	return "$st"
}

case ${1:-} in
prepare) prepare; echo "$KDIR" ;;
version) kernel ;;
run) shift; cmd_run "$@" ;;
*) echo "usage: lab.sh prepare | version | run [-o DIR] [-t SECONDS] [-e FILE] SCRIPT [ARG...]" >&2; exit 2 ;;
esac
