"""Tests of controller/: the service and its shell, config, tools; core/, journal/ and
shell/ in folders of their own."""
