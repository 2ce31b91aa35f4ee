#!/usr/bin/env bash
# The system packages the tests need, and the one place that lists them (Debian's names). Bash, so that it runs before
# `npm ci` and on a machine whose own Node is 20.
#
#   bash scripts/test-packages.sh            silent when everything is there; else ONE line on stderr naming what is
#                                            missing and the one command that installs it all, exit 1 (`npm test`
#                                            runs this first, so it stops in its first second, not after 7 minutes)
#   bash scripts/test-packages.sh --install  installs what is missing with apt-get, as root (the README's test line
#                                            and so .ci/run); not root, or no apt-get: that one line, exit 1
#
# `npm test` never installs: a test command that installs servers as a side effect would surprise whoever runs it on
# their own machine, and apt-get needs root and the network. The README's test line asks for it in words.
#
# Why each is needed: the prompt tests drive `planner init` on a pseudo-terminal with util-linux `script` (bsdutils,
# essential on Debian, not always in containers); the README test runs the demo's printed curl calls (curl); the
# browser tests (test/browser/) drive Debian's Chromium with playwright-core (chromium; fonts-dejavu-core for the
# page's text); the replication tests (test/replication/) start Debian's OpenSSH server as an SFTP replica
# (openssh-server; the test starts its own sshd); the calendar tests (test/calendar/) start Debian's Radicale as a real
# CalDAV server, each its own on a free port (radicale); the README's reverse-proxy snippets run in Debian's nginx,
# Caddy and Apache, each started by the test on a free port with its own configuration (nginx-light, caddy, apache2);
# the units' test (test/deploy/) runs `systemd-analyze security` and `verify` (systemd: its tools, no running systemd
# needed) and confines planner and Litestream with the units' system-call filter through libseccomp
# (python3-seccomp). Each is probed where the tests look for it.
#
# TEST_PACKAGES_ROOT (for test/docs/test-packages.test.ts only): a folder the probed paths are taken under, so that a
# test can show a machine without them; commands are looked up on PATH.
set -uo pipefail
root=${TEST_PACKAGES_ROOT:-}

probe() { # probe <package> <test...>: the package is missing when the test fails
  local package=$1
  shift
  "$@" >/dev/null 2>&1 || missing+=("$package")
}
check() { # fills `missing`
  missing=()
  probe bsdutils command -v script
  probe curl command -v curl
  probe chromium test -x "$root/usr/bin/chromium"
  probe fonts-dejavu-core test -e "$root/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
  probe openssh-server test -x "$root/usr/sbin/sshd"
  probe radicale test -x "$root/usr/bin/radicale"
  probe nginx-light test -x "$root/usr/sbin/nginx"
  probe caddy test -x "$root/usr/bin/caddy"
  probe apache2 test -x "$root/usr/sbin/apache2"
  probe systemd command -v systemd-analyze
  probe python3-seccomp "$root/usr/bin/python3" -c 'import seccomp'
}
check
((${#missing[@]})) || exit 0

if [[ "$(id -u)" == 0 ]]; then
  install='bash scripts/test-packages.sh --install'
elif command -v sudo >/dev/null; then
  install='sudo bash scripts/test-packages.sh --install'
else
  install="su -c 'bash scripts/test-packages.sh --install'"
fi
lacks="planner's tests need Debian packages this machine lacks (${missing[*]})"
if ! command -v apt-get >/dev/null; then
  echo "$lacks: there is no apt-get here, so install them (or what your system calls them) by hand" >&2
  exit 1
fi
if [[ "${1:-}" != --install || "$(id -u)" != 0 ]]; then
  echo "$lacks: to install them all, run  $install" >&2
  exit 1
fi

# Debian starts the services its packages install (sshd, nginx, Apache): on a machine that runs systemd, nginx and
# Apache then both want port 80, and a service that cannot start fails its package's install. The tests start their
# own, on free ports, and need none running; policy-rc.d (Debian's switch for this, which systemd's helpers obey too)
# keeps them stopped while this installs, unless the machine has one of its own.
policy="$root/usr/sbin/policy-rc.d"
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\n# planner scripts/test-packages.sh: start no service while it installs\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
echo "installing what the tests need: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq "${missing[@]}" || exit 1
check
if ((${#missing[@]})); then
  echo "apt-get installed, but the tests still lack ${missing[*]}: see scripts/test-packages.sh for where each is looked for" >&2
  exit 1
fi
