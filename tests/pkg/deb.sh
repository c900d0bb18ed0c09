#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package end to end (issue 20), on this machine, as root:
#   - build it with `dpkg-buildpackage -us -uc -b` from a clean copy of the
#     source tree (the git tree's files, or an unpacked tarball without its
#     build directories), DEB_BUILD_OPTIONS=nocheck unless set;
#   - lintian: any E: fails, warnings are printed;
#   - install it with apt-get, then use it as an operator would: the sample
#     host's devices (the reviewed expected text), every man page through
#     man, bash completion through bash-completion's own loader, zsh's
#     compinit finding the completion, /etc/mlxcli.conf registered as a
#     conffile and read by the binary, a dump-me-now into the default root;
#   - purge it and check nothing of it is left.
# It never replaces an mlxcli it did not install: with one present (a
# package, or a /usr/bin/mlxcli no package owns) it skips, saying why.
# Exit 0 pass, 1 fail, 77 skip (not root, tools missing, mlxcli present).
#
# usage: sh tests/pkg/deb.sh          (or `make check-deb` from a build dir)
set -u
# the binary under test is the one the package installs; every run of it
# below is in a clean environment (mlx), without lib.sh's variables
MLXCLI=${MLXCLI:-/usr/bin/mlxcli}
. "$(dirname "$0")/../cli/lib.sh"
installed=
skip() { echo "SKIP: $*"; exit 77; }
now() { date +%s; }
t0=$(now)

[ "$(id -u)" -eq 0 ] || skip "needs root: it installs the package on this machine and purges it"
for t in dpkg-buildpackage dh lintian apt-get fakeroot; do
	command -v "$t" >/dev/null 2>&1 || skip "$t not installed (tests/setup.sh installs it)"
done
status=$(dpkg-query -W -f='${Status}' mlxcli 2>/dev/null)
case $status in
"" | *not-installed) ;;
*) skip "the mlxcli package is on this machine ($status); this test would replace and purge it (dpkg --purge mlxcli first)" ;;
esac
if [ -e /usr/bin/mlxcli ]; then
	skip "/usr/bin/mlxcli exists and no package owns it (a make install with --prefix=/usr?); not clobbering it"
fi
for p in /etc/mlxcli.conf /var/lib/mlxcli /usr/share/mlxcli; do
	[ -e "$p" ] && skip "$p exists and belongs to no package; installing and purging the package would replace or remove it"
done

cleanup() {
	if [ -n "$installed" ]; then
		echo "deb: purging the package after a failure"
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q mlxcli >/dev/null 2>&1 || dpkg --purge mlxcli >/dev/null 2>&1
	fi
}
on_exit=cleanup
# World-readable, so that apt's _apt user can read the .deb, and a build
# with its checks on (DEB_BUILD_OPTIONS without nocheck) can run the tests
# that drop to nobody.
chmod 755 "$tmp"

# ---- a clean copy of the source ----
src=$tmp/mlxcli
mkdir "$src"
if [ -d "$TOP_SRCDIR/.git" ] || [ -f "$TOP_SRCDIR/.git" ]; then
	# The files git tracks or would track, as they are now (uncommitted
	# changes included): no build directories, nothing generated.
	(cd "$TOP_SRCDIR" && git ls-files -z --cached --others --exclude-standard |
		tar -c --null -T - -f -) | tar -x -C "$src" || { echo "FAIL: copying the git tree"; exit 1; }
	how="the git tree's files"
else
	# An unpacked release tarball: everything but build directories.
	tar -C "$TOP_SRCDIR" -c --exclude=./build --exclude='./build-*' --exclude=./_build \
		--exclude=./debian/build --exclude=./debian/.debhelper -f - . | tar -x -C "$src" ||
		{ echo "FAIL: copying the source tree"; exit 1; }
	chmod -R u+w "$src"
	# Configured in place (./configure in the source directory): the
	# package's out-of-tree configure would refuse that tree.
	if [ -f "$src/config.status" ]; then
		(cd "$src" && make -s distclean) >/dev/null 2>&1
	fi
	how="the source tree without build directories"
fi
ok "source copied: $how"

# ---- build ----
t=$(now)
# (lib.sh's variables stay out of the package's own build and tests)
(cd "$src" && env -u MLXCLI -u MLXCLI_SAMPLES_DIR -u MLXCLI_STATE_DIR \
	DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck} \
	dpkg-buildpackage -us -uc -b -J"$(nproc)") >"$tmp/build.log" 2>&1
rc=$?
tbuild=$(($(now) - t))
deb=$(ls "$tmp"/mlxcli_*.deb 2>/dev/null | head -1)
if [ "$rc" -ne 0 ] || [ -z "$deb" ]; then
	tail -n 40 "$tmp/build.log"
	echo "FAIL: dpkg-buildpackage -us -uc -b (exit $rc)"
	exit 1
fi
ok "dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck}): $(basename "$deb") in ${tbuild}s"
# With the checks on: dh_auto_test's unit and cli tiers.
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR): ' "$tmp/build.log" | sed 's/^/  dh_auto_test: /'
chmod 644 "$tmp"/*.deb
version=$(cd "$src" && dpkg-parsechangelog -S Version)
upstream=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ "$version" = "$upstream" ] && ok "debian/changelog's version is configure.ac's: $version" ||
	bad "debian/changelog says $version, configure.ac $upstream"

# ---- lintian ----
t=$(now)
lintian --info --display-level '>=warning' "$tmp"/mlxcli_*.changes >"$tmp/lintian.out" 2>&1
tlintian=$(($(now) - t))
grep -v 'running with root privileges is not recommended' "$tmp/lintian.out" | sed 's/^/  lintian: /'
nerr=$(grep -c '^E: ' "$tmp/lintian.out")
nwarn=$(grep -c '^W: ' "$tmp/lintian.out")
[ "$nerr" -eq 0 ] && ok "lintian: no errors, $nwarn warnings (${tlintian}s)" || bad "lintian: $nerr errors"

# ---- install ----
t=$(now)
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >"$tmp/install.log" 2>&1
rc=$?
installed=yes
if [ "$rc" -ne 0 ]; then
	tail -n 20 "$tmp/install.log"
	echo "FAIL: apt-get install $(basename "$deb") (exit $rc)"
	exit 1
fi
ok "apt-get install ./$(basename "$deb")"
# the units and the udev rule that starts mlxcli-reapply: installed where
# systemd and udev read them, none enabled (the operator enables the apply)
for f in /lib/systemd/system/mlxcli-monitor.service /lib/systemd/system/mlxcli-apply.service \
	/lib/systemd/system/mlxcli-reapply.service /lib/udev/rules.d/90-mlxcli-reapply.rules; do
	[ -f "$f" ] || bad "not installed: $f"
done
enabled=$(find /etc/systemd/system -name 'mlxcli-*' 2>/dev/null)
[ -z "$enabled" ] && ok "the units and the udev rule installed, no unit enabled" || bad "enabled: $enabled"

# The installed binary alone: no test-suite variables, a private state
# directory (the sample working copy) and HOME.
mlx() {
	env -u MLXCLI_SAMPLES_DIR -u MLXCLI_CONFIG -u MLXCLI_WRAP MLXCLI_STATE_DIR="$tmp/state" \
		HOME="$tmp/home" PATH=/usr/bin:/bin "$@"
}
[ "$(command -v mlxcli)" = /usr/bin/mlxcli ] || bad "mlxcli on PATH is '$(command -v mlxcli)'"
mlx mlxcli --version >"$tmp/version" 2>&1
grep -q "$version" "$tmp/version" && ok "mlxcli --version: $(head -1 "$tmp/version")" ||
	bad "mlxcli --version says '$(cat "$tmp/version")', the package is $version"
for host in cx5-ofed cx6dx-upstream; do
	mlx mlxcli --sample="$host" devices >"$tmp/devices" 2>"$tmp/devices.err"
	rc=$?
	if [ "$rc" -eq 0 ] && cmp -s "$tmp/devices" "$TOP_SRCDIR/tests/cli/expected/$host-devices.txt"; then
		ok "mlxcli --sample=$host devices: the expected text, from /usr/share/mlxcli/samples"
	else
		bad "mlxcli --sample=$host devices: exit $rc, $(head -c 300 "$tmp/devices.err")"
		diff "$TOP_SRCDIR/tests/cli/expected/$host-devices.txt" "$tmp/devices" | head -10
	fi
done

# Man pages: each page of man/ found by man and rendered.  A machine whose
# dpkg excludes /usr/share/man (container images) gets none installed.
if grep -qs '^path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
	echo "  note: dpkg excludes /usr/share/man here; man pages not checked"
elif ! command -v man >/dev/null 2>&1; then
	echo "  note: man not installed; man pages not checked"
else
	n=0
	for page in "$src"/man/*.8; do
		name=$(basename "$page" .8)
		path=$(man -w "$name" 2>/dev/null)
		case $path in
		/usr/share/man/man8/"$name".8.gz) n=$((n + 1)) ;;
		*) bad "man -w $name: '$path'" ;;
		esac
	done
	ok "man -w finds all $n pages in /usr/share/man/man8"
	MANPAGER=cat MANWIDTH=80 man mlxcli >"$tmp/man.txt" 2>"$tmp/man.err"
	if grep -q '^SYNOPSIS' "$tmp/man.txt" && grep -q 'mlxcli' "$tmp/man.txt" && [ ! -s "$tmp/man.err" ]; then
		ok "man mlxcli renders ($(wc -l <"$tmp/man.txt") lines, no warnings)"
	else
		bad "man mlxcli: $(head -c 300 "$tmp/man.err")"
	fi
fi

# bash: the completion file sourced as installed, and found by name through
# bash-completion's loader (what an interactive shell does on first TAB).
comp=/usr/share/bash-completion/completions/mlxcli
got=$(mlx bash -c '. "$1"; COMP_WORDS=(mlxcli d); COMP_CWORD=1; _mlxcli; printf "%s\n" "${COMPREPLY[@]}"' bash "$comp")
echo "$got" | grep -qx devices && ok "bash: . $comp; mlxcli d<TAB> -> $(echo $got)" ||
	bad "bash: mlxcli d<TAB> gave '$got' (wanted devices)"
if [ -f /usr/share/bash-completion/bash_completion ]; then
	got=$(mlx bash -c '. /usr/share/bash-completion/bash_completion; __load_completion mlxcli &&
		complete -p mlxcli && COMP_WORDS=(mlxcli sample ""); COMP_CWORD=2; _mlxcli;
		printf "%s\n" "${COMPREPLY[@]}"' 2>&1)
	echo "$got" | grep -qx reset && ok "bash-completion loads it by name: mlxcli sample <TAB> -> $(echo "$got" | sed 1d | tr "\n" " ")" ||
		bad "bash-completion's loader: '$got'"
else
	echo "  note: bash-completion not installed; its loader not checked"
fi
if command -v zsh >/dev/null 2>&1; then
	got=$(mlx zsh -fc 'autoload -Uz compinit; compinit -u -d "$1/zcompdump"; print -r -- $_comps[mlxcli]' zsh "$tmp")
	[ "$got" = _mlxcli ] && ok "zsh: compinit finds _mlxcli in /usr/share/zsh/vendor-completions" ||
		bad "zsh: compinit gives '$got' for mlxcli"
else
	echo "  note: zsh not installed; its completion not checked"
fi

# The configuration file: a conffile, as shipped, read by the binary.
conffiles=$(dpkg-query -W -f='${Conffiles}' mlxcli)
sum=$(md5sum "$src/etc/mlxcli.conf" | cut -d' ' -f1)
echo "$conffiles" | grep -q "^ /etc/mlxcli.conf $sum\$" && ok "/etc/mlxcli.conf is a conffile, as shipped" ||
	bad "conffiles: '$conffiles' (wanted /etc/mlxcli.conf $sum)"
mlx mlxcli -j dump-me-now list >"$tmp/list" 2>"$tmp/list.err"
grep -q '"dir":"/var/lib/mlxcli/dmn","total_count":128,"preserved_count":8' "$tmp/list" ||
	bad "dump-me-now list with the shipped /etc/mlxcli.conf: $(cat "$tmp/list" "$tmp/list.err")"
echo "dmn_total_count = 77" >>/etc/mlxcli.conf
mlx mlxcli -j dump-me-now list >"$tmp/list" 2>"$tmp/list.err"
grep -q '"total_count":77' "$tmp/list" && ok "mlxcli reads /etc/mlxcli.conf (a setting added there is used)" ||
	bad "dmn_total_count = 77 in /etc/mlxcli.conf, dump-me-now list says: $(cat "$tmp/list" "$tmp/list.err")"
# An incident in the default dump root, which purge must keep (evidence).
# a sample's incident goes to the host's root only when named (dmn.sh):
# named here, so that purge has an incident in the default root to keep
mlx mlxcli --sample -d 5e:00.0 dump-me-now --dir /var/lib/mlxcli/dmn --no-crdump --reason deb-test \
	>"$tmp/dmn" 2>"$tmp/dmn.err"
case $(cat "$tmp/dmn") in
/var/lib/mlxcli/dmn/dmn-*) ok "dump-me-now into /var/lib/mlxcli/dmn" ;;
*) bad "dump-me-now: $(cat "$tmp/dmn" "$tmp/dmn.err")" ;;
esac
tuse=$(($(now) - t))

# ---- purge: nothing of it left ----
# Its files and links; of its directories only its own (a shared one such
# as /lib is a link into /usr on a merged-/usr system, and stays).
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ || $6 ~ /mlxcli/ { print substr($6, 2) }' | sed 's|/$||' >"$tmp/contents"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -q mlxcli >"$tmp/purge.log" 2>&1 || {
	tail -n 20 "$tmp/purge.log"; bad "apt-get purge mlxcli"; }
# The incident survives the purge (evidence); removed by hand, nothing of
# mlxcli may be left.
incident=$(cat "$tmp/dmn")
[ -d "$incident" ] && ok "apt-get purge keeps the incident folder (evidence)" ||
	bad "apt-get purge removed the incident $incident"
rm -rf /var/lib/mlxcli
status=$(dpkg-query -W -f='${Status}' mlxcli 2>/dev/null)
case $status in
"" | *not-installed) installed= ;;
*) bad "after purge, dpkg says mlxcli is '$status'" ;;
esac
left=
while read -r p; do
	# Its own files, and its directories (the shared ones stay).
	[ -z "$p" ] && continue
	if [ ! -d "$p" ] || [ -L "$p" ]; then
		[ -e "$p" ] || [ -L "$p" ] && left="$left $p"
	else
		case $p in *mlxcli*) left="$left $p" ;; esac
	fi
done <"$tmp/contents"
for p in /etc/mlxcli.conf /etc/mlxcli /var/lib/mlxcli /usr/bin/mlxcli /usr/share/mlxcli; do
	[ -e "$p" ] && left="$left $p"
done
[ -z "$left" ] && ok "apt-get purge: none of its $(wc -l <"$tmp/contents") paths, /etc/mlxcli.conf left" ||
	bad "left after purge:$left"

echo "deb: $(($(now) - t0)) s in all: build ${tbuild} s, lintian ${tlintian} s, install and use ${tuse} s"
finish
