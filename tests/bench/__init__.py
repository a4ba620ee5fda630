"""Every bench in bench/ run in its ``--quick`` mode: it runs and prints its figures."""
