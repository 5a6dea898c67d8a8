"""The SEM rule catalog, one module per family."""
