from semantics_lint.runtime import absent, coverage

DEFAULTS = {"checked": [], "label": "inventory"}


def setup(sources):
    DEFAULTS["checked"].extend(sources)


def covered(result):
    if not result:
        return absent(what="hosts", checked=["the inventory"])
    return coverage(result, checked=DEFAULTS["checked"])
