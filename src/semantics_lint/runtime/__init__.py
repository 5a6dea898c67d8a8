"""The runtime checker: the envelope rules, the mints and the check-semantics gate."""
