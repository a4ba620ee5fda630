"""The mafia table controller service.

The package is split the way docs/architecture.md draws it: ``controller.core`` is the pure
functional core (table model, inputs, effects, every rule), the other modules are the imperative
shell that wires hardware adapters, the MQTT link and the event loop around it.
"""

__version__ = "0.1.0"
