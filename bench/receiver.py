"""The bench's subscriber, in its own process (as a rules core would be): prints one line per
seat event, ``<seq> <action> <seat> <time.monotonic() at receipt>``, after a first line ``ready``.

CLOCK_MONOTONIC is one clock for every process on the machine, so these receipt times compare
directly with the edge times taken in the service's process.
"""

import sys
import threading
import time

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from kit.mqtt import no_delay


def main() -> None:
    port, topic = int(sys.argv[1]), sys.argv[2]
    subscribed = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.on_socket_open = no_delay  # as a rules core's client (kit.mqtt) would
    client.on_connect = lambda c, u, f, r, p: c.subscribe(topic, qos=1)
    said = threading.Lock()

    def say_ready() -> None:
        with said:
            if not subscribed.is_set():
                subscribed.set()
                print("ready", flush=True)

    # "ready" from paho's thread, before any message it then hands over: a service already
    # publishing (a backlog's catch-up) would otherwise have a line out before it
    client.on_subscribe = lambda *a: say_ready()

    def on_message(client, userdata, message) -> None:
        at = time.monotonic()
        doc = msgspec.json.decode(message.payload)
        action = message.topic.rsplit("/", 1)[1]
        sys.stdout.write(f"{doc['seq']} {action} {doc['seat']} {at}\n")
        sys.stdout.flush()

    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.loop_start()
    if not subscribed.wait(10):
        say_ready()
    sys.stdin.read()  # until the bench closes our stdin
    client.disconnect()
    client.loop_stop()


if __name__ == "__main__":
    main()
