"""The judge's panel: a FIIM rules core (``game``), its journal, and the web service that runs
one table's game over MQTT from a tablet (docs/judge.md)."""
