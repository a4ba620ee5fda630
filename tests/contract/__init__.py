"""Tests of contract/: the published payloads fit docs/asyncapi.yaml; the events are
the API's."""
