"""A hostile rules core, in its own process: ``rate`` ``cmd/light`` a second for ``seconds``.

    python -m bench.flooder PORT TABLE RATE SECONDS

Publishes QoS 1 commands in slices of 10 ms, each setting a random seat to a random mode, and
counts the replies on ``reply/light`` by outcome. Prints ``ready`` once subscribed, waits for a
line on stdin to start, and at the end prints ``sent <n> ok <n> busy <n> other <n>`` after the
replies have stopped coming for a second (or 10 s passed).
"""

import random
import sys
import threading
import time

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract.topics import topic_prefix


def main() -> None:
    port, table, rate, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(
        sys.argv[4])
    counts = {"ok": 0, "busy": 0, "other": 0}
    last_reply = [time.monotonic()]
    subscribed = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.max_queued_messages_set(0)
    prefix = topic_prefix(table)
    client.on_connect = lambda c, u, f, r, p: c.subscribe(f"{prefix}reply/light", qos=1)
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
    modes = ["on", "off", "dim", "blink", "fast_blink", "auto"]
    topic, sent = f"{prefix}cmd/light", 0
    start = time.monotonic()
    while (now := time.monotonic()) < start + seconds:
        due = int((now - start) * rate)
        while sent < due:
            payload = msgspec.json.encode({"id": f"f{sent}", "lights": [
                {"seat": random.randint(1, 10), "mode": random.choice(modes)}]})
            client.publish(topic, payload, qos=1)
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
