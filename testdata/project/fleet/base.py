"""The day the reporting window opened; re-exported by ``constants``."""

REPORTING_DAY = "2024-04-30"
