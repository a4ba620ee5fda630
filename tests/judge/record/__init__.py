"""Tests of judge/record/: the record, the protocol sheet, the games' routes and exports, the
feed to the hall."""
