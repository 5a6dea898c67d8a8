"""Fleet tools: an example package the linter reads (it is never run or imported)."""
