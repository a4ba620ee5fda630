"""The tests, in folders that mirror the packages (contract/, kit/, hardware/,
firmware_bridge/, controller/, judge/, hall/), the whole games across them in e2e/, the benches'
quick runs in bench/, and the harness they share in support/."""
