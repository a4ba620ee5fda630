"""Every backend name the config accepts has a factory in its registry, and no other: a name
added to one and not the other would fail at start on a real table, not in a test."""

from __future__ import annotations

from typing import get_args, get_type_hints

from contract.buttons import SeatButton
from controller.config import Backends
from firmware_bridge.link import ConsoleConfig
from firmware_bridge.ports import CONSOLE_PORTS
from hardware.audio import SOUND_OUT, Silence, Speaker
from hardware.expander import I2C_BUSES
from hardware.gpio import PIN_FACTORIES
from hardware.strip import SPI_DEVICES

HINTS = get_type_hints(Backends)


def test_every_audio_backend_the_config_accepts_is_a_sound_out():
    assert set(SOUND_OUT) == set(get_args(HINTS["audio"]))


def test_every_consoles_backend_the_config_accepts_is_a_port_backend():
    assert set(CONSOLE_PORTS) == set(get_args(HINTS["consoles"]))


def test_every_gpio_spi_and_i2c_backend_the_config_accepts_has_a_factory():
    assert set(PIN_FACTORIES) == set(get_args(HINTS["gpio"]))
    assert set(SPI_DEVICES) == set(get_args(HINTS["spi"]))
    assert set(I2C_BUSES) == set(get_args(HINTS["i2c"]))


def test_off_is_silence_and_disk_is_a_speaker_on_sdls_disk_driver(tmp_path):
    assert isinstance(SOUND_OUT["off"](disk_file=None), Silence)
    speaker = SOUND_OUT["disk"](disk_file=tmp_path / "out.raw")
    try:
        assert isinstance(speaker, Speaker) and speaker.health()["backend"] == "disk"
        assert speaker.health()["ok"], speaker.health()
    finally:
        speaker.close()


def test_serial_ports_are_the_configured_ones_and_cannot_be_pressed():
    ports = CONSOLE_PORTS["serial"]()
    assert ports.port(0, ConsoleConfig(port="/dev/ttyACM0", seats=[3])) == "/dev/ttyACM0"
    assert ports.emulators == {} and ports.glow(3) is None
    assert not ports.has_button(SeatButton(3))
