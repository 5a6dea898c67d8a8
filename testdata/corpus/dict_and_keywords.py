"""A coverage() call given its boundary as a dict and as keywords at once."""

from semantics_lint.runtime import coverage


def srdf_verdict(verdict, skipped):
    return coverage(verdict, {"checked": ["SRDF pair state on all 4 arrays"]}, notChecked=skipped)  # expect: SEM100
