#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# debian/control's Build-Depends name exactly the -dev packages configure
# needs: every pkg-config module configure.ac checks (PKG_CHECK_MODULES)
# maps, through the .pc file pkg-config finds and dpkg's record of who owns
# it, to a -dev package in Build-Depends, and Build-Depends holds no other
# -dev package.  A new library in configure.ac without its package in
# debian/control (or the reverse) fails here, not on a fresh build machine.
set -u
. "$(dirname "$0")/../cli/lib.sh"
need dpkg-query pkg-config

# The modules: the second argument of each PKG_CHECK_MODULES, without the
# version constraints ("jansson >= 2.12" is jansson).
sed -n 's/^[[:space:]]*PKG_CHECK_MODULES(\[[^]]*\],[[:space:]]*\[\([^]]*\)\].*/\1/p' \
	"$TOP_SRCDIR/configure.ac" | tr ' ' '\n' |
	awk '/^[<>=!]/ { skip = 1; next } skip { skip = 0; next } NF { print }' >"$tmp/modules"
[ -s "$tmp/modules" ] || { echo "FAIL: no PKG_CHECK_MODULES found in configure.ac"; exit 1; }

: >"$tmp/needed"
while read -r m; do
	pc=$(pkg-config --path "$m" 2>/dev/null) || { echo "SKIP: pkg-config finds no $m (tests/setup.sh installs it)"; exit 77; }
	pc=$(realpath "$pc")
	pkg=$(dpkg-query -S "$pc" 2>/dev/null | sed -n '1s/:.*//p')
	[ -n "$pkg" ] || { echo "SKIP: $pc ($m) belongs to no package"; exit 77; }
	echo "  $m: $pc, package $pkg"
	echo "$pkg" >>"$tmp/needed"
done <"$tmp/modules"
sort -u "$tmp/needed" -o "$tmp/needed"

# Build-Depends: the field and its continuation lines, one name per entry
# (versions, architectures and build profiles dropped).
awk '/^Build-Depends:/ { f = 1; sub(/^Build-Depends:/, ""); print; next }
     f && /^[ \t]/ { print; next } { f = 0 }' "$TOP_SRCDIR/debian/control" |
	tr ',' '\n' | sed 's/[[(<].*//; s/:[a-z]*//; s/[[:space:]]//g' | sed '/^$/d' | sort -u >"$tmp/declared"
grep -- '-dev$' "$tmp/declared" >"$tmp/declared-dev"

if cmp -s "$tmp/needed" "$tmp/declared-dev"; then
	ok "Build-Depends -dev packages are exactly configure's: $(tr '\n' ' ' <"$tmp/needed")"
else
	for p in $(comm -23 "$tmp/needed" "$tmp/declared-dev"); do
		bad "configure needs $p, not in debian/control's Build-Depends"
	done
	for p in $(comm -13 "$tmp/needed" "$tmp/declared-dev"); do
		bad "Build-Depends has $p, which configure does not ask for"
	done
fi
# configure runs pkg-config (PKG_PROG_PKG_CONFIG); dh_autoreconf comes with
# debhelper itself.
grep -qx 'pkg-config\|pkgconf' "$tmp/declared" || bad "Build-Depends lacks pkg-config"
grep -qx 'debhelper-compat' "$tmp/declared" || bad "Build-Depends lacks debhelper-compat"
finish
