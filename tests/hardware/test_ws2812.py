"""The strip's SPI encoding against the WS2812B and SK6812 datasheets (``hardware/ws2812.py``
cites the figures): every pulse inside its tolerance at the nominal clock and across the clock
band the encoding claims, a reset long enough to latch, and frames that decode back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import ws2812

CHIPS = sorted(ws2812.ENCODINGS)
ORDER_OF = {"ws2812b": ["GRB", "RGB"], "ws2812b_v5": ["GRB", "RGB"], "sk6812": ["GRB", "RGB"],
            "sk6812_rgbw": ["GRBW", "RGBW"]}
channel = st.integers(0, 255)
pixel = st.tuples(channel, channel, channel)
# bias toward the values whose bit patterns are extreme: all zeros, all ones, alternating
edgy_pixel = st.tuples(*[st.sampled_from([0, 255, 0x55, 0xAA, 1, 128])] * 3) | pixel


@pytest.mark.parametrize("chip", CHIPS)
def test_every_code_meets_the_datasheet_at_the_nominal_spi_clock(chip):
    encoding = ws2812.ENCODINGS[chip]
    for bit in (0, 1):
        high, low = encoding.pulse(bit)
        assert encoding.timing.accepts(high, low, bit), (chip, bit, high, low)
        assert not encoding.timing.accepts(high, low, 1 - bit)  # and never reads as the other


def test_the_two_datasheets_need_two_encodings():
    """The reason there is an encoding per chip: the WS2812B's at 2.4 MHz makes a 1 that an
    SK6812 reads as neither code (833 ns high, the SK6812 takes 450..750 ns)."""
    high, low = ws2812.ENCODINGS["ws2812b"].pulse(1)
    assert not ws2812.SK6812.accepts(high, low, 1)


def test_the_two_ws2812b_datasheets_need_two_encodings():
    """The V5 datasheet narrowed the codes: the older WS2812B's 0 at 2.4 MHz is high for 417 ns
    (the V5 takes 220..380) and its 1 low for 417 ns (the V5 wants 580..1000); the V5's 1 at
    3.2 MHz is high for 625 ns, short of the older datasheet's 650."""
    old, v5 = ws2812.ENCODINGS["ws2812b"], ws2812.ENCODINGS["ws2812b_v5"]
    assert not any(ws2812.WS2812B_V5.accepts(*old.pulse(bit), bit) for bit in (0, 1))
    assert not ws2812.WS2812B.accepts(*v5.pulse(1), 1)


@pytest.mark.parametrize("chip", CHIPS)
@given(share=st.floats(0.0001, 0.9999))
def test_every_clock_in_the_claimed_band_keeps_every_pulse_in_tolerance(chip, share):
    encoding = ws2812.ENCODINGS[chip]
    low_hz, high_hz = encoding.clock_range()
    hz = low_hz + share * (high_hz - low_hz)
    for bit in (0, 1):
        high, low = encoding.pulse(bit, hz)
        assert encoding.timing.accepts(high, low, bit), (hz, bit, high, low)


@pytest.mark.parametrize("chip", CHIPS)
def test_the_band_is_as_wide_as_the_tolerance_allows(chip):
    """Just outside the band some pulse leaves its tolerance: the band is not too modest."""
    encoding = ws2812.ENCODINGS[chip]
    low_hz, high_hz = encoding.clock_range()
    assert low_hz < encoding.spi_hz < high_hz
    for hz in (low_hz * 0.99, high_hz * 1.01):
        assert not all(encoding.timing.accepts(*encoding.pulse(bit, hz), bit) for bit in (0, 1))


def _even_divider_clock(source_hz: float, want_hz: float) -> float:
    """The clock an SPI controller with an even divider gives for ``want_hz`` (the Pi 4's
    spi-bcm2835 rounds the divider up to even; the Pi 5's RP1 DesignWare SPI also divides by
    an even number)."""
    divider = -(-source_hz // want_hz)
    divider += divider % 2
    return source_hz / divider


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("source_mhz", [500, 250, 200])  # Pi 4 core (fixed), Pi 3 idle, RP1
def test_the_clock_a_pi_really_gives_is_inside_the_band(chip, source_mhz):
    encoding = ws2812.ENCODINGS[chip]
    low_hz, high_hz = encoding.clock_range()
    assert low_hz <= _even_divider_clock(source_mhz * 1e6, encoding.spi_hz) <= high_hz


@pytest.mark.parametrize("chip", CHIPS)
def test_the_reset_latches_even_at_the_fastest_clock_of_the_band(chip):
    encoding = ws2812.ENCODINGS[chip]
    low_ns = encoding.reset_bytes() * 8 * 1e9 / encoding.clock_range()[1]
    assert low_ns >= encoding.timing.reset
    nominal_ns = encoding.reset_bytes() * 8 * 1e9 / encoding.spi_hz
    assert nominal_ns >= ws2812.WS2812B_V5.reset  # the newest WS2812B's longer latch too


def test_a_known_pixel_gives_the_known_bytes():
    """Red on a GRB WS2812B: green 0x00 is eight ``100``s, red 0xFF eight ``110``s, blue 0x00
    eight ``100``s, between two 96-byte resets (320 us at 2.4 MHz)."""
    encoding = ws2812.ENCODINGS["ws2812b"]
    frame = ws2812.encode_frame([(255, 0, 0)], "GRB", encoding)
    zeros, ones = bytes.fromhex("924924"), bytes.fromhex("db6db6")
    assert frame == bytes(96) + zeros + ones + zeros + bytes(96)


def test_an_rgbw_pixel_sends_the_shared_white_on_its_white_led():
    encoding = ws2812.ENCODINGS["sk6812_rgbw"]
    frame = ws2812.encode_frame([(255, 200, 100)], "GRBW", encoding)
    assert ws2812.decode_frame(frame, "GRBW", encoding) == [(100, 155, 0, 100)]


@pytest.mark.parametrize("chip", CHIPS)
@given(data=st.data())
def test_any_frame_decodes_to_the_pixels_it_was_made_from(chip, data):
    order = data.draw(st.sampled_from(ORDER_OF[chip]))
    pixels = data.draw(st.lists(edgy_pixel, max_size=30))
    encoding = ws2812.ENCODINGS[chip]
    frame = ws2812.encode_frame(pixels, order, encoding)
    assert len(frame) == ws2812.frame_size(len(pixels), order, encoding)
    decoded = ws2812.decode_frame(frame, order, encoding)
    assert [ws2812.to_rgb(p, order) for p in decoded] == pixels


@given(frame=st.binary(max_size=400))
def test_bytes_that_are_no_frame_are_refused_not_misread(frame):
    encoding = ws2812.ENCODINGS["ws2812b"]
    try:
        pixels = ws2812.decode_frame(frame, "GRB", encoding)
    except ws2812.DecodeError:
        return
    assert ws2812.encode_frame([ws2812.to_rgb(p, "GRB") for p in pixels], "GRB",
                               encoding) == frame
