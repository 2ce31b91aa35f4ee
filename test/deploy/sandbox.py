#!/usr/bin/python3
"""
Runs a command confined the way a systemd unit's [Service] section confines it, as far as that is done without a
running systemd (the tests have none): test/deploy/units.test.ts runs planner serve and Litestream in it, to show
that the hardening of deploy/*.service does not break them.

    sandbox.py <unit file> <state folder> <user or -> -- <command> [args...]

What it applies, in systemd's order (credentials and mounts first, the system-call filter last, then exec):
- with --mounts (run it under `unshare --mount --propagation private`, as root): ProtectProc= and ProcSubset= (a new
  /proc with hidepid= and subset=), PrivateTmp= (empty /tmp and /var/tmp), ProtectHome=yes (empty /home, /root,
  /run/user), ProtectSystem=strict (every mount read-only but /dev, /proc, /sys, the private /tmp and the state
  folder, the unit's StateDirectory);
- User= as the given user (from root: no supplementary groups, no capabilities left), UMask=;
- SystemCallFilter= (allow list, @default always allowed, later ~lines taken out; the groups as this machine's
  `systemd-analyze syscall-filter` lists them), SystemCallErrorNumber= (else a filtered call kills),
  SystemCallArchitectures=native, RestrictAddressFamilies= (socket() of another family: EAFNOSUPPORT),
  RestrictNamespaces=yes (unshare, setns and clone with a namespace flag: EPERM; clone3: ENOSYS, so that the C
  library falls back to clone, as systemd does) and NoNewPrivileges= (libseccomp sets it), with Debian's libseccomp
  binding (python3-seccomp), the library systemd itself uses.
What it does not: PrivateDevices=, PrivateUsers=, ProtectKernel*=, ProtectClock= (beyond the filter),
LockPersonality=, RestrictRealtime=, RestrictSUIDSGID=: the test relies on systemd-analyze for those.
"""
import errno
import os
import pwd
import socket
import subprocess
import sys

import seccomp

# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
NAMESPACE_FLAGS = [0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080]
AF_MAX = 46  # glibc 2.36 (Debian 12): PF_MAX


def service_settings(unit):
    """The [Service] section's settings as (name, value) pairs, in order."""
    settings, section = [], None
    with open(unit) as text:
        for line in text:
            line = line.strip()
            if line.startswith('['):
                section = line
            elif section == '[Service]' and '=' in line and not line.startswith('#'):
                name, value = line.split('=', 1)
                settings.append((name, value))
    return settings


def syscall_groups():
    """Each group of `systemd-analyze syscall-filter` with its system calls, nested groups resolved."""
    listed, current = {}, None
    for line in subprocess.run(['systemd-analyze', 'syscall-filter'], check=True, capture_output=True, text=True).stdout.splitlines():
        if line.startswith('@'):
            current = line.strip()
            listed[current] = []
        elif current and line.strip() and not line.strip().startswith('#'):
            listed[current].append(line.strip())

    def expand(name, seen=()):
        calls = set()
        for item in listed[name]:
            calls |= expand(item, seen + (name,)) if item.startswith('@') and item not in seen else {item}
        return calls

    return {name: expand(name) for name in listed}


def allowed_calls(settings, groups):
    """The system calls SystemCallFilter= allows (systemd's rules for several lines), or None without a filter."""
    allowed = None
    for name, value in settings:
        if name != 'SystemCallFilter':
            continue
        deny = value.startswith('~')
        names = set()
        for item in value.lstrip('~').split():
            names |= groups[item] if item.startswith('@') else {item}
        if allowed is None:
            if deny:
                raise SystemExit('sandbox.py: a deny list first is not emulated')
            allowed = set(groups['@default']) | names
        elif deny:
            allowed -= names
        else:
            allowed |= names
    return allowed


def mount(*args):
    subprocess.run(['mount', *args], check=True)


def confine_mounts(settings, state):
    """ProtectProc=, ProcSubset=, PrivateTmp=, ProtectHome=, ProtectSystem=strict in this mount namespace."""
    values = dict(settings)
    options = []
    if values.get('ProtectProc'):
        options.append(f"hidepid={values['ProtectProc']}")
    if values.get('ProcSubset'):
        options.append(f"subset={values['ProcSubset']}")
    if options:
        mount('-t', 'proc', '-o', ','.join(options), 'proc', '/proc')
    held = os.open(state, os.O_PATH | os.O_DIRECTORY)  # the state folder, also when /tmp is replaced below
    private = []
    if values.get('PrivateTmp') == 'yes':
        for folder in ['/tmp', '/var/tmp']:
            mount('-t', 'tmpfs', '-o', 'mode=1777', 'tmpfs', folder)
            private.append(folder)
    if values.get('ProtectHome') == 'yes':
        for folder in ['/home', '/root', '/run/user']:
            if os.path.isdir(folder):
                mount('-t', 'tmpfs', '-o', 'ro,mode=000', 'tmpfs', folder)
    os.makedirs(state, exist_ok=True)
    mount('--no-canonicalize', '--bind', f'/proc/{os.getpid()}/fd/{held}', state)  # the folder held, not its path
    os.close(held)
    if values.get('ProtectSystem') == 'strict':
        keep = ['/proc', '/sys', '/dev', state, *private]
        with open('/proc/self/mountinfo') as info:
            points = [line.split()[4] for line in info]
        for point in points:
            if not any(point == kept or point.startswith(kept.rstrip('/') + '/') for kept in keep):
                subprocess.run(['mount', '-o', 'remount,bind,ro', point], check=False, stderr=subprocess.DEVNULL)


def filter_calls(settings, groups):
    """Loads the unit's system-call filter into this process (inherited by what it runs)."""
    values = dict(settings)
    allowed = allowed_calls(settings, groups)
    if allowed is None:
        return
    error = values.get('SystemCallErrorNumber')
    refused = seccomp.ERRNO(getattr(errno, error)) if error else seccomp.KILL_PROCESS
    rules = seccomp.SyscallFilter(defaction=refused)

    def rule(action, call, *conditions):
        if action != refused:  # libseccomp refuses a rule that only repeats the default action
            rules.add_rule(action, call, *conditions)

    special = {'socket', 'unshare', 'setns', 'clone', 'clone3'}
    for call in sorted(allowed - special):
        try:
            rule(seccomp.ALLOW, call)
        except (RuntimeError, ValueError):
            pass  # not a system call of this architecture
    families = values.get('RestrictAddressFamilies', '').split()
    if 'socket' in allowed:
        if families:
            numbers = {getattr(socket, family) for family in families}
            for family in range(AF_MAX):
                action = seccomp.ALLOW if family in numbers else seccomp.ERRNO(errno.EAFNOSUPPORT)
                rule(action, 'socket', seccomp.Arg(0, seccomp.EQ, family))
        else:
            rule(seccomp.ALLOW, 'socket')
    restrict = values.get('RestrictNamespaces') == 'yes'
    for call in ['unshare', 'clone']:
        if call not in allowed:
            continue
        if restrict:
            for flag in NAMESPACE_FLAGS:
                rule(seccomp.ERRNO(errno.EPERM), call, seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
            rule(seccomp.ALLOW, call, seccomp.Arg(0, seccomp.MASKED_EQ, sum(NAMESPACE_FLAGS), 0))
        else:
            rule(seccomp.ALLOW, call)
    if 'clone3' in allowed:
        rule(seccomp.ERRNO(errno.ENOSYS) if restrict else seccomp.ALLOW, 'clone3')
    if 'setns' in allowed and not restrict:
        rule(seccomp.ALLOW, 'setns')
    rules.load()


def main():
    args = sys.argv[1:]
    mounts = args[0] == '--mounts'
    if mounts:
        args = args[1:]
    unit, state, user, separator, *command = args
    if separator != '--' or not command:
        raise SystemExit(__doc__)
    settings = service_settings(unit)
    groups = syscall_groups()  # before anything is confined: systemd-analyze needs the whole system
    if mounts:
        confine_mounts(settings, state)
    if user != '-':
        entry = pwd.getpwnam(user)
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
    umask = dict(settings).get('UMask')
    if umask:
        os.umask(int(umask, 8))
    os.chdir(state)
    filter_calls(settings, groups)
    os.execvp(command[0], command)


if __name__ == '__main__':
    main()
