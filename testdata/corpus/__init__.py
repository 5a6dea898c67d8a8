"""A small package of agent tools, linted by tests/test_corpus.py and never imported."""
