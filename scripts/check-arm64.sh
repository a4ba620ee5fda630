#!/usr/bin/env bash
# The Pi install proven on an Arm Debian 12 root, from this x86 machine (too slow for CI: run it
# by hand before a release, and put its output in docs/deployment.md):
#
#   sudo scripts/check-arm64.sh                 # arm64 (a Pi 3, 4, 5, Zero 2 W on a 64-bit OS)
#   sudo scripts/check-arm64.sh --arch armhf    # 32-bit Arm (what a 32-bit OS runs)
#   sudo scripts/check-arm64.sh --work DIR      # where the roots and the cache go
#
# Each step, timed:
#   1. the host's tools: qemu-user-static, debootstrap and binfmt-support (apt-get when missing),
#      binfmt_misc mounted, qemu's handler for the architecture enabled;
#   2. a Debian 12 root made by debootstrap, once: cached as DIR/bookworm-ARCH-base.tar, so a
#      rerun only unpacks it (delete the tar to start from the archive again);
#   3. a fresh root unpacked from it, a fresh clone of this checkout's HEAD in /root/mafia-table
#      (what is not committed is not checked);
#   4. the documented install, `scripts/install-pi.sh` with no options, run as root in the root
#      under qemu-user (apt-get, pip and the rest run as Arm programs);
#   5. the service files in place: the unit (enabled, and `systemd-analyze verify` passes), the
#      udev rule, the broker's config and passwords, the table's config; lgpio imports in the
#      venv (and where it came from);
#   6. `mafia-table doctor` names what this root lacks to be a table (no Pi here) and exits 2;
#   7. the installed broker and the installed controller (`run --sim`, as the service's user)
#      started in a network namespace of their own (loopback only: the host's port 1883 is not
#      touched), and a press of seat 3 (`sim/press`) reaches MQTT as `event/seat/press`, read
#      by the observer account with its installed password; the controller stops on SIGTERM;
#   8. `--uninstall` removes the program and keeps the config and journal; `--uninstall --purge`
#      removes them and the service's user.
# No systemd runs in a chroot, so the service is started by hand as its unit would (same user,
# same command but --sim); `systemctl` there only enables it.
#
# Needs root (debootstrap, chroot, mounts, namespaces) and the network to Debian and PyPI.
set -Eeuo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"

ARCH=arm64
WORK=/var/tmp/mafia-table-check
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCH="$2"; shift 2 ;;
        --work) WORK="$(realpath -m "$2")"; shift 2 ;;
        -h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "check-arm64: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$ARCH" in
    arm64) QEMU=qemu-aarch64 ;;
    armhf) QEMU=qemu-arm ;;
    *) echo "check-arm64: --arch takes arm64 or armhf" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "check-arm64: run it as root (sudo)" >&2; exit 2; }
case "$WORK/" in
    "$SRC"/*) echo "check-arm64: --work must be outside the checkout ($SRC)" >&2; exit 2 ;;
esac

ROOT="$WORK/$ARCH-root"
BASE="$WORK/bookworm-$ARCH-base.tar"
STEP="starting"
STARTED=$(date +%s.%N)
TIMES=()

trap 'code=$?; if [ "$BASH_SUBSHELL" -eq 0 ]; then
        echo "check-arm64: FAILED while $STEP: \`$BASH_COMMAND\` exited $code" >&2; fi
      exit "$code"' ERR
trap 'unmount' EXIT

say() { echo "check-arm64: $*"; }

# step NAME: start timing step NAME (and end the one before)
STEP_START=""
step() {
    finish_step
    STEP="$1"
    STEP_START=$(date +%s.%N)
    say "== $STEP"
}
finish_step() {
    if [ -n "$STEP_START" ]; then
        local took
        took=$(echo "$(date +%s.%N) - $STEP_START" | bc)
        TIMES+=("$(printf '%7.1f s  %s' "$took" "$STEP")")
        say "   $STEP: $(printf '%.1f' "$took") s"
    fi
    STEP_START=""
}

unmount() {
    stop_in_root
    for mount in "$ROOT/dev" "$ROOT/proc"; do
        if mountpoint -q "$mount"; then umount -R "$mount"; fi
    done
}

# gone PATH...: none of them is in the root; there PATH...: each is
gone() {
    for path in "$@"; do
        [ ! -e "$ROOT$path" ] && [ ! -L "$ROOT$path" ] \
            || { echo "check-arm64: $path is still there" >&2; false; }
    done
}
there() {
    for path in "$@"; do  # a symlink's absolute target is the root's: followed in the root
        in_root -- test -e "$path" || { echo "check-arm64: $path is missing" >&2; false; }
    done
}

# in_root [--own-net] -- COMMAND...: COMMAND in the root, as root; --own-net: in network and
# PID namespaces of their own (loopback only; whatever it leaves running ends with it). No
# systemd runs in the root: the install enables the services for a first boot (as for a card's
# image being built) and starts none.
in_root() {
    local own=()
    if [ "$1" = --own-net ]; then
        own=(unshare --net --pid --fork --mount-proc="$ROOT/proc"); shift
    fi
    shift  # --
    local proxies=()  # this machine's way out, if it has one
    for var in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        if [ -n "${!var:-}" ]; then proxies+=("$var=${!var}"); fi
    done
    "${own[@]}" chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 "${proxies[@]}" "$@"
}

# stop_in_root: end every process still running in the root (a daemon a package started)
stop_in_root() {
    local proc
    for proc in /proc/[0-9]*; do
        if [ "$(readlink "$proc/root" 2>/dev/null)" = "$ROOT" ]; then
            say "stopping $(tr '\0' ' ' < "$proc/cmdline" 2>/dev/null) (pid ${proc#/proc/})"
            kill -KILL "${proc#/proc/}" 2>/dev/null || true
        fi
    done
}

step "the host's tools (qemu-user-static, debootstrap, binfmt_misc)"
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v "$QEMU-static" >/dev/null || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
command -v bc >/dev/null || missing+=(bc)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable "$QEMU"
say "$(head -n 1 "/proc/sys/fs/binfmt_misc/$QEMU"): $(sed -n 's/^interpreter //p' \
    "/proc/sys/fs/binfmt_misc/$QEMU") ($("$QEMU-static" --version | head -n 1))"

step "a Debian 12 $ARCH root (debootstrap, cached)"
mkdir -p "$WORK"
if [ -f "$BASE" ]; then
    say "from the cache $BASE ($(date -r "$BASE" '+%Y-%m-%d'))"
else
    rm -rf "$WORK/base-$ARCH"
    debootstrap --arch="$ARCH" bookworm "$WORK/base-$ARCH" "$MIRROR" > "$WORK/debootstrap.log"
    tar -C "$WORK/base-$ARCH" -cf "$BASE.part" . && mv "$BASE.part" "$BASE"
    rm -rf "$WORK/base-$ARCH"
    say "made, and cached as $BASE"
fi

step "a fresh root and a fresh clone of this checkout"
unmount
rm -rf "$ROOT"
mkdir -p "$ROOT"
tar -C "$ROOT" -xf "$BASE"
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"
mount -t proc proc "$ROOT/proc"
# this machine's network, carried in (a card in a club needs none of it): its DNS, and the
# certificate authorities it trusts beyond Debian's (a network that inspects TLS on its way out)
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# (Debian's ca-certificates, which the install brings, adds them to the root's trust)
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    install -d "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    say "this machine's own CA certificates go into the root, for its way out to PyPI"
fi
git clone --quiet "$SRC" "$ROOT/root/mafia-table"
say "$(cat "$ROOT/etc/debian_version") $(in_root -- dpkg --print-architecture)," \
    "$(in_root -- uname -m) under qemu; $(git -C "$ROOT/root/mafia-table" log -1 --format='%h %cs')"

step "the documented install: sudo scripts/install-pi.sh"
in_root -- /bin/sh -c 'cd /root/mafia-table && scripts/install-pi.sh' 2>&1 \
    | sed "/^WARNING: Location 'file:/d; s/^/    /"  # (this machine's pip configuration)
stop_in_root  # a daemon a package's script started: not on this machine's own ports

step "the service files, the unit verified, lgpio in the venv"
for file in /etc/systemd/system/mafia-table.service \
            /etc/systemd/system/multi-user.target.wants/mafia-table.service \
            /etc/udev/rules.d/70-mafia-table.rules /etc/mosquitto/conf.d/mafia.conf \
            /etc/mosquitto/mafia.acl /etc/mosquitto/mafia.passwd /etc/mafia-table/table.toml \
            /etc/mafia-table/broker.pass /etc/mafia-table/tls/server.crt; do
    there "$file"
    say "   $(in_root -- stat -c '%A %U:%G' "$file") $file"
done
in_root -- systemd-analyze verify /etc/systemd/system/mafia-table.service
say "   systemd-analyze verify mafia-table.service: ok"
say "   $(in_root -- /opt/mafia-table/venv/bin/python -c \
    'import lgpio, platform; print("lgpio", lgpio.__file__, "on", platform.machine())')"

step "mafia-table doctor names what this root lacks (exit 2)"
code=0
in_root -- /opt/mafia-table/venv/bin/mafia-table doctor 2>&1 | sed 's/^/    /' || code=$?
[ "$code" -eq 2 ] || { echo "check-arm64: doctor exited $code, not 2" >&2; false; }

step "the installed broker and controller (run --sim), a press reaches MQTT"
in_root --own-net -- /bin/bash -s <<'IN_ROOT' 2>&1 | sed 's/^/    /'
set -euo pipefail
ip link set lo up
table="$(sed -n '/^table = "/{s/^table = "\([^"]*\)".*/\1/p;q}' /etc/mafia-table/table.toml)"
install -d -o mosquitto /run/mosquitto /var/log/mosquitto
mosquitto -c /etc/mosquitto/mosquitto.conf &
for _ in $(seq 300); do  # listening, before the controller looks (it would start its own)
    (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null && break
    sleep 0.1
done
# as its unit runs it, the controller itself its own process (setpriv execs it: runuser would
# stay its parent, and answer a SIGTERM with its own 143)
setpriv --reuid=mafia-table --regid=mafia-table --init-groups \
    env HOME=/var/lib/mafia-table /opt/mafia-table/venv/bin/mafia-table \
    run --sim --config /etc/mafia-table/table.toml > /tmp/controller.log 2>&1 &
controller=$!
# the observer (its installed password) waits for the table's state: the controller has
# connected and subscribed; then the technician (its installed password) presses seat 3 on
# the simulated table and the event must come
checked=0
/opt/mafia-table/venv/bin/python - "$table" <<'PY' || checked=$?
import json
import sys
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

table = sys.argv[1]
prefix = f"mafia/{table}/"
secret = lambda name: open(f"/etc/mafia-table/{name}.pass").read().strip()  # noqa: E731
state, pressed = threading.Event(), threading.Event()
seen = []


def on_connect(client, userdata, flags, reason, properties):
    if reason.is_failure:
        sys.exit(f"observer refused: {reason}")
    client.subscribe([(prefix + "state", 1), (prefix + "event/#", 1)])


def on_message(client, userdata, message):
    if message.topic == prefix + "state":
        state.set()
    elif message.topic == prefix + "event/seat/press":
        seen.append(json.loads(message.payload))
        pressed.set()


observer = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="check-observer")
observer.username_pw_set("observer", secret("observer"))
observer.on_connect, observer.on_message = on_connect, on_message
observer.connect_async("127.0.0.1", 1883)
observer.loop_start()
if not state.wait(300):
    sys.exit("no state from the controller in 300 s")
print(f"the controller is up: {prefix}state came")
hand = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="check-hand")
hand.username_pw_set("technician", secret("technician"))
hand.connect("127.0.0.1", 1883)
hand.loop_start()
for verb in ("press", "release"):
    hand.publish(prefix + f"sim/{verb}", json.dumps({"seat": 3}), qos=1).wait_for_publish(30)
if not pressed.wait(60):
    sys.exit("seat 3's press never reached MQTT")
event = seen[0]
assert event["seat"] == 3, event
print(f"{prefix}event/seat/press: seat {event['seat']}, source {event['source']}, "
      f"seq {event['seq']}")
hand.loop_stop()
observer.loop_stop()
PY
kill -TERM "$controller" 2>/dev/null || true  # it may have ended already: its log says why
code=0
wait "$controller" || code=$?
echo "the controller stopped on SIGTERM with exit code $code; its log:"
sed 's/^/  /' /tmp/controller.log
if [ "$checked" -ne 0 ] || [ "$code" -ne 0 ]; then  # (an `a && b` list fails no set -e on a)
    echo "the check exited $checked, the controller $code" >&2
    exit 1
fi
! grep -q "started a private mosquitto" /tmp/controller.log  # it used the installed broker
IN_ROOT

step "--uninstall keeps the config and journal, --uninstall --purge removes them"
in_root -- /bin/sh -c 'cd /root/mafia-table && scripts/install-pi.sh --uninstall' 2>&1 \
    | sed 's/^/    /'
gone /opt/mafia-table /etc/systemd/system/mafia-table.service \
    /etc/systemd/system/multi-user.target.wants/mafia-table.service \
    /etc/udev/rules.d/70-mafia-table.rules
there /etc/mafia-table/table.toml /var/lib/mafia-table /etc/mosquitto/mafia.passwd
in_root -- /bin/sh -c 'cd /root/mafia-table && scripts/install-pi.sh --uninstall --purge' 2>&1 \
    | sed 's/^/    /'
gone /etc/mafia-table /var/lib/mafia-table /etc/mosquitto/mafia.passwd \
    /etc/mosquitto/conf.d/mafia.conf
if in_root -- getent passwd mafia-table >/dev/null; then
    echo "check-arm64: the user mafia-table is still there" >&2; false
fi
say "   gone: the program, the unit, the udev rule; then the config, the journal, the user"
finish_step

say "all passed ($(date -u '+%Y-%m-%d %H:%M UTC'), $ARCH)"
printf '%s\n' "${TIMES[@]}"
printf '%7.1f s  in all\n' "$(echo "$(date +%s.%N) - $STARTED" | bc)"
