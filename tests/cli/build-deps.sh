#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every library configure.ac requires is used by the sources (a module
# required and never included costs every builder a package for nothing),
# and tests/setup.sh and debian/control install exactly the -dev packages
# of the modules configure requires.
. "$(dirname "$0")/lib.sh"
cd "$TOP_SRCDIR" || exit 1
# pkg-config module -> a header its users include, and its Debian package
map() {
	case $1 in
	libpci) echo "pci/pci.h libpci-dev" ;;
	libnl-3.0) echo "netlink/netlink.h libnl-3-dev" ;;
	libnl-genl-3.0) echo "netlink/genl/ libnl-genl-3-dev" ;;
	libnl-route-3.0) echo "netlink/route/ libnl-route-3-dev" ;;
	jansson) echo "jansson.h libjansson-dev" ;;
	libedit) echo "editline/ libedit-dev" ;;
	cmocka) echo "cmocka.h libcmocka-dev" ;;
	*) echo "" ;;
	esac
}
mods=$(sed -n 's/^PKG_CHECK_MODULES(\[[A-Z_]*\], *\[\([^]]*\)\].*/\1/p' configure.ac |
	tr ' ' '\n' | grep '^[a-z]')
[ -n "$mods" ] || bad "no PKG_CHECK_MODULES read from configure.ac"
for m in $mods; do
	# shellcheck disable=SC2046 # two words: header, package
	set -- $(map "$m")
	if [ $# -ne 2 ]; then
		bad "configure.ac requires $m, which this test does not know: add it to map()"
		continue
	fi
	if grep -rqs "#include [<\"]$1" lib cmd tests/unit tests/fuzz tests/kernel; then
		ok "$m is used (#include <$1...>)"
	else
		bad "configure.ac requires $m, but no source includes <$1...>"
	fi
	grep -qw -- "$2" tests/setup.sh || bad "tests/setup.sh PKGS lacks $2 (configure needs $m)"
	[ ! -f debian/control ] || grep -qw -- "$2" debian/control ||
		bad "debian/control Build-Depends lacks $2 (configure needs $m)"
done
# and no -dev library package is installed for a module configure dropped
for p in $(grep -o 'lib[a-z0-9-]*-dev' tests/setup.sh debian/control 2>/dev/null | cut -d: -f2 | sort -u); do
	found=
	for m in $mods; do
		# shellcheck disable=SC2046
		set -- $(map "$m")
		[ "${2:-}" = "$p" ] && found=1
	done
	case $p in libclang-rt-*) found=1 ;; esac   # the sanitizer runtime, not a configure module
	[ -n "$found" ] || bad "$p is installed (tests/setup.sh or debian/control) but configure requires no module of it"
done
finish
