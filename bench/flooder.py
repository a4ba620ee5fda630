"""A hostile rules core, in its own process: ``rate`` commands a second for ``seconds``.

    python -m bench.flooder PORT TABLE RATE SECONDS [QOS] [KIND]

``KIND`` ``light`` (the default) publishes ``cmd/light``, each setting a random seat to a random
mode; ``sim`` publishes ``sim/press`` and ``sim/release`` of random seats 2..10 (a simulated
table's hands; seat 1 is the bench's). At ``QOS`` 1 (the default) or 0, in slices of 10 ms. It
counts the replies by outcome. Prints ``ready`` once subscribed, waits for a line on stdin to
start, and at the end prints ``sent <n> ok <n> busy <n> other <n>`` after the replies have
stopped coming for a second (or 10 s passed).
"""

import random
import sys
import threading
import time

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract.topics import topic_prefix

MODES = ["on", "off", "dim", "blink", "fast_blink", "auto"]


def commands(prefix: str, kind: str):
    """An endless stream of (topic, payload) of ``kind``."""
    sent = 0
    while True:
        if kind == "sim":
            verb = "press" if sent % 2 == 0 else "release"
            yield f"{prefix}sim/{verb}", msgspec.json.encode(
                {"id": f"f{sent}", "seat": random.randint(2, 10)})
        else:
            yield f"{prefix}cmd/light", msgspec.json.encode({"id": f"f{sent}", "lights": [
                {"seat": random.randint(1, 10), "mode": random.choice(MODES)}]})
        sent += 1


def main() -> None:
    port, table, rate, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(
        sys.argv[4])
    qos = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    kind = sys.argv[6] if len(sys.argv) > 6 else "light"
    counts = {"ok": 0, "busy": 0, "other": 0}
    last_reply = [time.monotonic()]
    subscribed = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.max_queued_messages_set(0)
    prefix = topic_prefix(table)
    replies = f"{prefix}reply/sim/#" if kind == "sim" else f"{prefix}reply/light"
    client.on_connect = lambda c, u, f, r, p: c.subscribe(replies, qos=1)
    client.on_subscribe = lambda *a: subscribed.set()

    def on_message(client, userdata, message) -> None:
        doc = msgspec.json.decode(message.payload)
        outcome = "ok" if doc["ok"] else "busy" if doc["error"].startswith("busy") else "other"
        counts[outcome] += 1
        last_reply[0] = time.monotonic()

    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.loop_start()
    subscribed.wait(10)
    print("ready", flush=True)
    sys.stdin.readline()
    stream, sent = commands(prefix, kind), 0
    start = time.monotonic()
    while (now := time.monotonic()) < start + seconds:
        due = int((now - start) * rate)
        while sent < due:
            topic, payload = next(stream)
            client.publish(topic, payload, qos=qos)
            sent += 1
        time.sleep(0.01)
    end = time.monotonic() + 10
    while time.monotonic() < end and time.monotonic() - last_reply[0] < 1:
        time.sleep(0.1)
    print(f"sent {sent} ok {counts['ok']} busy {counts['busy']} other {counts['other']}",
          flush=True)
    client.disconnect()
    client.loop_stop()


if __name__ == "__main__":
    main()
