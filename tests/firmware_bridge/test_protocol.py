"""The console wire codec: properties (hypothesis) and the vectors of docs/protocol.md."""

from __future__ import annotations

import binascii
import re

from hypothesis import given
from hypothesis import strategies as st

from contract.lights import LightMode
from firmware_bridge import protocol as p
from tests.support.protocol_vectors import BAD_INPUTS, DOC

# bytes biased toward what breaks framing: zeros, COBS group codes, 0xFF runs
nasty_bytes = st.lists(st.one_of(st.just(0), st.sampled_from([1, 2, 0xFE, 0xFF]),
                                 st.integers(0, 255)), max_size=200).map(bytes)
payloads = st.one_of(nasty_bytes.map(lambda b: b[:p.MAX_PAYLOAD]),
                     st.binary(max_size=p.MAX_PAYLOAD), st.just(b"\x00" * p.MAX_PAYLOAD))
frames = st.builds(p.Frame, st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                   payloads)


def test_crc_check_value():
    assert p.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=300))
def test_crc_matches_the_standard_library(data):
    assert p.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(nasty_bytes)
def test_cobs_round_trips_and_leaves_no_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


def wire(frame: p.Frame) -> bytes:
    return p.encode_frame(frame.type, frame.seq, frame.ack, frame.payload)


@given(st.lists(frames, max_size=8), st.lists(st.integers(0, 600), max_size=10))
def test_frames_come_back_whatever_the_chunking(sent, cuts):
    stream = b"".join(wire(f) for f in sent)
    decoder = p.Decoder()
    received = []
    start = 0
    for cut in [*sorted(c % (len(stream) + 1) for c in cuts), len(stream)]:
        received += decoder.feed(stream[start:cut])
        start = max(start, cut)
    assert received == sent
    assert decoder.counts["frames"] == len(sent)


@given(nasty_bytes, frames)
def test_garbage_never_raises_never_grows_and_a_good_frame_after_it_still_arrives(junk, good):
    decoder = p.Decoder()
    decoder.feed(junk)
    assert len(decoder._buffer) <= p.MAX_ENCODED
    assert decoder.feed(wire(good))[-1:] == [good]


@given(st.lists(frames, min_size=1, max_size=20), st.randoms())
def test_line_noise_loses_only_the_frames_it_hits_and_counts_them(sent, rng):
    """Flip, drop or add bytes at about 1 % of positions: no crash; every intact frame arrives."""
    decoder = p.Decoder()
    delivered, intact = [], []
    for frame in sent:
        data = bytearray(wire(frame))
        hit = False
        for i in range(len(data)):
            if rng.random() < 0.01:
                data[i] ^= 1 << rng.randrange(8)
                hit = True
        if not hit:
            intact.append(frame)
        delivered += decoder.feed(bytes(data))
    for frame in intact:
        assert frame in delivered
    assert decoder.counts["frames"] == len(delivered)
    assert len(delivered) <= len(sent)  # noise never makes a frame up (the CRC sees to it)


def test_the_documented_vectors():
    rows = re.findall(r"^\| ([^|]+) \| `([0-9a-f]*)` \| `([0-9a-f]+)` \|$", DOC, re.M)
    assert len(rows) == 11
    for name, payload_hex, wire_hex in rows:
        data = bytes.fromhex(wire_hex)
        [frame] = p.Decoder().feed(data)
        assert frame.payload == bytes.fromhex(payload_hex), name
        stated_seq = re.search(r"\bseq (\d+):", name)
        assert frame.seq == (int(stated_seq[1]) if stated_seq else 0), name
        assert frame.ack == int(re.search(r"\(ack (\d+)", name)[1]), name  # every row says it
        assert p.encode_frame(frame.type, frame.seq, frame.ack, frame.payload) == data, name


def test_the_documented_bad_inputs_are_counted_and_the_next_frame_survives():
    good = p.encode_frame(p.T_PING, 0, 5, p.pack_ping(7))
    for kind, data in BAD_INPUTS.items():
        assert f"`{kind}`" in DOC
        decoder = p.Decoder()
        assert decoder.feed(data + good) == [p.Frame(p.T_PING, 0, 5, p.pack_ping(7))], kind
        assert decoder.counts[kind] == 1, (kind, decoder.counts)


def test_the_wire_numbers_light_modes_as_the_contract_does():
    """LIGHT's mode byte, ``light_timing``'s mode numbers and ``LightMode.number`` agree."""
    assert tuple(mode.value for mode in LightMode) == p.LIGHT_MODES
    assert [mode.number for mode in LightMode] == list(range(len(p.LIGHT_MODES)))


def test_message_payloads_round_trip():
    hello = p.pack_hello((1, 2, 3), p.CAP_KEYPAD, b"ABCDEFGH", 0xDEADBEEF, [3, 4])
    assert p.unpack_hello(hello) == {"major": 1, "minor": 2, "firmware": (1, 2, 3),
                                     "capabilities": 1, "unique_id": b"ABCDEFGH",
                                     "boot_id": 0xDEADBEEF, "seats": [3, 4], "first_seq": 1}
    assert p.unpack_event(p.pack_event(3, p.EV_KEY, ord("#"), 2**32 + 5)) == (3, 1, 35, 5)
    assert p.unpack_pong(p.pack_pong(9, 1000)) == (9, 1000)
    assert p.unpack_light(p.pack_light(2, 3, (1, 2, 3))) == (2, 3, (1, 2, 3))
    assert p.seq_after(255) == 1 and p.seq_after(1) == 2


def test_a_flipped_trailing_delimiter_gives_a_frame_one_byte_longer_that_passes_the_crc():
    """Why a receiver checks each payload's length before acting on a frame: CRC-16/CCITT-FALSE
    of a body followed by the first byte of its own CRC is that CRC's second byte, then 0x00,
    which is exactly what COBS decodes when the delimiter after a frame turns into 0x01."""
    frame = p.encode_frame(p.T_EVENT, 9, 0, p.pack_event(4, p.EV_BUTTON_DOWN, 0, 123456))
    [damaged] = p.Decoder().feed(frame[:-1] + b"\x01\x00")
    [intact] = p.Decoder().feed(frame)
    assert (damaged.type, damaged.seq) == (intact.type, intact.seq)
    assert damaged.payload[:-1] == intact.payload and len(damaged.payload) == 8
